//! A small SMTP client: greeting, EHLO, STARTTLS or implicit TLS, AUTH PLAIN/LOGIN. It shares
//! the TLS policy (extra CAs, pinned fingerprints) with IMAP, which a general-purpose SMTP
//! library would not. Sending builds on the same connection type.

use base64::Engine;
use base64::engine::general_purpose::STANDARD as B64;
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};

use super::net::{
    Endpoint, FailureKind, MailError, MailStream, TlsAttempt, connect_tcp, with_deadline,
};
use super::tls::TlsContext;

/// One SMTP reply: its code and its text lines.
#[derive(Debug, Clone)]
pub struct Reply {
    pub code: u16,
    pub lines: Vec<String>,
}

impl Reply {
    fn text(&self) -> String {
        self.lines.join(" ")
    }
}

pub struct SmtpConn {
    stream: BufReader<MailStream>,
    endpoint: Endpoint,
    pub extensions: Vec<String>,
}

impl SmtpConn {
    /// Connects, says EHLO, upgrades with STARTTLS when not on implicit TLS and offered, and
    /// authenticates.
    pub async fn open(
        tls: &TlsContext,
        endpoint: &Endpoint,
        username: &str,
        password: &str,
    ) -> Result<Self, MailError> {
        let attempt = TlsAttempt::new(tls, endpoint)?;
        let tcp = connect_tcp(endpoint).await?;
        with_deadline(endpoint, "SMTP login", async {
            let stream = if endpoint.ssl {
                attempt.handshake(tcp, endpoint).await?
            } else {
                MailStream::Plain(tcp)
            };
            let mut conn = Self {
                stream: BufReader::new(stream),
                endpoint: endpoint.clone(),
                extensions: Vec::new(),
            };
            conn.expect(220).await?;
            conn.ehlo().await?;
            if !endpoint.ssl && !conn.has("STARTTLS") && !endpoint.plaintext_allowed() {
                return Err(endpoint.no_starttls());
            }
            if !endpoint.ssl && conn.has("STARTTLS") {
                conn.command("STARTTLS").await?;
                conn.expect(220).await?;
                let MailStream::Plain(tcp) = conn.stream.into_inner() else {
                    unreachable!("the stream is plain before STARTTLS")
                };
                conn.stream = BufReader::new(attempt.handshake(tcp, endpoint).await?);
                conn.ehlo().await?;
            }
            conn.auth(username, password).await?;
            Ok(conn)
        })
        .await
    }

    fn has(&self, ext: &str) -> bool {
        self.extensions
            .iter()
            .any(|e| e.split_whitespace().next() == Some(ext))
    }

    fn auth_mechanisms(&self) -> Vec<String> {
        self.extensions
            .iter()
            .filter_map(|e| e.strip_prefix("AUTH "))
            .flat_map(|m| m.split_whitespace().map(str::to_string))
            .collect()
    }

    async fn ehlo(&mut self) -> Result<(), MailError> {
        self.command("EHLO mailclient.localdomain").await?;
        let reply = self.expect(250).await?;
        self.extensions = reply
            .lines
            .iter()
            .skip(1)
            .map(|l| l.to_ascii_uppercase())
            .collect();
        Ok(())
    }

    async fn auth(&mut self, username: &str, password: &str) -> Result<(), MailError> {
        let mechanisms = self.auth_mechanisms();
        let reply = if mechanisms.iter().any(|m| m == "PLAIN") || mechanisms.is_empty() {
            let token = B64.encode(format!("\0{username}\0{password}"));
            self.command_secret(&format!("AUTH PLAIN {token}")).await?;
            self.read_reply().await?
        } else if mechanisms.iter().any(|m| m == "LOGIN") {
            self.command("AUTH LOGIN").await?;
            self.expect(334).await?;
            self.command_secret(&B64.encode(username)).await?;
            self.expect(334).await?;
            self.command_secret(&B64.encode(password)).await?;
            self.read_reply().await?
        } else {
            return Err(MailError::protocol(
                &self.endpoint,
                format!("no supported AUTH mechanism in {mechanisms:?}"),
            ));
        };
        match reply.code {
            235 => Ok(()),
            535 | 534 | 454 | 530 => Err(MailError::new(
                FailureKind::Auth,
                &self.endpoint,
                reply.text(),
            )),
            _ => Err(MailError::protocol(&self.endpoint, reply.text())),
        }
    }

    pub async fn quit(mut self) {
        if self.command("QUIT").await.is_ok() {
            let _ = self.read_reply().await;
        }
    }

    pub async fn command(&mut self, line: &str) -> Result<(), MailError> {
        tracing::trace!(command = line, "smtp");
        self.write_line(line).await
    }

    /// Like [`command`](Self::command) but never traced: the line carries credentials.
    async fn command_secret(&mut self, line: &str) -> Result<(), MailError> {
        self.write_line(line).await
    }

    async fn write_line(&mut self, line: &str) -> Result<(), MailError> {
        let s = self.stream.get_mut();
        let r = async {
            s.write_all(line.as_bytes()).await?;
            s.write_all(b"\r\n").await?;
            s.flush().await
        }
        .await;
        r.map_err(|e| MailError::new(FailureKind::Unreachable, &self.endpoint, e.to_string()))
    }

    pub async fn read_reply(&mut self) -> Result<Reply, MailError> {
        let mut lines = Vec::new();
        loop {
            let mut line = String::new();
            let n = self.stream.read_line(&mut line).await.map_err(|e| {
                MailError::new(FailureKind::Unreachable, &self.endpoint, e.to_string())
            })?;
            if n == 0 {
                return Err(MailError::protocol(&self.endpoint, "connection closed"));
            }
            let line = line.trim_end();
            let code = line.get(..3).unwrap_or(line);
            let rest = line.get(3..).unwrap_or("");
            let code: u16 = code.parse().map_err(|_| {
                MailError::protocol(&self.endpoint, format!("bad reply line: {line}"))
            })?;
            let more = rest.starts_with('-');
            lines.push(rest.get(1..).unwrap_or("").to_string());
            if !more {
                return Ok(Reply { code, lines });
            }
        }
    }

    pub async fn expect(&mut self, code: u16) -> Result<Reply, MailError> {
        let reply = self.read_reply().await?;
        if reply.code == code {
            Ok(reply)
        } else {
            Err(MailError::protocol(
                &self.endpoint,
                format!("expected {code}, got {} {}", reply.code, reply.text()),
            ))
        }
    }
}
