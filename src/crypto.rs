//! The server key and sealing of secrets at rest (mailbox passwords, later AI keys), and
//! [`Secret`], the type a secret travels in (requests, config) so no `Debug` output prints it.
//!
//! The key is 32 random bytes in `<data_dir>/server.key`, created on first use with mode 0600.
//! A sealed value is `base64(nonce || ciphertext+tag)` under ChaCha20-Poly1305, with a context
//! string as associated data so a value sealed for one purpose (one account's password) cannot
//! be swapped in for another.

use std::path::{Path, PathBuf};

use anyhow::Context;
use base64::Engine;
use base64::engine::general_purpose::STANDARD as B64;
use chacha20poly1305::aead::{Aead, KeyInit, Payload};
use chacha20poly1305::{ChaCha20Poly1305, Nonce};

pub const KEY_FILE: &str = "server.key";
const KEY_LEN: usize = 32;
const NONCE_LEN: usize = 12;

#[derive(Clone)]
pub struct ServerKey {
    cipher: ChaCha20Poly1305,
}

impl std::fmt::Debug for ServerKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("ServerKey(..)")
    }
}

impl ServerKey {
    /// Reads the key file in `data_dir`, creating it (0600) when missing. A file of the wrong
    /// size is an error, never silently replaced: that would make every sealed secret unreadable.
    pub fn load_or_create(data_dir: &Path) -> anyhow::Result<Self> {
        let path = data_dir.join(KEY_FILE);
        let bytes = match std::fs::read(&path) {
            Ok(b) => b,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => create_key_file(&path)?,
            Err(e) => return Err(e).with_context(|| format!("cannot read {}", path.display())),
        };
        anyhow::ensure!(
            bytes.len() == KEY_LEN,
            "the server key {} is damaged ({} bytes, expected {KEY_LEN}); restore it from a backup",
            path.display(),
            bytes.len()
        );
        Ok(Self::from_bytes(&bytes))
    }

    fn from_bytes(bytes: &[u8]) -> Self {
        Self {
            cipher: ChaCha20Poly1305::new_from_slice(bytes).expect("32-byte key"),
        }
    }

    /// A key for tests, not backed by a file.
    pub fn ephemeral() -> Self {
        let mut bytes = [0u8; KEY_LEN];
        getrandom::fill(&mut bytes).expect("system randomness");
        Self::from_bytes(&bytes)
    }

    pub fn seal(&self, context: &str, plain: &[u8]) -> String {
        let mut nonce_bytes = [0u8; NONCE_LEN];
        getrandom::fill(&mut nonce_bytes).expect("system randomness");
        let nonce = Nonce::try_from(&nonce_bytes[..]).expect("12-byte nonce");
        let sealed = self
            .cipher
            .encrypt(
                &nonce,
                Payload {
                    msg: plain,
                    aad: context.as_bytes(),
                },
            )
            .expect("encryption of an in-memory buffer");
        let mut out = nonce_bytes.to_vec();
        out.extend_from_slice(&sealed);
        B64.encode(out)
    }

    pub fn open(&self, context: &str, sealed: &str) -> anyhow::Result<Vec<u8>> {
        let raw = B64.decode(sealed).context("sealed value is not base64")?;
        anyhow::ensure!(raw.len() > NONCE_LEN, "sealed value is too short");
        let (nonce, body) = raw.split_at(NONCE_LEN);
        let nonce = Nonce::try_from(nonce).expect("12-byte nonce");
        self.cipher
            .decrypt(
                &nonce,
                Payload {
                    msg: body,
                    aad: context.as_bytes(),
                },
            )
            .map_err(|_| anyhow::anyhow!("sealed value does not open with this server key"))
    }
}

fn create_key_file(path: &PathBuf) -> anyhow::Result<Vec<u8>> {
    use std::io::Write;
    let mut bytes = vec![0u8; KEY_LEN];
    getrandom::fill(&mut bytes).map_err(|e| anyhow::anyhow!("no system randomness: {e}"))?;
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.mode(0o600);
    }
    let mut file = options
        .open(path)
        .with_context(|| format!("cannot create the server key {}", path.display()))?;
    file.write_all(&bytes)?;
    file.sync_all()?;
    tracing::info!(path = %path.display(), "created the server key");
    Ok(bytes)
}

/// A secret in transit: a password, a master password, a key, a client secret. Its `Debug` is
/// `<redacted>`, so a request or config struct deriving `Debug` cannot put it into a log line
/// or a panic message; serde reads and writes it as the plain string.
#[derive(Clone, Default, PartialEq, Eq, serde::Deserialize, serde::Serialize)]
#[serde(transparent)]
pub struct Secret(String);

impl Secret {
    /// The secret itself, for the one place that uses it.
    pub fn expose(&self) -> &str {
        &self.0
    }

    pub fn into_inner(self) -> String {
        self.0
    }
}

impl std::ops::Deref for Secret {
    type Target = str;
    fn deref(&self) -> &str {
        &self.0
    }
}

impl From<String> for Secret {
    fn from(s: String) -> Self {
        Self(s)
    }
}

/// For command-line arguments (`mailclient user add --password`).
impl std::str::FromStr for Secret {
    type Err = std::convert::Infallible;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Ok(Self(s.to_string()))
    }
}

impl From<&str> for Secret {
    fn from(s: &str) -> Self {
        Self(s.to_string())
    }
}

impl std::fmt::Debug for Secret {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("<redacted>")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seal_and_open_round_trip_with_context() {
        let key = ServerKey::ephemeral();
        let sealed = key.seal("account:1", b"hunter2");
        assert!(!sealed.contains("hunter2"));
        assert_eq!(key.open("account:1", &sealed).unwrap(), b"hunter2");
        assert!(key.open("account:2", &sealed).is_err(), "context is bound");
        assert!(ServerKey::ephemeral().open("account:1", &sealed).is_err());
    }

    #[test]
    fn key_file_is_created_once_with_owner_only_mode() {
        let dir = tempfile::tempdir().unwrap();
        let a = ServerKey::load_or_create(dir.path()).unwrap();
        let b = ServerKey::load_or_create(dir.path()).unwrap();
        let sealed = a.seal("x", b"secret");
        assert_eq!(b.open("x", &sealed).unwrap(), b"secret");
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(dir.path().join(KEY_FILE))
                .unwrap()
                .permissions()
                .mode();
            assert_eq!(mode & 0o777, 0o600);
        }
    }

    #[test]
    fn damaged_key_file_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join(KEY_FILE), b"short").unwrap();
        let err = ServerKey::load_or_create(dir.path())
            .unwrap_err()
            .to_string();
        assert!(err.contains("damaged"), "{err}");
    }

    #[test]
    fn no_request_or_config_prints_its_secret_in_debug() {
        const SECRET: &str = "hunter2-secret-marker";
        let debugs = [
            format!("{:?}", Secret::from(SECRET)),
            format!(
                "{:?}",
                serde_json::from_value::<crate::accounts::routes::ConnectRequest>(
                    serde_json::json!({"email": "a@b.test", "password": SECRET})
                )
                .unwrap()
            ),
            format!(
                "{:?}",
                serde_json::from_value::<crate::household::routes::GlobalEmailRequest>(
                    serde_json::json!({"email": "a@b.test", "password": SECRET,
                                       "claudeApiKey": SECRET})
                )
                .unwrap()
            ),
            format!(
                "{:?}",
                serde_json::from_value::<crate::backup::routes::BackupRequest>(
                    serde_json::json!({"masterPassword": SECRET})
                )
                .unwrap()
            ),
            format!(
                "{:?}",
                serde_json::from_value::<crate::backup::routes::BackupFileRequest>(
                    serde_json::json!({"masterPassword": SECRET, "file": "AA=="})
                )
                .unwrap()
            ),
            format!(
                "{:?}",
                serde_json::from_value::<crate::oauth::google::GoogleFinishRequest>(
                    serde_json::json!({"flowId": "f", "redirectedUrl":
                        format!("http://127.0.0.1/?code={SECRET}&state=s")})
                )
                .unwrap()
            ),
            format!(
                "{:?}",
                crate::config::Config::from_sources(
                    Some(&format!(
                        "[oauth.google]\nclient_id = \"c\"\nclient_secret = \"{SECRET}\"\n\
                         [oauth.microsoft]\nclient_id = \"m\"\nclient_secret = \"{SECRET}\"\n"
                    )),
                    None,
                    &[],
                    &Default::default(),
                )
                .unwrap()
            ),
        ];
        for d in &debugs {
            assert!(!d.contains(SECRET), "{d}");
        }
        // The secret is still there for the code that uses it.
        assert_eq!(Secret::from(SECRET).expose(), SECRET);
    }
}
