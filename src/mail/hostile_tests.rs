//! The mail clients against hostile servers written here (tokio on 127.0.0.1): an SMTP server
//! that never ends its line, an IMAP server that announces a 1 GB literal and streams it, other
//! services' banners that must not be read back to the user, and the host policy refusing
//! addresses before any connection is made. Each fake server counts the bytes it got out, so
//! the tests show the client stopped near its cap instead of buffering what was sent.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::net::{TcpListener, TcpSocket, TcpStream};

use super::hosts::HostPolicy;
use super::net::{Endpoint, FailureKind, MailError, connect_tcp};
use super::tls::TlsContext;
use super::{imap, imap_cap, smtp};

/// What the kernel may hold between the fake server and the client (socket buffers): bytes
/// the fake server got out that the client never read.
const IN_FLIGHT: u64 = 4 << 20;

fn endpoint(port: u16, hosts: HostPolicy) -> Endpoint {
    Endpoint {
        host: "127.0.0.1".into(),
        port,
        ssl: false,
        pinned_fingerprint: None,
        timeout: Duration::from_secs(10),
        hosts,
    }
}

fn tls() -> TlsContext {
    TlsContext::new(&[]).unwrap()
}

/// A listener whose accepted sockets have a small send buffer, so what the fake server counts
/// as sent is close to what the client could have read.
async fn listener() -> (TcpListener, u16) {
    let socket = TcpSocket::new_v4().unwrap();
    socket.set_send_buffer_size(16 << 10).unwrap();
    socket.bind("127.0.0.1:0".parse().unwrap()).unwrap();
    let listener = socket.listen(8).unwrap();
    let port = listener.local_addr().unwrap().port();
    (listener, port)
}

/// Writes `first`, then `filler` bytes without end (up to 2 GiB), counting what went out,
/// until the client goes away.
async fn stream_forever(mut s: TcpStream, first: &[u8], sent: Arc<AtomicU64>) {
    if s.write_all(first).await.is_err() {
        return;
    }
    sent.fetch_add(first.len() as u64, Ordering::Relaxed);
    let block = [b'x'; 4096];
    while sent.load(Ordering::Relaxed) < 2 << 30 {
        match s.write(&block).await {
            Ok(0) | Err(_) => return,
            Ok(n) => {
                sent.fetch_add(n as u64, Ordering::Relaxed);
            }
        }
    }
}

/// A hostile server on a fresh [`listener`]: `serve` gets the accepted socket and the count of
/// the bytes it got out. Returns its port and that count.
async fn hostile<F>(
    serve: impl FnOnce(TcpStream, Arc<AtomicU64>) -> F + Send + 'static,
) -> (u16, Arc<AtomicU64>)
where
    F: std::future::Future<Output = ()> + Send + 'static,
{
    let (listener, port) = listener().await;
    let sent = Arc::new(AtomicU64::new(0));
    let counted = sent.clone();
    tokio::spawn(async move {
        let (s, _) = listener.accept().await.unwrap();
        serve(s, counted).await;
    });
    (port, sent)
}

/// The client's failure is a protocol error saying `why`, reached within `within` of
/// `started`; once the client is gone the server's writes stop: it got out at most `cap`
/// bytes and what the kernel holds.
async fn cut_at_the_cap(
    err: &MailError,
    started: Instant,
    why: &str,
    within: Duration,
    sent: &AtomicU64,
    cap: u64,
) {
    assert_eq!(err.kind, FailureKind::Protocol, "{err:?}");
    assert!(err.detail.contains(why), "{err:?}");
    assert!(started.elapsed() < within, "{:?}", started.elapsed());
    tokio::time::sleep(Duration::from_millis(300)).await;
    let total = sent.load(Ordering::Relaxed);
    assert!(total < cap + IN_FLIGHT, "{total} bytes sent");
}

/// Answers IMAP commands by their name (STARTTLS refused, LOGIN accepted), and the first other
/// command with `reply` followed by bytes without end.
async fn fake_imap(
    listener: TcpListener,
    greeting: &'static [u8],
    reply: &'static [u8],
    sent: Arc<AtomicU64>,
) {
    let (s, _) = listener.accept().await.unwrap();
    let (read, mut write) = s.into_split();
    if write.write_all(greeting).await.is_err() {
        return;
    }
    let mut lines = BufReader::new(read).lines();
    while let Ok(Some(line)) = lines.next_line().await {
        let mut words = line.split(' ');
        let (tag, command) = (words.next().unwrap_or(""), words.next().unwrap_or(""));
        let answer = match command.to_ascii_uppercase().as_str() {
            "STARTTLS" => format!("{tag} BAD not here\r\n"),
            "LOGIN" => format!("{tag} OK logged in\r\n"),
            _ => break,
        };
        if write.write_all(answer.as_bytes()).await.is_err() {
            return;
        }
    }
    let s = lines.into_inner().into_inner().reunite(write).unwrap();
    stream_forever(s, reply, sent).await;
}

#[tokio::test]
async fn an_smtp_reply_line_without_end_is_cut_at_the_cap() {
    let (port, sent) = hostile(|s, sent| stream_forever(s, b"220-", sent)).await;
    let started = Instant::now();
    let err = smtp::SmtpConn::open(&tls(), &endpoint(port, HostPolicy::default()), "u", "p")
        .await
        .err()
        .expect("an endless line fails");
    let (why, within) = ("longer than 32768 bytes", Duration::from_secs(5));
    cut_at_the_cap(&err, started, why, within, &sent, smtp::MAX_REPLY as u64).await;
}

#[tokio::test]
async fn an_smtp_reply_of_endless_lines_is_cut_at_the_cap() {
    let (port, sent) = hostile(|mut s, counted| async move {
        let block = b"220-more\r\n".repeat(400);
        while counted.load(Ordering::Relaxed) < 2 << 30 {
            if s.write_all(&block).await.is_err() {
                return;
            }
            counted.fetch_add(block.len() as u64, Ordering::Relaxed);
        }
    })
    .await;
    let started = Instant::now();
    let err = smtp::SmtpConn::open(&tls(), &endpoint(port, HostPolicy::default()), "u", "p")
        .await
        .err()
        .expect("an endless reply fails");
    // Ours, before lettre's (100,000 bytes, reached only after seconds of its re-parsing).
    let (why, within) = ("or 200 lines", Duration::from_secs(1));
    cut_at_the_cap(&err, started, why, within, &sent, smtp::MAX_REPLY as u64).await;
}

#[tokio::test]
async fn an_imap_literal_of_a_gigabyte_is_refused_on_its_announcement() {
    let (listener, port) = listener().await;
    let sent = Arc::new(AtomicU64::new(0));
    tokio::spawn(fake_imap(
        listener,
        b"* OK ready\r\n",
        b"* 1 FETCH (BODY[] {1000000000}\r\n",
        sent.clone(),
    ));
    let ep = endpoint(port, HostPolicy::default());
    let mut session = imap::open(&tls(), &ep, "u", "p").await.unwrap();
    let started = Instant::now();
    let raw = session
        .select("INBOX")
        .await
        .expect_err("the literal fails");
    // As the account shows it (the sync's errors come through anyhow).
    let err = imap::session_error(&ep, &anyhow::Error::from(raw)).expect("a capped read");
    assert_eq!(err.kind, FailureKind::Protocol, "{err:?}");
    assert!(
        err.detail.contains("larger than 268435456 bytes"),
        "{err:?}"
    );
    assert!(err.message.contains("256 MB"), "{err:?}");
    assert!(
        started.elapsed() < Duration::from_secs(5),
        "{:?}",
        started.elapsed()
    );
    drop(session);
    tokio::time::sleep(Duration::from_millis(300)).await;
    let total = sent.load(Ordering::Relaxed);
    assert!(total < IN_FLIGHT, "{total} bytes sent");
}

#[tokio::test]
async fn an_imap_greeting_without_end_is_cut_before_login() {
    let (port, sent) = hostile(|s, sent| stream_forever(s, b"* OK ", sent)).await;
    let started = Instant::now();
    let err = imap::open(&tls(), &endpoint(port, HostPolicy::default()), "u", "p")
        .await
        .expect_err("an endless greeting fails");
    let (why, within) = ("larger than 65536 bytes", Duration::from_secs(5));
    let cap = imap_cap::BEFORE_LOGIN.total as u64;
    cut_at_the_cap(&err, started, why, within, &sent, cap).await;
}

/// A service that says `banner` (and `then` to anything sent to it).
async fn banner_server(banner: &'static [u8], then: &'static [u8]) -> u16 {
    let (listener, port) = listener().await;
    tokio::spawn(async move {
        while let Ok((mut s, _)) = listener.accept().await {
            let _ = s.write_all(banner).await;
            let mut buf = [0u8; 1024];
            use tokio::io::AsyncReadExt;
            if matches!(s.read(&mut buf).await, Ok(n) if n > 0) {
                let _ = s.write_all(then).await;
            }
            tokio::time::sleep(Duration::from_millis(200)).await;
        }
    });
    port
}

fn says_nothing_of(err: &MailError, secret: &str) {
    let shown = serde_json::to_string(err).unwrap();
    assert!(!shown.contains(secret), "{shown}");
    assert_eq!(err.kind, FailureKind::Protocol, "{shown}");
}

#[tokio::test]
async fn other_services_banners_are_never_repeated() {
    let ssh = banner_server(b"SSH-2.0-OpenSSH_9.2 SECRET-BANNER\r\n", b"").await;
    let ftp = banner_server(
        b"220 SECRET-BANNER FTP ready\r\n",
        b"500 SECRET-BANNER what?\r\n",
    )
    .await;
    let redis = banner_server(b"-ERR SECRET-BANNER\r\n", b"").await;
    for port in [ssh, ftp, redis] {
        let ep = endpoint(port, HostPolicy::default());
        let err = imap::open(&tls(), &ep, "u", "p").await.err().unwrap();
        says_nothing_of(&err, "SECRET");
        assert!(err.message.contains("IMAP"), "{err:?}");
        let err = smtp::SmtpConn::open(&tls(), &ep, "u", "p")
            .await
            .err()
            .unwrap();
        says_nothing_of(&err, "SECRET");
        assert!(err.message.contains("SMTP"), "{err:?}");
    }
}

#[tokio::test]
async fn the_host_policy_checks_resolved_addresses_before_connecting() {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    let strict = HostPolicy::new(&[], true);
    for host in ["127.0.0.1", "localhost"] {
        let ep = Endpoint {
            host: host.into(),
            ..endpoint(port, strict.clone())
        };
        let err = connect_tcp(&ep).await.expect_err("refused");
        assert_eq!(err.kind, FailureKind::Unreachable, "{err:?}");
        assert!(err.detail.contains("deny_private_ranges"), "{err:?}");
    }
    let listed = HostPolicy::new(&["imap.example.com".into()], false);
    let err = connect_tcp(&endpoint(port, listed))
        .await
        .expect_err("refused");
    assert!(err.detail.contains("allowed_hosts"), "{err:?}");
    // Nothing reached the listener.
    let accepted = tokio::time::timeout(Duration::from_millis(300), listener.accept()).await;
    assert!(accepted.is_err(), "a refused host was connected to");
    // The defaults connect to a LAN or local server.
    connect_tcp(&endpoint(port, HostPolicy::default()))
        .await
        .unwrap();
    let listed = HostPolicy::new(&["127.0.0.1".into()], false);
    connect_tcp(&endpoint(port, listed)).await.unwrap();
}
