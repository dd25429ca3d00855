//! Connections to mail servers: TCP with a deadline, optional TLS, and the classification of
//! every way connecting can fail, so the user is told which one happened.

use std::io;
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::Duration;

use serde::Serialize;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::TcpStream;
use tokio_rustls::TlsConnector;
use tokio_rustls::client::TlsStream;
use tokio_rustls::rustls;
use tokio_rustls::rustls::pki_types::ServerName;

use super::tls::TlsContext;
use crate::messages;

/// A plain or TLS stream; STARTTLS turns the first into the second.
#[derive(Debug)]
pub enum MailStream {
    Plain(TcpStream),
    Tls(Box<TlsStream<TcpStream>>),
}

impl AsyncRead for MailStream {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        match self.get_mut() {
            Self::Plain(s) => Pin::new(s).poll_read(cx, buf),
            Self::Tls(s) => Pin::new(s.as_mut()).poll_read(cx, buf),
        }
    }
}

impl AsyncWrite for MailStream {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        match self.get_mut() {
            Self::Plain(s) => Pin::new(s).poll_write(cx, buf),
            Self::Tls(s) => Pin::new(s.as_mut()).poll_write(cx, buf),
        }
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        match self.get_mut() {
            Self::Plain(s) => Pin::new(s).poll_flush(cx),
            Self::Tls(s) => Pin::new(s.as_mut()).poll_flush(cx),
        }
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        match self.get_mut() {
            Self::Plain(s) => Pin::new(s).poll_shutdown(cx),
            Self::Tls(s) => Pin::new(s.as_mut()).poll_shutdown(cx),
        }
    }
}

/// Which way a connection failed. The UI shows each differently (the TLS case offers to
/// accept the certificate's fingerprint).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ts_rs::TS)]
#[serde(rename_all = "snake_case")]
#[ts(rename = "MailFailureKind")]
pub enum FailureKind {
    Auth,
    Unreachable,
    Tls,
    Timeout,
    Protocol,
}

#[derive(Debug, Clone, Serialize, thiserror::Error)]
#[error("{kind:?}: {detail}")]
pub struct MailError {
    pub kind: FailureKind,
    /// Hebrew, for the user.
    pub message: String,
    /// Technical detail (no secrets), for logs and the "details" line.
    pub detail: String,
    /// SHA-256 of the certificate the server presented, when it was not trusted.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fingerprint: Option<String>,
}

impl MailError {
    pub fn new(kind: FailureKind, endpoint: &Endpoint, detail: impl Into<String>) -> Self {
        let where_ = format!("{}:{}", endpoint.host, endpoint.port);
        let message = match kind {
            FailureKind::Auth => messages::MAIL_AUTH_FAILED.to_string(),
            FailureKind::Unreachable => messages::mail_unreachable(&where_),
            FailureKind::Tls => messages::mail_tls_failed(&where_),
            FailureKind::Timeout => messages::mail_timeout(&where_),
            FailureKind::Protocol => messages::mail_protocol(&where_),
        };
        Self {
            kind,
            message,
            detail: detail.into(),
            fingerprint: None,
        }
    }

    pub fn protocol(endpoint: &Endpoint, detail: impl Into<String>) -> Self {
        Self::new(FailureKind::Protocol, endpoint, detail)
    }
}

/// Where and how to connect.
#[derive(Debug, Clone)]
pub struct Endpoint {
    pub host: String,
    pub port: u16,
    /// Implicit TLS from the first byte (IMAPS 993, SMTPS 465). Otherwise STARTTLS is used
    /// when the server offers it.
    pub ssl: bool,
    pub pinned_fingerprint: Option<String>,
    pub timeout: Duration,
}

impl Endpoint {
    /// Plain text (no TLS at all) is allowed only to this machine, e.g. ProtonMail Bridge on
    /// 127.0.0.1: anywhere else a missing STARTTLS could be an attacker stripping it.
    pub fn plaintext_allowed(&self) -> bool {
        self.host.eq_ignore_ascii_case("localhost")
            || self
                .host
                .parse::<std::net::IpAddr>()
                .is_ok_and(|ip| ip.is_loopback())
    }

    pub fn no_starttls(&self) -> MailError {
        MailError::new(
            FailureKind::Tls,
            self,
            "the server did not offer STARTTLS; refusing to send the password in clear text",
        )
    }
}

/// A TLS connector for `endpoint`, and the slot that will hold the presented fingerprint.
pub struct TlsAttempt {
    pub connector: TlsConnector,
    pub seen: Arc<Mutex<Option<String>>>,
}

impl TlsAttempt {
    pub fn new(tls: &TlsContext, endpoint: &Endpoint) -> Result<Self, MailError> {
        let seen = Arc::new(Mutex::new(None));
        let config = tls
            .client_config(endpoint.pinned_fingerprint.as_deref(), seen.clone())
            .map_err(|e| MailError::new(FailureKind::Tls, endpoint, e.to_string()))?;
        Ok(Self {
            connector: TlsConnector::from(config),
            seen,
        })
    }

    /// Wraps `tcp` in TLS, verifying the certificate for `endpoint.host`.
    pub async fn handshake(
        &self,
        tcp: TcpStream,
        endpoint: &Endpoint,
    ) -> Result<MailStream, MailError> {
        let name = ServerName::try_from(endpoint.host.clone()).map_err(|e| {
            MailError::new(
                FailureKind::Unreachable,
                endpoint,
                format!("bad host name: {e}"),
            )
        })?;
        match self.connector.connect(name, tcp).await {
            Ok(s) => Ok(MailStream::Tls(Box::new(s))),
            Err(e) => Err(self.tls_error(endpoint, e)),
        }
    }

    fn tls_error(&self, endpoint: &Endpoint, e: io::Error) -> MailError {
        let untrusted = e
            .get_ref()
            .and_then(|inner| inner.downcast_ref::<rustls::Error>())
            .is_some_and(|r| matches!(r, rustls::Error::InvalidCertificate(_)));
        let mut err = MailError::new(FailureKind::Tls, endpoint, e.to_string());
        if untrusted {
            err.fingerprint = self.seen.lock().expect("fingerprint slot").clone();
            err.message =
                messages::mail_cert_untrusted(&format!("{}:{}", endpoint.host, endpoint.port));
        }
        err
    }
}

/// Opens TCP to the endpoint within its timeout.
pub async fn connect_tcp(endpoint: &Endpoint) -> Result<TcpStream, MailError> {
    let addr = (endpoint.host.as_str(), endpoint.port);
    match tokio::time::timeout(endpoint.timeout, TcpStream::connect(addr)).await {
        Err(_) => Err(MailError::new(
            FailureKind::Timeout,
            endpoint,
            "connect timed out",
        )),
        Ok(Err(e)) => Err(MailError::new(
            FailureKind::Unreachable,
            endpoint,
            e.to_string(),
        )),
        Ok(Ok(s)) => {
            let _ = s.set_nodelay(true);
            Ok(s)
        }
    }
}

/// Runs `fut` under the endpoint's timeout, mapping expiry to [`FailureKind::Timeout`].
pub async fn with_deadline<T>(
    endpoint: &Endpoint,
    what: &str,
    fut: impl std::future::Future<Output = Result<T, MailError>>,
) -> Result<T, MailError> {
    match tokio::time::timeout(endpoint.timeout, fut).await {
        Ok(r) => r,
        Err(_) => Err(MailError::new(
            FailureKind::Timeout,
            endpoint,
            format!("{what} timed out"),
        )),
    }
}
