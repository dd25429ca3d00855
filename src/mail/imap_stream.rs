//! The byte stream under an IMAP session: the mail connection (TCP or TLS), in raw DEFLATE both
//! ways once the server accepted `COMPRESS DEFLATE` (RFC 4978). Writes end in a sync flush (the
//! encoder's flush, which async-imap calls after every command), so each command reaches the
//! server whole.
//!
//! The response caps (`imap_cap::Capped`) sit above this stream and count the inflated bytes:
//! a server's inflate bomb meets the same per-response limits as plain text, and the inflater
//! writes only into the reader's buffer (a bounded read at a time), never a whole expansion.

use std::io;
use std::pin::Pin;
use std::task::{Context, Poll};

use async_compression::tokio::bufread::DeflateDecoder;
use async_compression::tokio::write::DeflateEncoder;
use tokio::io::{AsyncRead, AsyncWrite, BufReader, ReadBuf};

use super::imap::ImapSession;
use super::net::MailStream;

type Deflated = DeflateDecoder<BufReader<DeflateEncoder<MailStream>>>;

/// An IMAP connection's stream, compressed or not.
#[derive(Debug)]
pub enum ImapStream {
    Plain(MailStream),
    Deflate(Box<Deflated>),
    /// Only while switching to DEFLATE (never seen by a reader).
    Switching,
}

impl ImapStream {
    /// From now on, DEFLATE both ways (after the server's OK to `COMPRESS DEFLATE`: it sends
    /// nothing more until the next command, so no plain byte is left unread).
    pub fn start_deflate(&mut self) {
        *self = match std::mem::replace(self, Self::Switching) {
            Self::Plain(s) => Self::Deflate(Box::new(DeflateDecoder::new(BufReader::new(
                DeflateEncoder::new(s),
            )))),
            other => other,
        };
    }

    /// Whether the stream is compressed.
    pub fn deflated(&self) -> bool {
        matches!(self, Self::Deflate(_))
    }
}

/// `COMPRESS DEFLATE` (only when the server offers `COMPRESS=DEFLATE`); after its OK the
/// session's stream is deflated both ways. A NO or BAD leaves the stream as it was.
pub async fn compress(session: &mut ImapSession) -> Result<(), async_imap::error::Error> {
    session.run_command_and_check_ok("COMPRESS DEFLATE").await?;
    session.get_mut().get_mut().start_deflate();
    Ok(())
}

fn switching() -> io::Error {
    io::Error::other("the IMAP stream is being switched to DEFLATE")
}

impl AsyncRead for ImapStream {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        match self.get_mut() {
            Self::Plain(s) => Pin::new(s).poll_read(cx, buf),
            Self::Deflate(s) => Pin::new(s.as_mut()).poll_read(cx, buf),
            Self::Switching => Poll::Ready(Err(switching())),
        }
    }
}

impl AsyncWrite for ImapStream {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        match self.get_mut() {
            Self::Plain(s) => Pin::new(s).poll_write(cx, buf),
            Self::Deflate(s) => Pin::new(s.get_mut()).poll_write(cx, buf),
            Self::Switching => Poll::Ready(Err(switching())),
        }
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        match self.get_mut() {
            Self::Plain(s) => Pin::new(s).poll_flush(cx),
            Self::Deflate(s) => Pin::new(s.get_mut()).poll_flush(cx),
            Self::Switching => Poll::Ready(Err(switching())),
        }
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        match self.get_mut() {
            Self::Plain(s) => Pin::new(s).poll_shutdown(cx),
            Self::Deflate(s) => Pin::new(s.get_mut()).poll_shutdown(cx),
            Self::Switching => Poll::Ready(Err(switching())),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tokio::io::{AsyncReadExt, AsyncWriteExt};

    /// What one side writes (each write flushed) the other reads whole, as raw DEFLATE.
    #[tokio::test]
    async fn deflate_both_ways_with_a_flush_per_write() {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let server = tokio::spawn(async move {
            let (tcp, _) = listener.accept().await.unwrap();
            let mut s = ImapStream::Plain(MailStream::Plain(tcp));
            s.start_deflate();
            let mut line = [0u8; 12];
            s.read_exact(&mut line).await.unwrap();
            assert_eq!(&line, b"A1 NOOP\r\nA2 ");
            s.write_all(b"A1 OK done\r\n").await.unwrap();
            s.flush().await.unwrap();
        });
        let tcp = tokio::net::TcpStream::connect(addr).await.unwrap();
        let mut c = ImapStream::Plain(MailStream::Plain(tcp));
        c.start_deflate();
        assert!(c.deflated());
        c.write_all(b"A1 NOOP\r\n").await.unwrap();
        c.flush().await.unwrap();
        c.write_all(b"A2 ").await.unwrap();
        c.flush().await.unwrap();
        let mut answer = [0u8; 12];
        c.read_exact(&mut answer).await.unwrap();
        assert_eq!(&answer, b"A1 OK done\r\n");
        server.await.unwrap();
    }
}
