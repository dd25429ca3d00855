//! A byte cap on what one IMAP response may make the client buffer. async-imap keeps a whole
//! response in memory before it parses it: a literal announced as `{1000000000}` makes it
//! allocate that much at once (up to its own 512 MiB ceiling), and a line that never ends is
//! re-parsed from its start on every read. So the stream under the IMAP session follows the
//! response framing itself (lines, and `{n}` / `{n+}` literals inside them) and fails the read
//! that would pass a limit: a literal too big is refused on its announcement, before a byte of
//! it is buffered, and a line too long as soon as it is. Before login the limits are small (a
//! greeting and a few short replies); after it they fit the biggest mail a sync fetches.
//!
//! The framing also keeps the last tagged completion (`A12 NO [THROTTLED] ...`): async-imap
//! drops it for the commands it answers as a stream (FETCH, STORE, SEARCH, LIST, EXPUNGE), so a
//! refused or throttled command would otherwise look like an empty answer
//! (`imap_ops::completed`).

use std::io;
use std::pin::Pin;
use std::task::{Context, Poll};

use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};

/// What one response may hold.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Everything in it, literals included.
    pub total: usize,
    /// Its text outside literals (a plain SEARCH lists every UID on one line).
    pub text: usize,
}

/// Before login: the greeting, CAPABILITY, STARTTLS and LOGIN replies.
pub const BEFORE_LOGIN: Limits = Limits {
    total: 64 << 10,
    text: 64 << 10,
};

/// After login: one message's FETCH (the sync fetches a message bigger than its chunk alone),
/// and a SEARCH line of a few million UIDs.
pub const SESSION: Limits = Limits {
    total: 256 << 20,
    text: 16 << 20,
};

/// The error a capped read fails with (inside an `io::Error`).
#[derive(Debug, Clone, Copy, thiserror::Error)]
#[error("the IMAP server sent a response larger than {limit} bytes; the connection was dropped")]
pub struct TooLarge {
    pub limit: usize,
}

/// Whether `e` is a capped read's failure.
pub fn too_large(e: &io::Error) -> Option<TooLarge> {
    e.get_ref()?.downcast_ref::<TooLarge>().copied()
}

/// Where the framing is, after the bytes seen so far.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Scan {
    /// Text of a line; nothing special at its end.
    Text,
    /// The text ends with `\r`.
    Cr,
    /// The text ends with `{` and `digits` digits making `n`.
    Open { n: u64, digits: bool },
    /// `{n+`.
    Plus(u64),
    /// `{n}` or `{n+}`.
    Close(u64),
    /// `{n}\r`.
    CloseCr(u64),
    /// Inside a literal, `left` bytes to go.
    Literal(u64),
}

/// Follows the framing of the server's bytes and counts the current response.
#[derive(Debug)]
struct Framing {
    limits: Limits,
    scan: Scan,
    total: usize,
    text: usize,
    /// Once a limit is passed the connection is useless: every later read fails too.
    tripped: Option<TooLarge>,
    /// The start of the current response, before any literal (at most `HEAD` bytes).
    head: Vec<u8>,
    /// The last tagged completion line read, without its line end.
    last_done: Option<String>,
}

/// What of a response's start is kept: a tagged completion's status and text.
const HEAD: usize = 512;

impl Framing {
    fn new(limits: Limits) -> Self {
        Self {
            limits,
            scan: Scan::Text,
            total: 0,
            text: 0,
            tripped: None,
            head: Vec::new(),
            last_done: None,
        }
    }

    /// Takes in `bytes`, or the limit they pass.
    fn feed(&mut self, mut bytes: &[u8]) -> Result<(), TooLarge> {
        if let Some(t) = self.tripped {
            return Err(t);
        }
        let result = self.feed_inner(&mut bytes);
        if let Err(t) = result {
            self.tripped = Some(t);
        }
        result
    }

    fn feed_inner(&mut self, bytes: &mut &[u8]) -> Result<(), TooLarge> {
        while !bytes.is_empty() {
            if let Scan::Literal(left) = self.scan {
                let take = (left as usize).min(bytes.len());
                // Counted when announced.
                *bytes = &bytes[take..];
                let left = left - take as u64;
                self.scan = if left == 0 {
                    Scan::Text
                } else {
                    Scan::Literal(left)
                };
                continue;
            }
            let b = bytes[0];
            *bytes = &bytes[1..];
            self.total += 1;
            self.text += 1;
            if self.text > self.limits.text {
                return Err(TooLarge {
                    limit: self.limits.text,
                });
            }
            if self.total > self.limits.total {
                return Err(TooLarge {
                    limit: self.limits.total,
                });
            }
            if self.total == self.text && self.head.len() < HEAD {
                self.head.push(b);
            }
            self.scan = match (self.scan, b) {
                (_, b'{') => Scan::Open {
                    n: 0,
                    digits: false,
                },
                (Scan::Open { n, .. }, b'0'..=b'9') => Scan::Open {
                    n: n.saturating_mul(10).saturating_add(u64::from(b - b'0')),
                    digits: true,
                },
                (Scan::Open { n, digits: true }, b'+') => Scan::Plus(n),
                (Scan::Open { n, digits: true } | Scan::Plus(n), b'}') => Scan::Close(n),
                (Scan::Close(n), b'\r') => Scan::CloseCr(n),
                (Scan::CloseCr(n), b'\n') => {
                    let room = (self.limits.total - self.total) as u64;
                    if n > room {
                        return Err(TooLarge {
                            limit: self.limits.total,
                        });
                    }
                    self.total += n as usize;
                    if n == 0 { Scan::Text } else { Scan::Literal(n) }
                }
                (_, b'\r') => Scan::Cr,
                (Scan::Cr, b'\n') => {
                    // The response is complete: the next one starts from nothing.
                    if !matches!(self.head.first(), Some(b'*' | b'+') | None) {
                        let line = String::from_utf8_lossy(&self.head);
                        self.last_done = Some(line.trim_end().to_string());
                    }
                    self.head.clear();
                    self.total = 0;
                    self.text = 0;
                    Scan::Text
                }
                _ => Scan::Text,
            };
        }
        Ok(())
    }
}

/// The stream an IMAP session reads from, with the [`Limits`] applied to what it reads.
#[derive(Debug)]
pub struct Capped<S> {
    inner: S,
    framing: Framing,
}

impl<S> Capped<S> {
    pub fn new(inner: S, limits: Limits) -> Self {
        Self {
            inner,
            framing: Framing::new(limits),
        }
    }

    /// New limits from the next byte on (after login).
    pub fn set_limits(&mut self, limits: Limits) {
        self.framing.limits = limits;
    }

    /// The last tagged completion read since the last call (`A12 NO [THROTTLED] ...`).
    pub fn take_done(&mut self) -> Option<String> {
        self.framing.last_done.take()
    }

    pub fn get_mut(&mut self) -> &mut S {
        &mut self.inner
    }

    pub fn into_inner(self) -> S {
        self.inner
    }
}

impl<S: AsyncRead + Unpin> AsyncRead for Capped<S> {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        if let Some(t) = this.framing.tripped {
            return Poll::Ready(Err(io::Error::new(io::ErrorKind::InvalidData, t)));
        }
        let before = buf.filled().len();
        std::task::ready!(Pin::new(&mut this.inner).poll_read(cx, buf))?;
        match this.framing.feed(&buf.filled()[before..]) {
            Ok(()) => Poll::Ready(Ok(())),
            Err(t) => {
                // What was read past the limit is never handed up.
                buf.set_filled(before);
                Poll::Ready(Err(io::Error::new(io::ErrorKind::InvalidData, t)))
            }
        }
    }
}

impl<S: AsyncWrite + Unpin> AsyncWrite for Capped<S> {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.get_mut().inner).poll_write(cx, buf)
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().inner).poll_flush(cx)
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().inner).poll_shutdown(cx)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tokio::io::AsyncReadExt;

    const SMALL: Limits = Limits {
        total: 100,
        text: 40,
    };

    #[test]
    fn responses_are_counted_one_at_a_time() {
        let mut f = Framing::new(SMALL);
        // Many short responses never add up.
        for _ in 0..100 {
            f.feed(b"* 1 EXISTS\r\n").unwrap();
        }
        // A literal's bytes count towards the total, not the text; CRLF inside it ends
        // nothing.
        f.feed(b"* 1 FETCH (BODY[] {50}\r\n").unwrap();
        f.feed(&[b'\n'; 30]).unwrap();
        f.feed(&[b'\r'; 20]).unwrap();
        f.feed(b")\r\nA1 OK done\r\n").unwrap();
        assert_eq!((f.total, f.text), (0, 0));
        // Split anywhere, even inside the announcement.
        for chunk in [
            &b"* 2 FETCH (BODY[] {4"[..],
            b"+",
            b"}\r",
            b"\nab",
            b"cd)\r\n",
        ] {
            f.feed(chunk).unwrap();
        }
        assert_eq!(f.scan, Scan::Text);
    }

    #[test]
    fn the_last_tagged_completion_is_kept() {
        let mut f = Framing::new(SESSION);
        f.feed(b"* 1 FETCH (BODY[] {17}\r\nA7 NO in a body\r\n)\r\n")
            .unwrap();
        assert_eq!(f.last_done, None, "a literal's lines are not completions");
        f.feed(b"A7 NO [THROTTLED] slow").unwrap();
        f.feed(b" down\r\n* 2 EXISTS\r\n").unwrap();
        assert_eq!(f.last_done.as_deref(), Some("A7 NO [THROTTLED] slow down"));
        f.feed(b"+ idling\r\nA8 OK done\r\n").unwrap();
        assert_eq!(f.last_done.as_deref(), Some("A8 OK done"));
    }

    #[test]
    fn a_big_literal_is_refused_on_its_announcement() {
        let mut f = Framing::new(SMALL);
        assert!(f.feed(b"* 1 FETCH (BODY[] {1000000000}\r\n").is_err());
        // And stays refused.
        assert!(f.feed(b"* OK\r\n").is_err());
        let mut f = Framing::new(SMALL);
        f.feed(b"* 1 FETCH (A {30}\r\n").unwrap();
        f.feed(&[b'x'; 30]).unwrap();
        // Two literals of one response together pass the total.
        assert!(f.feed(b" B {60}\r\n").is_err());
    }

    #[test]
    fn an_endless_line_fails_at_the_text_limit() {
        let mut f = Framing::new(SMALL);
        f.feed(&[b'a'; 40]).unwrap();
        assert_eq!(f.feed(b"a").unwrap_err().limit, 40);
    }

    #[tokio::test]
    async fn the_stream_fails_the_read_that_passes_a_limit() {
        let mut data = b"* OK hello\r\n".to_vec();
        data.extend(std::iter::repeat_n(b'z', 10_000));
        let mut capped = Capped::new(&data[..], SMALL);
        let mut out = Vec::new();
        let err = capped.read_to_end(&mut out).await.unwrap_err();
        assert_eq!(too_large(&err).map(|t| t.limit), Some(40));
        assert!(out.len() <= 12 + 40, "{}", out.len());
    }
}
