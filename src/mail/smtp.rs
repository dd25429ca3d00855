//! A small SMTP client: greeting, EHLO, STARTTLS or implicit TLS, AUTH PLAIN/LOGIN. It shares
//! the TLS policy (extra CAs, pinned fingerprints) with IMAP, which a general-purpose SMTP
//! library would not, and sends (MAIL FROM, RCPT TO, DATA with dot-stuffing). A reply is read
//! within bounds (a line of at most [`MAX_LINE`] bytes, at most [`MAX_LINES`] lines), so a
//! hostile server cannot make it buffer without end; a peer whose greeting or EHLO answer is
//! not SMTP's is told apart without repeating what it said.

use base64::Engine;
use base64::engine::general_purpose::STANDARD as B64;
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};

use super::net::{
    Endpoint, FailureKind, MailError, MailStream, TlsAttempt, connect_tcp, with_deadline,
};
use super::tls::TlsContext;

/// The longest reply line read (RFC 5321 allows 512 bytes; servers write longer ones).
pub const MAX_LINE: usize = 8 << 10;
/// The most lines one multi-line reply may have (an EHLO answer has a dozen or two).
pub const MAX_LINES: usize = 200;
/// The detail of a line that is not an SMTP reply (never the line itself).
const BAD_LINE: &str = "a reply line that does not start with a three-digit code";
const NO_EHLO: &str = "EHLO was not answered with 250";

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

/// The DATA payload: CRLF line ends, a leading dot doubled, ending in CRLF.
pub fn dot_stuff(data: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(data.len() + data.len() / 60 + 4);
    let mut line_start = true;
    let mut prev = 0u8;
    for &b in data {
        if b == b'\n' && prev != b'\r' {
            out.push(b'\r');
        }
        if line_start && b == b'.' {
            out.push(b'.');
        }
        out.push(b);
        line_start = b == b'\n';
        prev = b;
    }
    if !out.ends_with(b"\r\n") {
        out.extend_from_slice(b"\r\n");
    }
    out
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
            conn.greeting().await?;
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

    /// The 220 greeting and the answer to EHLO: until both came, the peer has not shown it is
    /// an SMTP server (an FTP server greets with 220 too), so a wrong answer is reported in
    /// fixed words, never with what it said.
    async fn greeting(&mut self) -> Result<(), MailError> {
        let endpoint = self.endpoint.clone();
        let not_smtp = |e: MailError| {
            if e.detail == BAD_LINE || e.detail == NO_EHLO {
                MailError::not_mail_server(&endpoint, "SMTP")
            } else {
                e
            }
        };
        let greeting = self.read_reply().await.map_err(not_smtp)?;
        if greeting.code != 220 {
            return Err(MailError::not_mail_server(&endpoint, "SMTP"));
        }
        self.ehlo().await.map_err(not_smtp)
    }

    async fn ehlo(&mut self) -> Result<(), MailError> {
        self.command("EHLO mailclient.localdomain").await?;
        let reply = self.read_reply().await?;
        if reply.code != 250 {
            return Err(MailError::protocol(&self.endpoint, NO_EHLO));
        }
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

    /// Sends one message. Every recipient must be accepted, or nothing is sent (RSET): a mail
    /// that reaches only some of its recipients would be worse than a clear error.
    pub async fn send(
        &mut self,
        from: &str,
        recipients: &[String],
        data: &[u8],
    ) -> Result<(), SendError> {
        self.command(&format!("MAIL FROM:<{from}>")).await?;
        self.accepted(&[250]).await?;
        for rcpt in recipients {
            self.command(&format!("RCPT TO:<{rcpt}>")).await?;
            if let Err(e) = self.accepted(&[250, 251]).await {
                let _ = self.command("RSET").await;
                let _ = self.read_reply().await;
                return Err(match e {
                    SendError::Refused { permanent, reply } => SendError::Refused {
                        permanent,
                        reply: format!("{rcpt}: {reply}"),
                    },
                    other => other,
                });
            }
        }
        self.command("DATA").await?;
        self.accepted(&[354]).await?;
        let stuffed = dot_stuff(data);
        let s = self.stream.get_mut();
        let written = async {
            s.write_all(&stuffed).await?;
            s.write_all(b".\r\n").await?;
            s.flush().await
        }
        .await;
        written
            .map_err(|e| MailError::new(FailureKind::Unreachable, &self.endpoint, e.to_string()))?;
        self.accepted(&[250]).await.map(|_| ())
    }

    async fn accepted(&mut self, codes: &[u16]) -> Result<Reply, SendError> {
        let reply = self.read_reply().await?;
        if codes.contains(&reply.code) {
            return Ok(reply);
        }
        Err(SendError::Refused {
            permanent: reply.code >= 500,
            reply: format!("{} {}", reply.code, reply.text()),
        })
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
        let mut line = Vec::with_capacity(128);
        loop {
            line.clear();
            // One byte past the limit tells a line that is too long from one that fits.
            let n = (&mut self.stream)
                .take(MAX_LINE as u64 + 1)
                .read_until(b'\n', &mut line)
                .await
                .map_err(|e| {
                    MailError::new(FailureKind::Unreachable, &self.endpoint, e.to_string())
                })?;
            if n == 0 {
                return Err(MailError::protocol(&self.endpoint, "connection closed"));
            }
            if line.len() > MAX_LINE {
                return Err(MailError::protocol(
                    &self.endpoint,
                    format!("a reply line longer than {MAX_LINE} bytes"),
                ));
            }
            let text = String::from_utf8_lossy(&line);
            let text = text.trim_end();
            let code = text
                .get(..3)
                .filter(|c| c.bytes().all(|b| b.is_ascii_digit()))
                .and_then(|c| c.parse::<u16>().ok())
                .ok_or_else(|| MailError::protocol(&self.endpoint, BAD_LINE))?;
            let rest = text.get(3..).unwrap_or("");
            let more = rest.starts_with('-');
            lines.push(rest.get(1..).unwrap_or("").to_string());
            if !more {
                return Ok(Reply { code, lines });
            }
            if lines.len() >= MAX_LINES {
                return Err(MailError::protocol(
                    &self.endpoint,
                    format!("a reply of more than {MAX_LINES} lines"),
                ));
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

#[cfg(test)]
mod tests {
    use super::dot_stuff;

    #[test]
    fn dots_are_stuffed_and_lines_end_in_crlf() {
        assert_eq!(dot_stuff(b".a\r\nb\n.\n..c"), b"..a\r\nb\r\n..\r\n...c\r\n");
        assert_eq!(dot_stuff(b"x\r\n"), b"x\r\n");
    }
}
