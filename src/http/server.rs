//! The accept loop of `serve`, in place of `axum::serve`, which sets no header-read timeout
//! (hyper's only works with a timer, and axum gives it none), no connection limit and no TLS:
//!
//! - a client has [`HEADER_READ_TIMEOUT`] to send a request's headers (also between requests
//!   on a kept-alive connection), so slow-drip clients cannot hold connections;
//! - at most `[server] max_connections` are open; past that the loop stops accepting until one
//!   closes (the kernel's backlog holds the rest). A connection upgraded to `/ws` leaves the
//!   count: the live channel closes it unless it signs in within seconds;
//! - with `[server] tls_cert`/`tls_key`, HTTPS with rustls on aws-lc-rs, the one crypto
//!   provider of the tree (the mail connections use it too); the handshake has
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
use tokio_rustls::rustls::crypto::aws_lc_rs;
use tokio_rustls::rustls::pki_types::pem::PemObject;
use tokio_rustls::rustls::pki_types::{CertificateDer, PrivateKeyDer};
use tower::ServiceExt;

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
    let mut config = ServerConfig::builder_with_provider(Arc::new(aws_lc_rs::default_provider()))
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
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    pub max_connections: usize,
    pub header_read_timeout: Duration,
}

impl Limits {
    pub fn of(config: &crate::config::Config) -> Self {
        Self {
            max_connections: config.server.max_connections as usize,
            header_read_timeout: HEADER_READ_TIMEOUT,
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
    let max_connections = limits.max_connections;
    let header_read_timeout = limits.header_read_timeout;
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
        let _ = stream.set_nodelay(true);
        let (app, tls, stopping) = (app.clone(), tls.clone(), stopping.clone());
        tokio::spawn(async move {
            let _slot = slot;
            match tls {
                None => connection(stream, peer, app, header_read_timeout, stopping).await,
                Some(tls) => {
                    match tokio::time::timeout(HANDSHAKE_TIMEOUT, tls.accept(stream)).await {
                        Ok(Ok(stream)) => {
                            connection(stream, peer, app, header_read_timeout, stopping).await
                        }
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
    header_read_timeout: Duration,
    mut stopping: watch::Receiver<bool>,
) where
    I: AsyncRead + AsyncWrite + Unpin + Send + 'static,
{
    let service = hyper::service::service_fn(move |request: hyper::Request<Incoming>| {
        let mut request = request.map(axum::body::Body::new);
        request.extensions_mut().insert(ConnectInfo(peer));
        app.clone().oneshot(request)
    });
    let conn = hyper::server::conn::http1::Builder::new()
        .timer(TokioTimer::new())
        .header_read_timeout(header_read_timeout)
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
    use axum::routing::get;
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    use tokio::net::TcpStream;

    use super::*;

    /// A server of `/` on a free loopback port with these limits; stops when the test ends.
    async fn start(limits: Limits) -> (SocketAddr, tokio::sync::oneshot::Sender<()>) {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let app = Router::new().route("/", get(|| async { "ok" }));
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        tokio::spawn(serve(listener, app, None, limits, async {
            let _ = stopped.await;
        }));
        (addr, stop)
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
            max_connections: 8,
            header_read_timeout: Duration::from_millis(300),
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
    async fn past_max_connections_a_client_waits_for_a_free_one() {
        let (addr, _stop) = start(Limits {
            max_connections: 2,
            header_read_timeout: Duration::from_secs(30),
        })
        .await;
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
}
