//! The SMTP client's TLS policy against a fake server written here (tokio-rustls on
//! 127.0.0.1, a CA and a certificate made with `openssl` for each test): a wrong pinned
//! fingerprint fails the handshake and the server never sees AUTH (on STARTTLS and on implicit
//! TLS), the right one logs in, `[mail] extra_ca_files` makes the CA trusted, EHLO is said again
//! after STARTTLS, a dot at the start of a line is doubled on the wire, and a silent server is
//! a timeout.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use tokio::io::{AsyncBufReadExt, AsyncRead, AsyncWrite, AsyncWriteExt, BufReader};
use tokio::net::TcpListener;
use tokio_rustls::TlsAcceptor;
use tokio_rustls::rustls::ServerConfig;
use tokio_rustls::rustls::pki_types::pem::PemObject;
use tokio_rustls::rustls::pki_types::{CertificateDer, PrivateKeyDer};

use super::hosts::HostPolicy;
use super::net::{Endpoint, FailureKind};
use super::smtp::SmtpConn;
use super::tls::{TlsContext, fingerprint};

/// A throw-away CA and a leaf certificate for 127.0.0.1 signed by it.
struct Certs {
    _dir: tempfile::TempDir,
    ca: PathBuf,
    chain: Vec<CertificateDer<'static>>,
    key: PathBuf,
}

impl Certs {
    fn new() -> Self {
        let dir = tempfile::tempdir().unwrap();
        let script = r#"set -e
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes \
  -keyout ca.key -out ca.pem -days 2 -subj "/CN=smtp test CA" 2>/dev/null
openssl req -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes \
  -keyout key.pem -out leaf.csr -subj "/CN=localhost" 2>/dev/null
printf '%s\n' "basicConstraints=critical,CA:FALSE" "extendedKeyUsage=serverAuth" \
  "subjectAltName=DNS:localhost,IP:127.0.0.1" > leaf.ext
openssl x509 -req -in leaf.csr -CA ca.pem -CAkey ca.key -CAcreateserial -days 2 \
  -extfile leaf.ext -out cert.pem 2>/dev/null
"#;
        let status = Command::new("bash")
            .arg("-c")
            .arg(script)
            .current_dir(dir.path())
            .status()
            .expect("openssl runs");
        assert!(status.success(), "openssl made the certificates");
        let chain = CertificateDer::pem_file_iter(dir.path().join("cert.pem"))
            .unwrap()
            .map(Result::unwrap)
            .collect();
        Self {
            ca: dir.path().join("ca.pem"),
            key: dir.path().join("key.pem"),
            chain,
            _dir: dir,
        }
    }

    fn fingerprint(&self) -> String {
        fingerprint(self.chain[0].as_ref())
    }

    fn acceptor(&self) -> TlsAcceptor {
        let key = PrivateKeyDer::from_pem_file(Path::new(&self.key)).unwrap();
        let config = ServerConfig::builder_with_provider(super::tls::provider())
            .with_safe_default_protocol_versions()
            .unwrap()
            .with_no_client_auth()
            .with_single_cert(self.chain.clone(), key)
            .unwrap();
        TlsAcceptor::from(Arc::new(config))
    }
}

/// Every line the fake server received, in order ("TLS" marks the handshake).
type Seen = Arc<Mutex<Vec<String>>>;

/// Answers one SMTP session on `stream`; returns on STARTTLS (true) or the end (false).
async fn dialogue<S: AsyncRead + AsyncWrite + Unpin>(
    stream: S,
    greet: bool,
    offer_starttls: bool,
    seen: &Seen,
) -> (S, bool) {
    let mut s = BufReader::new(stream);
    if greet && s.get_mut().write_all(b"220 fake ESMTP\r\n").await.is_err() {
        return (s.into_inner(), false);
    }
    let mut in_data = false;
    loop {
        let mut line = String::new();
        if !matches!(s.read_line(&mut line).await, Ok(n) if n > 0) {
            return (s.into_inner(), false);
        }
        let line = line.trim_end_matches(['\r', '\n']).to_string();
        seen.lock().unwrap().push(line.clone());
        if in_data {
            if line == "." {
                in_data = false;
                let _ = s.get_mut().write_all(b"250 queued\r\n").await;
            }
            continue;
        }
        let verb = line.split(' ').next().unwrap_or("").to_ascii_uppercase();
        let reply: &[u8] = match verb.as_str() {
            "EHLO" if offer_starttls => {
                b"250-fake\r\n250-STARTTLS\r\n250-AUTH PLAIN LOGIN\r\n250 8BITMIME\r\n"
            }
            "EHLO" => b"250-fake\r\n250-AUTH PLAIN LOGIN\r\n250 8BITMIME\r\n",
            "STARTTLS" => {
                let _ = s.get_mut().write_all(b"220 go ahead\r\n").await;
                return (s.into_inner(), true);
            }
            "AUTH" => b"235 2.7.0 ok\r\n",
            "MAIL" | "RCPT" => b"250 ok\r\n",
            "DATA" => {
                in_data = true;
                b"354 go\r\n"
            }
            "QUIT" => {
                let _ = s.get_mut().write_all(b"221 bye\r\n").await;
                return (s.into_inner(), false);
            }
            _ => b"500 what\r\n",
        };
        if s.get_mut().write_all(reply).await.is_err() {
            return (s.into_inner(), false);
        }
    }
}

/// A fake submission server: STARTTLS on a plain port, or implicit TLS.
async fn fake_server(certs: &Certs, implicit: bool) -> (u16, Seen) {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    let seen: Seen = Arc::default();
    let acceptor = certs.acceptor();
    let log = seen.clone();
    tokio::spawn(async move {
        while let Ok((tcp, _)) = listener.accept().await {
            let (acceptor, log) = (acceptor.clone(), log.clone());
            tokio::spawn(async move {
                let tcp = if implicit {
                    tcp
                } else {
                    let (tcp, starttls) = dialogue(tcp, true, true, &log).await;
                    if !starttls {
                        return;
                    }
                    tcp
                };
                let Ok(tls) = acceptor.accept(tcp).await else {
                    log.lock().unwrap().push("TLS failed".into());
                    return;
                };
                log.lock().unwrap().push("TLS".into());
                dialogue(tls, implicit, false, &log).await;
            });
        }
    });
    (port, seen)
}

fn endpoint(port: u16, ssl: bool, pin: Option<String>) -> Endpoint {
    Endpoint {
        host: "127.0.0.1".into(),
        port,
        ssl,
        pinned_fingerprint: pin,
        timeout: Duration::from_secs(5),
        hosts: HostPolicy::default(),
    }
}

fn saw_auth(seen: &Seen) -> bool {
    seen.lock().unwrap().iter().any(|l| l.starts_with("AUTH"))
}

#[tokio::test]
async fn a_wrong_pin_fails_the_handshake_before_auth_and_the_right_one_logs_in() {
    let certs = Certs::new();
    let untrusting = TlsContext::new(&[]).unwrap();
    for implicit in [false, true] {
        let (port, seen) = fake_server(&certs, implicit).await;
        // The CA is not trusted and the pin is another certificate's.
        let wrong = Some("00:".repeat(31) + "00");
        let err = SmtpConn::open(&untrusting, &endpoint(port, implicit, wrong), "u", "secret")
            .await
            .err()
            .expect("a wrong pin fails");
        assert_eq!(err.kind, FailureKind::Tls, "{err:?}");
        assert_eq!(err.fingerprint, Some(certs.fingerprint()), "{err:?}");
        // No pin at all: the same.
        let err = SmtpConn::open(&untrusting, &endpoint(port, implicit, None), "u", "secret")
            .await
            .err()
            .expect("an untrusted certificate fails");
        assert_eq!(err.kind, FailureKind::Tls, "{err:?}");
        tokio::time::sleep(Duration::from_millis(100)).await;
        assert!(!saw_auth(&seen), "AUTH reached the server: {seen:?}");
        assert!(!seen.lock().unwrap().iter().any(|l| l == "TLS"), "{seen:?}");

        // The pin the user accepted (typed any way) logs in.
        let pin = Some(certs.fingerprint().to_lowercase().replace(':', " "));
        let conn = SmtpConn::open(&untrusting, &endpoint(port, implicit, pin), "u", "secret")
            .await
            .expect("the pinned certificate is accepted");
        conn.quit().await;
        tokio::time::sleep(Duration::from_millis(100)).await;
        let lines = seen.lock().unwrap().clone();
        let after_tls: Vec<&str> = lines
            .iter()
            .skip_while(|l| *l != "TLS")
            .map(String::as_str)
            .collect();
        assert!(after_tls[1].starts_with("EHLO "), "{lines:?}");
        assert!(after_tls[2].starts_with("AUTH PLAIN "), "{lines:?}");
        if !implicit {
            // STARTTLS: nothing but EHLO and STARTTLS in clear text.
            let before: Vec<&str> = lines
                .iter()
                .take_while(|l| *l != "TLS")
                .filter(|l| *l != "TLS failed")
                .map(|l| l.split(' ').next().unwrap())
                .collect();
            assert_eq!(before, ["EHLO", "STARTTLS"].repeat(3), "{lines:?}");
        }
    }
}

#[tokio::test]
async fn extra_ca_files_are_trusted_and_a_leading_dot_is_doubled_on_the_wire() {
    let certs = Certs::new();
    let trusting = TlsContext::new(std::slice::from_ref(&certs.ca)).unwrap();
    for implicit in [false, true] {
        let (port, seen) = fake_server(&certs, implicit).await;
        let mut conn = SmtpConn::open(&trusting, &endpoint(port, implicit, None), "u", "p")
            .await
            .expect("a certificate from an extra CA is trusted");
        conn.send(
            "u@example.test",
            &["v@example.test".into()],
            b"Subject: x\r\n\r\n.leading dot\r\n..two\r\nend\r\n",
        )
        .await
        .unwrap();
        conn.quit().await;
        tokio::time::sleep(Duration::from_millis(100)).await;
        let lines = seen.lock().unwrap().clone();
        assert!(lines.iter().any(|l| l == "..leading dot"), "{lines:?}");
        assert!(lines.iter().any(|l| l == "...two"), "{lines:?}");
        // The message ends where it ended: no empty line before the final dot.
        let end = lines
            .iter()
            .position(|l| l == "end")
            .expect("the last line");
        assert_eq!(lines[end + 1], ".", "{lines:?}");
    }
}

#[tokio::test]
async fn a_silent_server_is_a_timeout() {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    tokio::spawn(async move {
        let (_s, _) = listener.accept().await.unwrap();
        tokio::time::sleep(Duration::from_secs(30)).await;
    });
    let mut ep = endpoint(port, false, None);
    ep.timeout = Duration::from_secs(1);
    let started = Instant::now();
    let err = SmtpConn::open(&TlsContext::new(&[]).unwrap(), &ep, "u", "p")
        .await
        .err()
        .expect("silence fails");
    assert_eq!(err.kind, FailureKind::Timeout, "{err:?}");
    assert!(started.elapsed() < Duration::from_secs(3));
}
