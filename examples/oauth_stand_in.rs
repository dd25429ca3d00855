//! The local OAuth2 authorization server of the tests (`tests/common/oauth_server.rs`) as a
//! process, for the web E2E and for trying the sign-in by hand:
//!
//! ```sh
//! cargo run --example oauth_stand_in -- [--listen 127.0.0.1:0] [--access-ttl 3600] [--device-interval 1]
//! ```
//!
//! Prints `OAUTH_STAND_IN_URL=http://127.0.0.1:PORT` on its first line, then serves until
//! killed. Endpoints: `/authorize`, `/token`, `/devicecode`, `/device` (the verification page),
//! `/revoke`, `/introspect` (for Dovecot), and the controls `/_settings`, `/_revoke_user`,
//! `/_stats`, `/_device_codes`. Clients: `google-test-client` / `google-test-secret`,
//! `microsoft-test-client`.

#[path = "../tests/common/oauth_server.rs"]
mod oauth_server;

use std::io::Write;

fn main() {
    let mut listen = "127.0.0.1:0".to_string();
    let mut access_ttl = 3600;
    let mut device_interval = 1;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        let mut value = || args.next().unwrap_or_else(|| panic!("{arg} needs a value"));
        match arg.as_str() {
            "--listen" => listen = value(),
            "--access-ttl" => access_ttl = value().parse().expect("--access-ttl: seconds"),
            "--device-interval" => {
                device_interval = value().parse().expect("--device-interval: seconds")
            }
            other => panic!("unknown argument {other}"),
        }
    }
    let addr: std::net::SocketAddr = listen.parse().expect("--listen: an address and port");
    assert!(
        addr.ip().is_loopback(),
        "the stand-in listens on loopback only"
    );
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(async {
        let server = oauth_server::OAuthServer::start_on(addr, access_ttl, device_interval).await;
        println!("OAUTH_STAND_IN_URL={}", server.url);
        std::io::stdout().flush().unwrap();
        std::future::pending::<()>().await;
    });
}
