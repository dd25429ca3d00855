//! Connections to mail servers: TCP with a deadline (to the addresses `[mail]`'s host policy
//! allows, see `hosts.rs`), optional TLS, and the classification of every way connecting can
//! fail, so the user is told which one happened. What a peer said reaches the user only once it
//! answered like a mail server: a connection test must not read out other services' banners.

use std::io;
use std::net::SocketAddr;
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

use super::hosts::{HostPolicy, Refusal};
use super::tls::TlsContext;
use crate::messages;

/// The longest `detail` kept: a server's reply is for a log line, not a page.
const MAX_DETAIL: usize = 300;

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
            detail: clean_detail(&detail.into()),
            fingerprint: None,
        }
    }

    pub fn protocol(endpoint: &Endpoint, detail: impl Into<String>) -> Self {
        Self::new(FailureKind::Protocol, endpoint, detail)
    }

    /// The peer did not speak `protocol` ("IMAP", "SMTP"): a fixed text, never what it said
    /// (that would make a connection test read out any service's banner).
    pub fn not_mail_server(endpoint: &Endpoint, protocol: &str) -> Self {
        let mut err = Self::protocol(
            endpoint,
            format!("the server did not answer like an {protocol} server"),
        );
        err.message = messages::mail_not_mail_server(
            &format!("{}:{}", endpoint.host, endpoint.port),
            protocol,
        );
        err
    }

    /// The host policy refused the host before anything was sent to it.
    fn refused(endpoint: &Endpoint, why: Refusal) -> Self {
        let detail = match why {
            Refusal::NotListed => "the host is not in [mail] allowed_hosts",
            Refusal::Private => {
                "the host resolves to a loopback, private or link-local address and [mail] deny_private_ranges is on"
            }
            Refusal::NeverMail => {
                "the host resolves to a link-local, metadata, multicast or reserved address, where no mail server lives"
            }
        };
        let mut err = Self::new(FailureKind::Unreachable, endpoint, detail);
        err.message = messages::mail_host_refused(&endpoint.host);
        err
    }
}

/// One line of printable text, at most [`MAX_DETAIL`] bytes.
fn clean_detail(detail: &str) -> String {
    let mut out: String = detail
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect();
    if out.len() > MAX_DETAIL {
        let mut end = MAX_DETAIL;
        while !out.is_char_boundary(end) {
            end -= 1;
        }
        out.truncate(end);
        out.push('…');
    }
    out
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
    /// Which hosts and addresses may be connected to (`[mail]`).
    pub hosts: HostPolicy,
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

/// Opens TCP to the endpoint within its timeout: the name checked against the host policy,
/// resolved once, every address checked, and the connection made to those addresses.
pub async fn connect_tcp(endpoint: &Endpoint) -> Result<TcpStream, MailError> {
    endpoint
        .hosts
        .check_name(&endpoint.host)
        .map_err(|why| MailError::refused(endpoint, why))?;
    let open = async {
        let unreachable =
            |e: io::Error| MailError::new(FailureKind::Unreachable, endpoint, e.to_string());
        let host = endpoint.host.trim_start_matches('[').trim_end_matches(']');
        let addrs: Vec<SocketAddr> = tokio::net::lookup_host((host, endpoint.port))
            .await
            .map_err(unreachable)?
            .collect();
        if addrs.is_empty() {
            return Err(MailError::new(
                FailureKind::Unreachable,
                endpoint,
                "the name has no address",
            ));
        }
        endpoint
            .hosts
            .check_addresses(&addrs)
            .map_err(|why| MailError::refused(endpoint, why))?;
        TcpStream::connect(&addrs[..]).await.map_err(unreachable)
    };
    match tokio::time::timeout(endpoint.timeout, open).await {
        Err(_) => Err(MailError::new(
            FailureKind::Timeout,
            endpoint,
            "connect timed out",
        )),
        Ok(Err(e)) => Err(e),
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
