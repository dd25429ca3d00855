//! Sending through lettre's async SMTP client (`AsyncSmtpConnection`: replies, EHLO extensions,
//! AUTH PLAIN/LOGIN, MAIL/RCPT/DATA with dot-stuffing), over a stream that stays ours: lettre
//! takes an already connected stream, so the TCP connection is made under `[mail]`'s host
//! policy (`net::connect_tcp`) and TLS is our rustls config with the pinning verifier of
//! `tls.rs`, checked inside the handshake, before lettre sees a byte and so before any
//! credential is sent. (lettre's own TLS settings cannot carry a custom verifier.)
//!
//! STARTTLS: lettre sends it over the plain stream and reads the 220; we then take the TCP
//! stream back, run our handshake, and hand lettre a new connection on the TLS stream. lettre
//! reads a greeting when a connection starts, which after STARTTLS does not come (RFC 3207), so
//! the new stream first replays a fixed `220` line; lettre then says EHLO over TLS and learns
//! the extensions afresh. Whatever the server sent after its 220 in clear text goes away with
//! the first connection's buffer.
//!
//! Every read is bounded: the stream refuses more than [`MAX_REPLY`] bytes or [`MAX_LINES`]
//! lines between two writes (lettre reads a reply line to its end before checking its own
//! limits, so a line without end would otherwise be buffered until the timeout). A peer whose greeting or EHLO answer is not
//! SMTP's is told apart without repeating what it said.

use std::io;
use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};

use lettre::Address;
use lettre::address::Envelope;
use lettre::transport::smtp::Error as SmtpError;
use lettre::transport::smtp::authentication::{Credentials, Mechanism};
use lettre::transport::smtp::client::{AsyncSmtpConnection, AsyncTokioStream};
use lettre::transport::smtp::commands::Starttls;
use lettre::transport::smtp::extension::{ClientId, Extension};
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};

use super::Credential;
use super::net::{
    Endpoint, FailureKind, MailError, MailStream, TlsAttempt, connect_tcp, with_deadline,
};
use super::tls::TlsContext;

/// The most bytes a server may send between two of our writes: one reply (an EHLO answer is
/// under 1 KiB). lettre's own limits (1,000 bytes a line, 100,000 a reply) hold only for lines
/// that end.
pub const MAX_REPLY: usize = 32 << 10;
/// The most lines between two of our writes (an EHLO answer has a dozen or two): lettre parses
/// a reply again from its start at each new line, so 100,000 bytes of short lines would cost
/// seconds of CPU before its own limit.
pub const MAX_LINES: usize = 200;
/// lettre's errors for a reply over its limits, as it words them.
const LETTRE_LIMITS: [&str; 2] = [
    "response error: SMTP response line too long",
    "response error: SMTP response too large",
];
/// The name we give in EHLO.
const HELLO: &str = "mailclient.localdomain";
/// What lettre reads as the greeting of the connection that continues after STARTTLS.
const AFTER_STARTTLS: &[u8] = b"220 TLS started\r\n";

/// A send that did not go through.
#[derive(Debug, thiserror::Error)]
pub enum SendError {
    /// Connection, TLS, login or protocol trouble: worth retrying.
    #[error(transparent)]
    Mail(#[from] MailError),
    /// The server answered no: 4xx for now (retry later), 5xx for good.
    #[error("refused: {reply}")]
    Refused { permanent: bool, reply: String },
}

/// The stream lettre talks through. The mail stream sits in a slot we share, so STARTTLS can
/// take the TCP stream back; reads are cut at [`MAX_REPLY`] bytes or [`MAX_LINES`] lines
/// between writes.
#[derive(Debug)]
struct Wire {
    slot: Arc<Mutex<Option<MailStream>>>,
    /// Bytes handed to lettre before the stream's own (see [`AFTER_STARTTLS`]).
    replay: &'static [u8],
    read_since_write: usize,
    lines_since_write: usize,
    over: Arc<AtomicBool>,
}

impl Wire {
    fn new(stream: MailStream, replay: &'static [u8]) -> (Self, Arc<Mutex<Option<MailStream>>>) {
        let slot = Arc::new(Mutex::new(Some(stream)));
        let wire = Self {
            slot: slot.clone(),
            replay,
            read_since_write: 0,
            lines_since_write: 0,
            over: Arc::new(AtomicBool::new(false)),
        };
        (wire, slot)
    }

    fn with<T>(
        &self,
        f: impl FnOnce(Pin<&mut MailStream>) -> Poll<io::Result<T>>,
    ) -> Poll<io::Result<T>> {
        let mut slot = self.slot.lock().expect("smtp stream slot");
        match slot.as_mut() {
            Some(stream) => f(Pin::new(stream)),
            None => Poll::Ready(Err(io::Error::from(io::ErrorKind::NotConnected))),
        }
    }
}

impl AsyncRead for Wire {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        if !this.replay.is_empty() {
            let n = this.replay.len().min(buf.remaining());
            buf.put_slice(&this.replay[..n]);
            this.replay = &this.replay[n..];
            return Poll::Ready(Ok(()));
        }
        let room = MAX_REPLY.saturating_sub(this.read_since_write);
        if room == 0 || this.lines_since_write > MAX_LINES {
            this.over.store(true, Ordering::Relaxed);
            return Poll::Ready(Err(io::Error::other("reply too long")));
        }
        let before = buf.filled().len();
        let polled = if room >= buf.remaining() {
            this.with(|s| s.poll_read(cx, buf))
        } else {
            // Less room than `buf` offers: read into a buffer of just the room left.
            let mut part = vec![0u8; room];
            let mut limited = ReadBuf::new(&mut part);
            let polled = this.with(|s| s.poll_read(cx, &mut limited));
            buf.put_slice(limited.filled());
            polled
        };
        let got = &buf.filled()[before..];
        this.read_since_write += got.len();
        this.lines_since_write += got.iter().filter(|&&b| b == b'\n').count();
        polled
    }
}

impl AsyncWrite for Wire {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        data: &[u8],
    ) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        this.read_since_write = 0;
        this.lines_since_write = 0;
        this.with(|s| s.poll_write(cx, data))
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        self.get_mut().with(|s| s.poll_flush(cx))
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        self.get_mut().with(|s| s.poll_shutdown(cx))
    }
}

impl AsyncTokioStream for Wire {
    fn peer_addr(&self) -> io::Result<SocketAddr> {
        let slot = self.slot.lock().expect("smtp stream slot");
        match slot.as_ref() {
            Some(MailStream::Plain(s)) => s.peer_addr(),
            Some(MailStream::Tls(s)) => s.get_ref().0.peer_addr(),
            None => Err(io::Error::from(io::ErrorKind::NotConnected)),
        }
    }
}

/// Where in the session an error came: before the peer showed it speaks SMTP (its greeting and
/// the answer to EHLO) nothing it said is repeated.
#[derive(Clone, Copy, PartialEq)]
enum Phase {
    Greeting,
    Session,
}

pub struct SmtpConn {
    conn: AsyncSmtpConnection,
    endpoint: Endpoint,
    over: Arc<AtomicBool>,
}

impl SmtpConn {
    /// Connects, upgrades with STARTTLS when not on implicit TLS (required unless the server is
    /// this machine), and authenticates, all within the endpoint's timeout.
    pub async fn open(
        tls: &TlsContext,
        endpoint: &Endpoint,
        username: &str,
        password: &str,
    ) -> Result<Self, MailError> {
        Self::open_with(
            tls,
            endpoint,
            username,
            &Credential::Password(password.to_string()),
        )
        .await
    }

    /// Connects and authenticates with `credential`: AUTH PLAIN/LOGIN with a password, AUTH
    /// XOAUTH2 with an access token.
    pub async fn open_with(
        tls: &TlsContext,
        endpoint: &Endpoint,
        username: &str,
        credential: &Credential,
    ) -> Result<Self, MailError> {
        let attempt = TlsAttempt::new(tls, endpoint)?;
        let tcp = connect_tcp(endpoint).await?;
        with_deadline(endpoint, "SMTP login", async {
            let stream = if endpoint.ssl {
                attempt.handshake(tcp, endpoint).await?
            } else {
                MailStream::Plain(tcp)
            };
            let (mut conn, slot) = Self::start(stream, b"", endpoint).await?;
            if !endpoint.ssl {
                let offered = conn
                    .conn
                    .server_info()
                    .supports_feature(Extension::StartTls);
                if starttls_required(endpoint, offered)? {
                    conn.conn
                        .command(Starttls)
                        .await
                        .map_err(|e| conn.error(e, Phase::Session))?;
                    // lettre's buffer, with anything sent after the 220, goes with `conn`.
                    drop(conn);
                    let taken = slot.lock().expect("smtp stream slot").take();
                    let Some(MailStream::Plain(tcp)) = taken else {
                        unreachable!("the stream is plain before STARTTLS")
                    };
                    let stream = attempt.handshake(tcp, endpoint).await?;
                    conn = Self::start(stream, AFTER_STARTTLS, endpoint).await?.0;
                }
            }
            conn.auth(username, credential).await?;
            Ok(conn)
        })
        .await
    }

    /// lettre's connection on `stream`: the greeting read and EHLO said.
    async fn start(
        stream: MailStream,
        replay: &'static [u8],
        endpoint: &Endpoint,
    ) -> Result<(Self, Arc<Mutex<Option<MailStream>>>), MailError> {
        let (wire, slot) = Wire::new(stream, replay);
        let over = wire.over.clone();
        let hello = ClientId::Domain(HELLO.into());
        match AsyncSmtpConnection::connect_with_transport(Box::new(wire), &hello).await {
            Ok(conn) => Ok((
                Self {
                    conn,
                    endpoint: endpoint.clone(),
                    over,
                },
                slot,
            )),
            Err(e) => Err(classify(endpoint, &over, e, Phase::Greeting)),
        }
    }

    fn error(&self, e: SmtpError, phase: Phase) -> MailError {
        classify(&self.endpoint, &self.over, e, phase)
    }

    async fn auth(&mut self, username: &str, credential: &Credential) -> Result<(), MailError> {
        let (secret, mechanisms, missing): (&str, &[Mechanism], &str) = match credential {
            Credential::Password(p) => (
                p,
                &[Mechanism::Plain, Mechanism::Login],
                "the server offers neither AUTH PLAIN nor AUTH LOGIN",
            ),
            Credential::XOAuth2(t) => (
                t,
                &[Mechanism::Xoauth2],
                "the server does not offer AUTH XOAUTH2",
            ),
        };
        let credentials = Credentials::new(username.to_string(), secret.to_string());
        if self
            .conn
            .server_info()
            .get_auth_mechanism(mechanisms)
            .is_none()
        {
            return Err(MailError::protocol(&self.endpoint, missing));
        }
        match self.conn.auth(mechanisms, &credentials).await {
            Ok(_) => Ok(()),
            Err(e) if matches!(code(&e), Some(535 | 534 | 454 | 530)) => Err(MailError::new(
                FailureKind::Auth,
                &self.endpoint,
                reply_text(&e),
            )),
            // XOAUTH2 refused: the server sends its error as a 334 challenge (RFC 7628 §3.2.2),
            // which lettre's mechanism refuses to answer. The connection is dropped either way.
            Err(e) if matches!(credential, Credential::XOAuth2(_)) && e.is_client() => Err(
                MailError::new(FailureKind::Auth, &self.endpoint, "XOAUTH2 refused"),
            ),
            Err(e) => Err(self.error(e, Phase::Session)),
        }
    }

    /// Sends one message. Every recipient must be accepted, or nothing is sent: lettre stops
    /// at the first refused RCPT, before DATA.
    pub async fn send(
        &mut self,
        from: &str,
        recipients: &[String],
        data: &[u8],
    ) -> Result<(), SendError> {
        let refused = |reply: String| SendError::Refused {
            permanent: true,
            reply,
        };
        let from: Address = from.parse().map_err(|e| refused(format!("{from}: {e}")))?;
        let to = recipients
            .iter()
            .map(|r| {
                r.parse::<Address>()
                    .map_err(|e| refused(format!("{r}: {e}")))
            })
            .collect::<Result<Vec<_>, _>>()?;
        let envelope = Envelope::new(Some(from), to).map_err(|e| refused(e.to_string()))?;
        // lettre ends the DATA with CRLF "." CRLF whatever the message ends with: without its
        // own last line end the message arrives as it was built (and as the Sent copy is).
        let data = data.strip_suffix(b"\r\n").unwrap_or(data);
        match self.conn.send(&envelope, data).await {
            Ok(_) => Ok(()),
            Err(e) if e.is_permanent() || e.is_transient() => Err(SendError::Refused {
                permanent: e.is_permanent(),
                reply: reply_text(&e),
            }),
            Err(e) => Err(self.error(e, Phase::Session).into()),
        }
    }

    pub async fn quit(mut self) {
        let _ = self.conn.quit().await;
    }
}

/// Whether to upgrade with STARTTLS: always when offered; when it is not, only this machine
/// may be spoken to in clear text (anywhere else a missing STARTTLS could be an attacker who
/// stripped it, and the password would follow).
fn starttls_required(endpoint: &Endpoint, offered: bool) -> Result<bool, MailError> {
    if offered {
        Ok(true)
    } else if endpoint.plaintext_allowed() {
        Ok(false)
    } else {
        Err(endpoint.no_starttls())
    }
}

/// The reply code of a refusal.
fn code(e: &SmtpError) -> Option<u16> {
    e.status().and_then(|c| c.to_string().parse().ok())
}

/// `550 5.1.1 <x@y>: …`: the code and the server's words.
fn reply_text(e: &SmtpError) -> String {
    let words = std::error::Error::source(e)
        .map(|s| s.to_string())
        .unwrap_or_default();
    match code(e) {
        Some(code) => format!("{code} {words}"),
        None => e.to_string(),
    }
}

/// A lettre error as the user is told it.
fn classify(endpoint: &Endpoint, over: &AtomicBool, e: SmtpError, phase: Phase) -> MailError {
    if over.load(Ordering::Relaxed) {
        return MailError::protocol(
            endpoint,
            format!("a reply longer than {MAX_REPLY} bytes or {MAX_LINES} lines"),
        );
    }
    let said_something = e.is_response() || e.is_client() || e.is_permanent() || e.is_transient();
    if !said_something {
        // Reading or writing failed: the connection is gone.
        return MailError::new(FailureKind::Unreachable, endpoint, e.to_string());
    }
    let text = e.to_string();
    if LETTRE_LIMITS.contains(&text.as_str()) {
        // lettre's own limits, in its fixed words (never the server's).
        return MailError::protocol(endpoint, text);
    }
    match phase {
        Phase::Greeting => MailError::not_mail_server(endpoint, "SMTP"),
        Phase::Session => MailError::protocol(endpoint, text),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mail::hosts::HostPolicy;
    use std::time::Duration;

    fn endpoint(host: &str) -> Endpoint {
        Endpoint {
            host: host.into(),
            port: 587,
            ssl: false,
            pinned_fingerprint: None,
            timeout: Duration::from_secs(5),
            hosts: HostPolicy::default(),
        }
    }

    #[test]
    fn starttls_is_required_except_to_this_machine() {
        for host in ["smtp.example.com", "10.0.0.5", "192.168.1.1"] {
            let err = starttls_required(&endpoint(host), false).expect_err(host);
            assert_eq!(err.kind, FailureKind::Tls, "{err:?}");
            assert!(err.detail.contains("STARTTLS"), "{err:?}");
            assert!(starttls_required(&endpoint(host), true).unwrap());
        }
        for host in ["127.0.0.1", "localhost", "::1"] {
            assert!(
                !starttls_required(&endpoint(host), false).unwrap(),
                "{host}"
            );
            assert!(starttls_required(&endpoint(host), true).unwrap(), "{host}");
        }
    }
}
