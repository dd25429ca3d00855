//! `mailclient serve`: opens (and migrates) the store, prints the first-run link when there
//! is no user yet, and serves HTTP or HTTPS (`crate::http::server`) until SIGINT or SIGTERM.
//! Plain HTTP on an address other than loopback gets a warning on the console: passwords and
//! mail would cross the network readable.

use std::io::IsTerminal;
use std::net::SocketAddr;
use std::time::{Duration, Instant};

use anyhow::Context;
use clap::Args;

use crate::app::app;
use crate::config::Config;
use crate::state::AppState;
use crate::store::Store;

#[derive(Debug, Args)]
pub struct ServeArgs {
    /// Address and port to listen on. Overrides `[server] listen`.
    #[arg(long, value_name = "ADDR:PORT")]
    pub listen: Option<String>,
}

/// How long the way out may take: the runtime's tasks and blocking pool, then the store's last
/// holders, together (the HTTP connections' drain comes before it).
const CLOSE_WAIT: Duration = Duration::from_secs(15);

/// Runs `serve` on a runtime of its own until SIGINT or SIGTERM, then closes the store once the
/// runtime's tasks (which hold it) are gone, so the next start need not check the file page by
/// page. A failure after the store opened (the port taken) closes it too.
pub fn run(config: Config) -> anyhow::Result<()> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .context("cannot start the async runtime")?;
    let (store, served) = runtime.block_on(serve(config))?;
    let end = Instant::now() + CLOSE_WAIT;
    runtime.shutdown_timeout(CLOSE_WAIT);
    store.close(end.saturating_duration_since(Instant::now()));
    served?;
    println!("mailclient stopped");
    Ok(())
}

/// Opens the store and serves until a signal: the store, for [`run`] to close once the runtime
/// is gone, and how serving ended.
async fn serve(config: Config) -> anyhow::Result<(Store, anyhow::Result<()>)> {
    let (store, ran) = crate::schema::open_and_migrate_with_cache(
        &config.storage.data_dir,
        config.storage.cache_size_mb,
    )?;
    for m in &ran {
        tracing::info!(version = m.version, name = m.name, "applied migration");
    }
    let addr = config.listen_addr();
    let tls = match config.tls_files() {
        Some((cert, key)) => Some(crate::http::server::tls_acceptor(cert, key)?),
        None => None,
    };
    if let Some(warning) = plain_http_warning(addr, tls.is_some()) {
        eprintln!("{warning}");
    }
    let state = crate::app::state(config, store)?;
    let served = serve_state(&state, addr, tls).await;
    state.jobs().shutdown().await;
    state.service::<crate::sync::SyncManager>().stop_all();
    state.store.begin_close();
    // The indexer's thread sleeps up to its idle poll: woken, it sees the store closing and ends.
    state.service::<crate::search::Search>().poke();
    Ok((state.store.clone(), served))
}

/// Starts the background work, prints the address (and the first-run link), and serves HTTP
/// until a signal.
async fn serve_state(
    state: &AppState,
    addr: SocketAddr,
    tls: Option<tokio_rustls::TlsAcceptor>,
) -> anyhow::Result<()> {
    crate::app::start_background(state).await?;
    let listener = tokio::net::TcpListener::bind(addr)
        .await
        .with_context(|| format!("cannot listen on {addr}"))?;
    let bound = listener.local_addr()?;
    let public_url = state.config.public_url(bound);
    let scheme = if tls.is_some() { "https" } else { "http" };
    println!("mailclient listening on {scheme}://{bound}");
    let gate = state.service::<crate::auth::setup::SetupGate>();
    if let Some(token) = gate.token() {
        // Whoever reads the link may create the first admin: a terminal is the owner's, a
        // journal may be anyone's on the machine (and shipped elsewhere), so there it goes to a
        // file only this user reads.
        let link = format!("{public_url}/#/setup?token={token}");
        if std::io::stdout().is_terminal() {
            println!("No user exists yet. Open this link once to create the first admin:");
            println!("  {link}");
        } else {
            let path = gate
                .write_link(&state.config.storage.data_dir, &link)
                .context("cannot write the first-run link")?;
            println!(
                "No user exists yet. The one-time link to create the first admin is in {} \
                 (readable by this user only; removed once used).",
                path.display()
            );
        }
        println!("(or run: mailclient user add <name> --admin)");
    }
    let limits = crate::http::server::Limits::of(&state.config);
    crate::http::server::serve(listener, app(state.clone()), tls, limits, shutdown_signal()).await;
    Ok(())
}

/// The console's warning when `serve` would speak plain HTTP beyond this machine.
fn plain_http_warning(addr: SocketAddr, tls: bool) -> Option<String> {
    (!tls && !addr.ip().is_loopback()).then(|| {
        format!(
            "warning: serving plain HTTP on {addr}: passwords, sessions and mail cross the \
             network unencrypted. Set [server] tls_cert and tls_key, or listen on 127.0.0.1 \
             behind a TLS proxy (docs/OPERATIONS.md: \"Behind Caddy or nginx\")."
        )
    })
}

async fn shutdown_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let terminate = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut s) => {
                s.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let terminate = std::future::pending::<()>();
    tokio::select! {
        () = ctrl_c => {},
        () = terminate => {},
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_http_beyond_loopback_is_warned_about() {
        let at = |a: &str| a.parse::<SocketAddr>().unwrap();
        assert!(plain_http_warning(at("0.0.0.0:8080"), false).is_some());
        assert!(plain_http_warning(at("192.168.1.5:8080"), false).is_some());
        assert!(plain_http_warning(at("[::]:8080"), false).is_some());
        assert!(plain_http_warning(at("0.0.0.0:8443"), true).is_none());
        assert!(plain_http_warning(at("127.0.0.1:8080"), false).is_none());
        assert!(plain_http_warning(at("[::1]:8080"), false).is_none());
    }
}
