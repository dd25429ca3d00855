//! The accept loop of `serve`, in place of `axum::serve`, which sets no header-read timeout
//! (hyper's only works with a timer, and axum gives it none), no connection limit and no TLS:
//!
//! - a new connection must send its first byte within `[server] first_byte_timeout_secs`, and
//!   a request's headers within [`HEADER_READ_TIMEOUT`] (also between requests on a kept-alive
//!   connection), so idle and slow-drip clients cannot hold connections;
//! - a request body must keep up `[server] min_body_bytes_per_sec` on average
//!   (`slow_body.rs`);
//! - at most `[server] max_connections` are open, and at most
//!   `max_connections_per_client` from one client (`clients.rs`: an address, IPv6 per /64): a
//!   connection past its client's cap is closed at once, so one host cannot take every slot.
//!   Past the total the loop stops accepting until one closes (the kernel's backlog holds the
//!   rest). A connection upgraded to `/ws` leaves the total: the live channel closes it unless
//!   it signs in within seconds;
//! - with `[server] tls_cert`/`tls_key`, HTTPS with rustls on ring, the one crypto provider of
//!   the binary (`mail::tls::provider`, the mail connections use it too); the handshake has
//!   [`HANDSHAKE_TIMEOUT`];
//! - on shutdown, open connections finish their request and close.

use std::net::SocketAddr;
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use anyhow::Context;
use axum::Router;
use axum::extract::ConnectInfo;
use hyper::body::Incoming;
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::io::{AsyncRead, AsyncWrite};
use tokio::net::TcpListener;
use tokio::sync::{Semaphore, watch};
use tokio_rustls::TlsAcceptor;
use tokio_rustls::rustls::ServerConfig;
use tokio_rustls::rustls::pki_types::pem::PemObject;
use tokio_rustls::rustls::pki_types::{CertificateDer, PrivateKeyDer};
use tower::ServiceExt;

use super::clients::Clients;
use super::slow_body::{self, MinRate};

/// How long a client may take to send a request's headers.
pub const HEADER_READ_TIMEOUT: Duration = Duration::from_secs(30);
/// How long a TLS handshake may take.
pub const HANDSHAKE_TIMEOUT: Duration = Duration::from_secs(10);

/// The HTTPS side of the listener, from a PEM certificate chain and its PEM private key.
pub fn tls_acceptor(cert: &Path, key: &Path) -> anyhow::Result<TlsAcceptor> {
    let read = |p: &Path| std::fs::read(p).with_context(|| format!("cannot read {}", p.display()));
    let chain = CertificateDer::pem_slice_iter(&read(cert)?)
        .collect::<Result<Vec<_>, _>>()
        .with_context(|| format!("bad PEM certificate in {}", cert.display()))?;
    anyhow::ensure!(
        !chain.is_empty(),
        "no certificate found in {}",
        cert.display()
    );
    let private = PrivateKeyDer::from_pem_slice(&read(key)?)
        .with_context(|| format!("no usable private key in {}", key.display()))?;
    let mut config = ServerConfig::builder_with_provider(crate::mail::tls::provider())
        .with_safe_default_protocol_versions()?
        .with_no_client_auth()
        .with_single_cert(chain, private)
        .with_context(|| {
            format!(
                "{} and {} do not make a usable pair",
                cert.display(),
                key.display()
            )
        })?;
    config.alpn_protocols = vec![b"http/1.1".to_vec()];
    Ok(TlsAcceptor::from(Arc::new(config)))
}

/// The limits of the accept loop.
#[derive(Debug, Clone)]
pub struct Limits {
    pub max_connections: usize,
    /// Open connections of one client at most.
    pub per_client: usize,
    /// Clients not capped (`[server] trusted_proxies`).
    pub uncapped: Vec<ipnet::IpNet>,
    pub first_byte_timeout: Duration,
    pub header_read_timeout: Duration,
    /// A request body's average rate at least, after [`slow_body::GRACE`].
    pub min_body_rate: u64,
    pub body_grace: Duration,
}

impl Limits {
    pub fn of(config: &crate::config::Config) -> Self {
        let server = &config.server;
        Self {
            max_connections: server.max_connections as usize,
            per_client: server.max_connections_per_client as usize,
            uncapped: server
                .trusted_proxies
                .iter()
                .filter_map(|p| crate::config::parse_network(p))
                .collect(),
            first_byte_timeout: Duration::from_secs(server.first_byte_timeout_secs),
            header_read_timeout: HEADER_READ_TIMEOUT,
            min_body_rate: server.min_body_bytes_per_sec,
            body_grace: slow_body::GRACE,
        }
    }
}

/// Raises this process's limit of open files to the hard limit (a connection is one; the
/// usual soft limit of 1,024 is below `max_connections`' default). Best effort.
fn raise_open_files_limit() {
    #[cfg(unix)]
    {
        let mut lim = libc::rlimit {
            rlim_cur: 0,
            rlim_max: 0,
        };
        // SAFETY: getrlimit and setrlimit only read and write the struct passed.
        unsafe {
            if libc::getrlimit(libc::RLIMIT_NOFILE, &mut lim) == 0 && lim.rlim_cur < lim.rlim_max {
                lim.rlim_cur = lim.rlim_max;
                if libc::setrlimit(libc::RLIMIT_NOFILE, &lim) != 0 {
                    tracing::debug!("cannot raise the open files limit");
                }
            }
        }
    }
}

/// Serves `app` on `listener` until `shutdown` completes, then lets open requests finish.
pub async fn serve(
    listener: TcpListener,
    app: Router,
    tls: Option<TlsAcceptor>,
    limits: Limits,
    shutdown: impl Future<Output = ()>,
) {
    raise_open_files_limit();
    let max_connections = limits.max_connections;
    let clients = Clients::new(limits.per_client, limits.uncapped.clone());
    let limits = Arc::new(limits);
    let slots = Arc::new(Semaphore::new(max_connections));
    let (stop, stopping) = watch::channel(false);
    tokio::pin!(shutdown);
    loop {
        let slot = tokio::select! {
            slot = slots.clone().acquire_owned() => slot.expect("the semaphore is never closed"),
            () = &mut shutdown => break,
        };
        let (stream, peer) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(a) => a,
                Err(e) => {
                    // Out of file descriptors and the like: wait a little, do not spin.
                    tracing::warn!(error = %e, "accept failed");
                    tokio::time::sleep(Duration::from_millis(100)).await;
                    continue;
                }
            },
            () = &mut shutdown => break,
        };
        let Some(client_slot) = clients.enter(peer.ip()) else {
            tracing::debug!(%peer, "the client holds its connections already: closed");
            continue;
        };
        let _ = stream.set_nodelay(true);
        let (app, tls, stopping, limits) =
            (app.clone(), tls.clone(), stopping.clone(), limits.clone());
        tokio::spawn(async move {
            let _slots = (slot, client_slot);
            // Nothing is spent on a connection that says nothing, and one that has said nothing
            // yet does not hold up the way out (the drain below waits for every connection).
            let mut first = [0u8; 1];
            let mut told = stopping.clone();
            let said = tokio::select! {
                said = tokio::time::timeout(limits.first_byte_timeout, stream.peek(&mut first)) => said,
                _ = told.wait_for(|stop| *stop) => return,
            };
            match said {
                Ok(Ok(n)) if n > 0 => {}
                Ok(_) => return,
                Err(_) => {
                    tracing::debug!(%peer, "no request in time: closed");
                    return;
                }
            }
            match tls {
                None => connection(stream, peer, app, &limits, stopping).await,
                Some(tls) => {
                    match tokio::time::timeout(HANDSHAKE_TIMEOUT, tls.accept(stream)).await {
                        Ok(Ok(stream)) => connection(stream, peer, app, &limits, stopping).await,
                        Ok(Err(e)) => tracing::debug!(%peer, error = %e, "TLS handshake failed"),
                        Err(_) => tracing::debug!(%peer, "TLS handshake timed out"),
                    }
                }
            }
        });
    }
    let _ = stop.send(true);
    // Every connection gives its slot back when it is done.
    let _ = slots.acquire_many(max_connections as u32).await;
}

async fn connection<I>(
    io: I,
    peer: SocketAddr,
    app: Router,
    limits: &Limits,
    mut stopping: watch::Receiver<bool>,
) where
    I: AsyncRead + AsyncWrite + Unpin + Send + 'static,
{
    let (rate, grace) = (limits.min_body_rate, limits.body_grace);
    let service = hyper::service::service_fn(move |request: hyper::Request<Incoming>| {
        let mut request =
            request.map(|body| axum::body::Body::new(MinRate::new(body, rate, grace)));
        request.extensions_mut().insert(ConnectInfo(peer));
        app.clone().oneshot(request)
    });
    let conn = hyper::server::conn::http1::Builder::new()
        .timer(TokioTimer::new())
        .header_read_timeout(limits.header_read_timeout)
        .serve_connection(TokioIo::new(io), service)
        .with_upgrades();
    tokio::pin!(conn);
    let result = tokio::select! {
        result = conn.as_mut() => result,
        () = async {
            // The guard it returns must not live on into the branch.
            let _ = stopping.wait_for(|stop| *stop).await;
        } => {
            conn.as_mut().graceful_shutdown();
            conn.await
        }
    };
    if let Err(e) = result {
        tracing::debug!(%peer, error = %e, "connection ended with an error");
    }
}

#[cfg(test)]
mod tests {
    use axum::routing::{get, post};
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    use tokio::net::{TcpSocket, TcpStream};

    use super::*;

    fn limits(max_connections: usize, per_client: usize) -> Limits {
        Limits {
            max_connections,
            per_client,
            uncapped: Vec::new(),
            first_byte_timeout: Duration::from_secs(30),
            header_read_timeout: Duration::from_secs(30),
            min_body_rate: 1024,
            body_grace: Duration::from_secs(10),
        }
    }

    /// A server of `/` (and `POST /echo`, which reads the body) on a free loopback port with
    /// these limits; stops when the test ends.
    async fn start(limits: Limits) -> (SocketAddr, tokio::sync::oneshot::Sender<()>) {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let app = Router::new().route("/", get(|| async { "ok" })).route(
            "/echo",
            post(|body: axum::body::Bytes| async move { format!("got {}", body.len()) }),
        );
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        tokio::spawn(serve(listener, app, None, limits, async {
            let _ = stopped.await;
        }));
        (addr, stop)
    }

    /// A connection to `addr` from the loopback address `from` (127.0.0.2 is another client).
    async fn connect_from(from: &str, addr: SocketAddr) -> TcpStream {
        let socket = TcpSocket::new_v4().unwrap();
        socket.bind(format!("{from}:0").parse().unwrap()).unwrap();
        socket.connect(addr).await.unwrap()
    }

    /// A connection that has said nothing yet ends with the server, not at its first-byte
    /// timeout (30 s here): `serve`'s way out waits for every connection.
    #[tokio::test]
    async fn a_silent_connection_does_not_hold_up_the_way_out() {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let served = tokio::spawn(serve(listener, Router::new(), None, limits(8, 8), async {
            let _ = stopped.await;
        }));
        let _silent = TcpStream::connect(addr).await.unwrap();
        tokio::time::sleep(Duration::from_millis(200)).await;
        stop.send(()).unwrap();
        tokio::time::timeout(Duration::from_secs(5), served)
            .await
            .expect("serve returned while a connection had said nothing")
            .unwrap();
    }

    /// Sends one request and reads until the server closes or `wait` passes.
    async fn ask(stream: &mut TcpStream, wait: Duration) -> String {
        stream
            .write_all(b"GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            .await
            .unwrap();
        let mut out = Vec::new();
        let _ = tokio::time::timeout(wait, stream.read_to_end(&mut out)).await;
        String::from_utf8_lossy(&out).into_owned()
    }

    #[tokio::test]
    async fn a_client_slow_to_send_its_headers_is_cut_off() {
        let (addr, _stop) = start(Limits {
            header_read_timeout: Duration::from_millis(300),
            ..limits(8, 8)
        })
        .await;
        let mut slow = TcpStream::connect(addr).await.unwrap();
        slow.write_all(b"GET / HTTP/1.1\r\nHost: x\r\n")
            .await
            .unwrap();
        let mut buf = Vec::new();
        let closed = tokio::time::timeout(Duration::from_secs(3), slow.read_to_end(&mut buf)).await;
        assert!(closed.is_ok(), "the connection should have been closed");
        let mut quick = TcpStream::connect(addr).await.unwrap();
        assert!(
            ask(&mut quick, Duration::from_secs(3))
                .await
                .contains("200 OK")
        );
    }

    #[tokio::test]
    async fn a_connection_that_says_nothing_is_closed_after_the_first_byte_timeout() {
        let (addr, _stop) = start(Limits {
            first_byte_timeout: Duration::from_millis(300),
            ..limits(8, 8)
        })
        .await;
        let mut idle = TcpStream::connect(addr).await.unwrap();
        let mut buf = Vec::new();
        let closed = tokio::time::timeout(Duration::from_secs(3), idle.read_to_end(&mut buf)).await;
        assert!(
            closed.is_ok(),
            "the idle connection should have been closed"
        );
    }

    #[tokio::test]
    async fn past_max_connections_a_client_waits_for_a_free_one() {
        let (addr, _stop) = start(limits(2, 8)).await;
        let idle1 = TcpStream::connect(addr).await.unwrap();
        let _idle2 = TcpStream::connect(addr).await.unwrap();
        let mut third = TcpStream::connect(addr).await.unwrap();
        // Both slots are held: the third is not served...
        assert_eq!(ask(&mut third, Duration::from_millis(500)).await, "");
        // ...until one closes.
        drop(idle1);
        let mut out = Vec::new();
        tokio::time::timeout(Duration::from_secs(3), third.read_to_end(&mut out))
            .await
            .unwrap()
            .unwrap();
        assert!(String::from_utf8_lossy(&out).contains("200 OK"));
    }

    #[tokio::test]
    async fn a_client_at_its_cap_cannot_starve_another() {
        let (addr, _stop) = start(limits(16, 4)).await;
        // 127.0.0.2 opens 30 idle connections: it keeps 4, the rest are closed at once.
        let mut hog = Vec::new();
        for _ in 0..30 {
            hog.push(connect_from("127.0.0.2", addr).await);
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
        let mut other = connect_from("127.0.0.1", addr).await;
        assert!(
            ask(&mut other, Duration::from_secs(3))
                .await
                .contains("200 OK")
        );
        // The hog's own fifth connection was closed without an answer.
        let mut fifth = hog.remove(10);
        assert_eq!(ask(&mut fifth, Duration::from_secs(1)).await, "");
    }

    #[tokio::test]
    async fn a_body_that_trickles_is_cut_off() {
        let (addr, _stop) = start(Limits {
            min_body_rate: 1000,
            body_grace: Duration::from_millis(300),
            ..limits(8, 8)
        })
        .await;
        let mut slow = TcpStream::connect(addr).await.unwrap();
        slow.write_all(
            b"POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 100000\r\nConnection: close\r\n\r\n",
        )
        .await
        .unwrap();
        // ...and then nothing: past the grace the body is refused.
        let started = std::time::Instant::now();
        let mut out = Vec::new();
        tokio::time::timeout(Duration::from_secs(5), slow.read_to_end(&mut out))
            .await
            .expect("answered and closed")
            .unwrap();
        let out = String::from_utf8_lossy(&out);
        assert!(out.starts_with("HTTP/1.1 4"), "{out}");
        assert!(
            started.elapsed() >= Duration::from_millis(300),
            "{:?}",
            started.elapsed()
        );
        // A body that keeps up is read whole.
        let mut quick = TcpStream::connect(addr).await.unwrap();
        quick
            .write_all(b"POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nConnection: close\r\n\r\nhello")
            .await
            .unwrap();
        let mut out = Vec::new();
        tokio::time::timeout(Duration::from_secs(3), quick.read_to_end(&mut out))
            .await
            .unwrap()
            .unwrap();
        assert!(String::from_utf8_lossy(&out).contains("got 5"));
    }
}
