//! A private Dovecot + Postfix per test (scripts/mail-test-server.sh), on free loopback ports,
//! stopped on drop. Users: user1..user3@example.test with passwords pass1..pass3.

use std::collections::HashMap;
use std::io::{BufRead, BufReader, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::Command;

pub struct MailServer {
    pub dir: tempfile::TempDir,
    pub env: HashMap<String, String>,
    ports: Vec<u16>,
    /// MAILTEST_* settings of this instance (scripts/mail-test-server.sh).
    settings: Vec<(String, String)>,
}

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

fn parse_env(stdout: &[u8]) -> HashMap<String, String> {
    String::from_utf8_lossy(stdout)
        .lines()
        .filter_map(|l| l.split_once('='))
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect()
}

fn run_start(
    dir: &Path,
    ports: &[u16],
    settings: &[(String, String)],
) -> Result<HashMap<String, String>, String> {
    let out = Command::new("bash")
        .arg(repo().join("scripts/mail-test-server.sh"))
        .args(["start"])
        .arg(dir)
        .envs(settings.iter().map(|(k, v)| (k, v)))
        .env("MAILTEST_IMAP_PORT", ports[0].to_string())
        .env("MAILTEST_IMAPS_PORT", ports[1].to_string())
        .env("MAILTEST_SMTP_PORT", ports[2].to_string())
        .env("MAILTEST_SUBMISSION_PORT", ports[3].to_string())
        .env("MAILTEST_SUBMISSIONS_PORT", ports[4].to_string())
        .output()
        .unwrap();
    if !out.status.success() {
        return Err(format!(
            "mail test server did not start: {}",
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    Ok(parse_env(&out.stdout))
}

fn stop_dir(dir: &Path) {
    let _ = Command::new("bash")
        .arg(repo().join("scripts/mail-test-server.sh"))
        .arg("stop")
        .arg(dir)
        .output();
}

impl MailServer {
    /// A free port is only free until someone else binds it: tests run in parallel, so a port
    /// picked here can be taken before Postfix or Dovecot binds it. Then start again on new ports.
    pub fn start() -> Self {
        Self::start_with(&[])
    }

    /// With MAILTEST_* settings of the script (`MAILTEST_IMAP_CAPABILITY`, …).
    pub fn start_with(settings: &[(&str, &str)]) -> Self {
        let settings: Vec<(String, String)> = settings
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        let mut last = String::new();
        for _ in 0..5 {
            let dir = tempfile::tempdir().unwrap();
            let mut ports = std::collections::HashSet::new();
            while ports.len() < 5 {
                ports.insert(free_port());
            }
            let ports: Vec<u16> = ports.into_iter().collect();
            match run_start(dir.path(), &ports, &settings) {
                Ok(env) => {
                    return Self {
                        env,
                        dir,
                        ports,
                        settings,
                    };
                }
                Err(e) => {
                    stop_dir(dir.path());
                    last = e;
                }
            }
        }
        panic!("{last}");
    }

    /// Stops both servers (the mail stays in the directory).
    pub fn stop(&self) {
        stop_dir(self.dir.path());
    }

    /// Starts them again on the same ports, with the same mail.
    pub fn restart(&self) {
        if let Err(e) = run_start(self.dir.path(), &self.ports, &self.settings) {
            panic!("{e}");
        }
    }

    fn port(&self, name: &str) -> u16 {
        self.env[&format!("MAILTEST_{name}_PORT")].parse().unwrap()
    }
    pub fn imap_port(&self) -> u16 {
        self.port("IMAP")
    }
    pub fn imaps_port(&self) -> u16 {
        self.port("IMAPS")
    }
    pub fn smtp_port(&self) -> u16 {
        self.port("SMTP")
    }
    pub fn submission_port(&self) -> u16 {
        self.port("SUBMISSION")
    }
    pub fn submissions_port(&self) -> u16 {
        self.port("SUBMISSIONS")
    }
    pub fn ca(&self) -> String {
        self.env["MAILTEST_CA"].clone()
    }

    /// Config TOML that trusts the test CA.
    pub fn config_toml(&self) -> String {
        format!(
            "[mail]\nextra_ca_files = [\"{}\"]\ntimeout_secs = 5\npoll_interval_secs = 10\n",
            self.ca()
        )
    }

    /// The mailbox login body for `user` (e.g. "user1") over IMAPS and SMTPS.
    pub fn account(&self, user: &str) -> serde_json::Value {
        let n = user.trim_start_matches("user");
        serde_json::json!({
            "email_address": format!("{user}@example.test"),
            "password": format!("pass{n}"),
            "imap_server": "127.0.0.1",
            "imap_port": self.imaps_port().to_string(),
            "imap_ssl": true,
            "smtp_server": "127.0.0.1",
            "smtp_port": self.submissions_port(),
            "smtp_ssl": true,
        })
    }

    /// Loads every file of `source` into `user`'s `folder`.
    pub fn seed(&self, user: &str, source: &Path, folder: &str) -> HashMap<String, String> {
        self.seed_flagged(user, source, folder, "")
    }

    /// Loads every file of `source` into `user`'s `folder` with the Maildir flag letters
    /// `flags` (`F`: \Flagged, `S`: \Seen; empty: none).
    pub fn seed_flagged(
        &self,
        user: &str,
        source: &Path,
        folder: &str,
        flags: &str,
    ) -> HashMap<String, String> {
        let out = Command::new("bash")
            .arg(repo().join("scripts/mail-test-server.sh"))
            .arg("seed")
            .arg(self.dir.path())
            .arg(format!("{user}@example.test"))
            .arg(source)
            .env("MAILTEST_SEED_FOLDER", folder)
            .env("MAILTEST_SEED_FLAGS", flags)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "seed failed: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        parse_env(&out.stdout)
    }

    /// Runs doveadm against this instance.
    pub fn doveadm(&self, args: &[&str]) -> String {
        let conf = self.dir.path().join("dovecot/dovecot.conf");
        let out = Command::new("doveadm")
            .arg("-c")
            .arg(&conf)
            .args(args)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "doveadm {args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    /// `messages` of a user's folder as Dovecot counts them.
    pub fn message_count(&self, user: &str, folder: &str) -> usize {
        let out = self.doveadm(&[
            "-f",
            "flow",
            "mailbox",
            "status",
            "-u",
            &format!("{user}@example.test"),
            "messages",
            folder,
        ]);
        out.split("messages=")
            .nth(1)
            .and_then(|rest| rest.split_whitespace().next())
            .and_then(|n| n.parse().ok())
            .unwrap_or_else(|| panic!("doveadm status: {out}"))
    }

    /// Every message of a user's folder as Dovecot holds it: (flags, raw bytes with LF ends).
    pub fn messages(&self, user: &str, folder: &str) -> Vec<(String, Vec<u8>)> {
        let out = self.doveadm(&[
            "-f",
            "pager",
            "fetch",
            "-u",
            &format!("{user}@example.test"),
            "flags text",
            "mailbox",
            folder,
        ]);
        out.split("\x0c\n")
            .filter(|r| !r.trim().is_empty())
            .map(|record| {
                let (head, text) = record.split_once("\ntext:\n").expect("flags then text");
                let flags = head.trim_start_matches("flags:").trim().to_string();
                (flags, text.as_bytes().to_vec())
            })
            .collect()
    }

    /// Delivers `raw` by plain SMTP to the MX port, as an outside sender would.
    pub fn deliver(&self, to: &str, raw: &str) {
        let stream = TcpStream::connect(("127.0.0.1", self.smtp_port())).unwrap();
        let mut reader = BufReader::new(stream.try_clone().unwrap());
        let mut w = stream;
        let mut expect = |code: &str| loop {
            let mut line = String::new();
            reader.read_line(&mut line).unwrap();
            assert!(line.starts_with(code), "expected {code}, got {line}");
            if line.as_bytes().get(3) != Some(&b'-') {
                break;
            }
        };
        expect("220");
        for (cmd, code) in [
            ("EHLO test.local".to_string(), "250"),
            ("MAIL FROM:<outside@sender.test>".to_string(), "250"),
            (format!("RCPT TO:<{to}>"), "250"),
            ("DATA".to_string(), "354"),
        ] {
            write!(w, "{cmd}\r\n").unwrap();
            expect(code);
        }
        for line in raw.lines() {
            let line = if line.starts_with('.') {
                format!(".{line}")
            } else {
                line.to_string()
            };
            write!(w, "{line}\r\n").unwrap();
        }
        write!(w, ".\r\n").unwrap();
        expect("250");
        write!(w, "QUIT\r\n").unwrap();
    }
}

impl Drop for MailServer {
    fn drop(&mut self) {
        self.stop();
    }
}
