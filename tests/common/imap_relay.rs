//! A plain-text IMAP relay in front of a real Dovecot that changes what the two sides say, for
//! servers Dovecot cannot imitate by itself (Courier late in IDLE, Outlook.com's throttling,
//! its `* BYE` under load, folders without keywords). It refuses STARTTLS (so the client, on
//! this machine, goes on in plain text); what else it does is a [`Rewrite`]'s: per line from
//! the client (forward it, answer it itself, or both with lines first), per line from the
//! server (pass, change, hold back or drop), and when to cut a connection. After
//! `COMPRESS DEFLATE` it passes the bytes as they come; it counts what the server sent. [`Relay::bye`] ends every open session with a
//! `* BYE`, as a loaded server does.

use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::net::tcp::OwnedWriteHalf;
use tokio::net::{TcpListener, TcpStream};
use tokio::task::AbortHandle;

/// One line from the client, read: its tag as sent, its command word upper-cased, the rest as
/// sent.
pub struct ClientLine<'a> {
    /// Which connection (counted from 0 in the order they came).
    pub conn: usize,
    pub raw: &'a [u8],
    pub tag: String,
    pub command: String,
    /// What follows the command word, without the line end.
    pub args: String,
}

/// What the relay does with a line from the client.
pub enum Act {
    /// Pass it to the server.
    Forward,
    /// Send these bytes to the client, and pass the line on.
    PrefixAndForward(Vec<u8>),
    /// Answer the client with these bytes; the server never sees the line.
    Answer(Vec<u8>),
    /// Send the server this line instead (with its line end).
    Replace(Vec<u8>),
}

/// What a relay changes. Both default to passing everything.
pub trait Rewrite: Send + Sync + 'static {
    fn client_line(&self, _line: &ClientLine<'_>) -> Act {
        Act::Forward
    }
    /// The lines the client gets for one line of the server on connection `conn` (none: held
    /// back or dropped).
    fn server_line(&self, _conn: usize, line: Vec<u8>) -> Vec<Vec<u8>> {
        vec![line]
    }
    /// Whether to cut connection `conn` now, after the lines passed so far (the socket closes
    /// under the client without a word, as a dropped link or a killed server does).
    fn cut(&self, _conn: usize) -> bool {
        false
    }
}

/// The relay passes everything but STARTTLS.
pub struct Plain;
impl Rewrite for Plain {}

struct Open {
    to_client: Arc<tokio::sync::Mutex<OwnedWriteHalf>>,
    tasks: Vec<AbortHandle>,
}

struct Shared {
    rewrite: Arc<dyn Rewrite>,
    /// Bytes from the server to the client, all connections.
    down: AtomicU64,
    accepted: AtomicUsize,
    open: Mutex<Vec<Open>>,
}

pub struct Relay {
    pub port: u16,
    shared: Arc<Shared>,
}

impl Relay {
    /// A relay to the IMAP server on `server_port` that changes what `rewrite` says.
    pub async fn start(server_port: u16, rewrite: Arc<dyn Rewrite>) -> Self {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let port = listener.local_addr().unwrap().port();
        let shared = Arc::new(Shared {
            rewrite,
            accepted: AtomicUsize::new(0),
            down: AtomicU64::new(0),
            open: Mutex::new(Vec::new()),
        });
        let s = shared.clone();
        tokio::spawn(async move {
            while let Ok((client, _)) = listener.accept().await {
                let Ok(server) = TcpStream::connect(("127.0.0.1", server_port)).await else {
                    continue;
                };
                let conn = s.accepted.fetch_add(1, Ordering::SeqCst);
                pipe(conn, client, server, s.clone());
            }
        });
        Self { port, shared }
    }

    /// The bytes the server sent the client so far, on every connection.
    pub fn bytes_down(&self) -> u64 {
        self.shared.down.load(Ordering::SeqCst)
    }

    /// The connections the client made so far.
    pub fn connections(&self) -> usize {
        self.shared.accepted.load(Ordering::SeqCst)
    }

    /// Ends every open session as a loaded server does: `* BYE <text>`, then the socket closes
    /// (on both sides). Returns how many it ended.
    pub async fn bye(&self, text: &str) -> usize {
        let open: Vec<Open> = std::mem::take(&mut *self.shared.open.lock().unwrap());
        let n = open.len();
        for o in open {
            for t in &o.tasks {
                t.abort();
            }
            let mut w = o.to_client.lock().await;
            let _ = w.write_all(format!("* BYE {text}\r\n").as_bytes()).await;
            let _ = w.shutdown().await;
        }
        n
    }
}

/// The IMAP account JSON of `user` on `ms`, through the relay on `port`.
pub fn account_through(
    ms: &super::mailserver::MailServer,
    user: &str,
    port: u16,
) -> serde_json::Value {
    let mut account = ms.account(user);
    account["imap_port"] = serde_json::json!(port);
    account["imap_ssl"] = serde_json::json!(false);
    account
}

fn pipe(conn: usize, client: TcpStream, server: TcpStream, shared: Arc<Shared>) {
    let (client_r, client_w) = client.into_split();
    let (server_r, server_w) = server.into_split();
    let to_client = Arc::new(tokio::sync::Mutex::new(client_w));
    // The tag of the client's COMPRESS: after the server's answer to it, both ways are
    // compressed bytes without lines, passed as they come.
    let compress: Arc<Mutex<Option<String>>> = Arc::default();
    let down = tokio::spawn(server_to_client(
        conn,
        server_r,
        to_client.clone(),
        shared.clone(),
        compress.clone(),
    ));
    let up = tokio::spawn(client_to_server(
        conn,
        client_r,
        server_w,
        to_client.clone(),
        shared.clone(),
        compress,
    ));
    shared.open.lock().unwrap().push(Open {
        to_client,
        tasks: vec![down.abort_handle(), up.abort_handle()],
    });
}

/// The server's bytes to the client as they come, counted.
async fn copy(
    mut server_r: BufReader<tokio::net::tcp::OwnedReadHalf>,
    to_client: Arc<tokio::sync::Mutex<OwnedWriteHalf>>,
    shared: Arc<Shared>,
) {
    use tokio::io::AsyncReadExt;
    let mut block = vec![0u8; 64 << 10];
    while let Ok(n) = server_r.read(&mut block).await {
        if n == 0 {
            break;
        }
        shared.down.fetch_add(n as u64, Ordering::SeqCst);
        if to_client.lock().await.write_all(&block[..n]).await.is_err() {
            return;
        }
    }
    let _ = to_client.lock().await.shutdown().await;
}

async fn client_to_server(
    conn: usize,
    client_r: tokio::net::tcp::OwnedReadHalf,
    mut server_w: OwnedWriteHalf,
    to_client: Arc<tokio::sync::Mutex<OwnedWriteHalf>>,
    shared: Arc<Shared>,
    compress: Arc<Mutex<Option<String>>>,
) {
    let mut lines = BufReader::new(client_r);
    let mut line = Vec::new();
    while lines.read_until(b'\n', &mut line).await.unwrap_or(0) > 0 {
        let text = String::from_utf8_lossy(&line).trim_end().to_string();
        let mut words = text.splitn(3, ' ');
        let tag = words.next().unwrap_or("").to_string();
        let command = words.next().unwrap_or("").to_ascii_uppercase();
        let args = words.next().unwrap_or("").to_string();
        if command == "STARTTLS" {
            let refusal = format!("{tag} BAD no TLS here\r\n");
            let _ = to_client.lock().await.write_all(refusal.as_bytes()).await;
            line.clear();
            continue;
        }
        let read = ClientLine {
            conn,
            raw: &line,
            tag,
            command,
            args,
        };
        let compress_tag = (read.command == "COMPRESS").then(|| read.tag.clone());
        match shared.rewrite.client_line(&read) {
            Act::Forward => {}
            Act::Replace(instead) => line = instead,
            Act::PrefixAndForward(first) => {
                let _ = to_client.lock().await.write_all(&first).await;
            }
            Act::Answer(answer) => {
                let _ = to_client.lock().await.write_all(&answer).await;
                line.clear();
                continue;
            }
        }
        if compress_tag.is_some() {
            // Known before the server can answer.
            *compress.lock().unwrap() = compress_tag.clone();
        }
        if server_w.write_all(&line).await.is_err() {
            break;
        }
        line.clear();
        if compress_tag.is_some() {
            let _ = tokio::io::copy(&mut lines, &mut server_w).await;
            break;
        }
    }
}

async fn server_to_client(
    conn: usize,
    server_r: tokio::net::tcp::OwnedReadHalf,
    to_client: Arc<tokio::sync::Mutex<OwnedWriteHalf>>,
    shared: Arc<Shared>,
    compress: Arc<Mutex<Option<String>>>,
) {
    let mut lines = BufReader::new(server_r);
    let mut line = Vec::new();
    while lines.read_until(b'\n', &mut line).await.unwrap_or(0) > 0 {
        shared.down.fetch_add(line.len() as u64, Ordering::SeqCst);
        let compressing = compress
            .lock()
            .unwrap()
            .as_ref()
            .is_some_and(|tag| line.starts_with(format!("{tag} OK").as_bytes()));
        if compressing {
            let _ = to_client.lock().await.write_all(&line).await;
            return copy(lines, to_client, shared).await;
        }
        for out in shared.rewrite.server_line(conn, std::mem::take(&mut line)) {
            if to_client.lock().await.write_all(&out).await.is_err() {
                return;
            }
        }
        if shared.rewrite.cut(conn) {
            break;
        }
    }
    // The server closed: so does the client's side.
    let _ = to_client.lock().await.shutdown().await;
}
