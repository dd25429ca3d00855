//! A backup sealed with the user's master password: a key from the password (argon2id with a
//! random salt, its parameters written in the blob so they can change later), then
//! ChaCha20-Poly1305 over the contents, the header as associated data (parameters or salt
//! changed by hand make it fail to open, not weaken it). The server keeps only the blob and
//! cannot open it without the password.
//!
//! Layout: `MCBK` | version (1) | memory KiB, passes, lanes (u32 LE each) | salt (16) | nonce (12)
//! | ciphertext with its tag.

use argon2::{Algorithm, Argon2, Params, Version};
use chacha20poly1305::aead::{Aead, KeyInit, Payload};
use chacha20poly1305::{ChaCha20Poly1305, Nonce};

const MAGIC: &[u8; 4] = b"MCBK";
const VERSION: u8 = 1;
const SALT_LEN: usize = 16;
const NONCE_LEN: usize = 12;
const HEADER_LEN: usize = 4 + 1 + 12 + SALT_LEN + NONCE_LEN;

/// argon2id as OWASP suggests for interactive use: 19 MiB, 2 passes, 1 lane.
const MEMORY_KIB: u32 = 19 * 1024;
const PASSES: u32 = 2;
const LANES: u32 = 1;
/// What a blob may ask for when opened: what this build writes, with a margin for a later
/// build that raises them a little. Anything above is refused before any work: a 61-byte file
/// must not buy 256 MiB and seconds of a core (the hash runs in the bounded pool of logins too,
/// `auth::password::bounded`, so a few at once cannot pass the unit's memory cap).
const MAX_MEMORY_KIB: u32 = 64 * 1024;
const MAX_PASSES: u32 = 4;
const MAX_LANES: u32 = 4;

#[derive(Debug, PartialEq)]
pub enum OpenError {
    /// Not a backup of this program (or cut short).
    NotABackup,
    /// A newer format than this binary reads.
    UnknownVersion,
    /// The password does not open it (or the blob was changed).
    WrongPassword,
    /// It asks for more memory or passes than this build ever writes.
    TooCostly,
}

fn key(password: &str, salt: &[u8], m: u32, t: u32, p: u32) -> Result<[u8; 32], OpenError> {
    let params = Params::new(m, t, p, Some(32)).map_err(|_| OpenError::NotABackup)?;
    let mut out = [0u8; 32];
    Argon2::new(Algorithm::Argon2id, Version::V0x13, params)
        .hash_password_into(password.as_bytes(), salt, &mut out)
        .map_err(|_| OpenError::NotABackup)?;
    Ok(out)
}

pub fn seal(password: &str, plain: &[u8]) -> Vec<u8> {
    let mut salt = [0u8; SALT_LEN];
    let mut nonce = [0u8; NONCE_LEN];
    getrandom::fill(&mut salt).expect("system randomness");
    getrandom::fill(&mut nonce).expect("system randomness");
    let mut out = Vec::with_capacity(HEADER_LEN + plain.len() + 16);
    out.extend_from_slice(MAGIC);
    out.push(VERSION);
    for n in [MEMORY_KIB, PASSES, LANES] {
        out.extend_from_slice(&n.to_le_bytes());
    }
    out.extend_from_slice(&salt);
    out.extend_from_slice(&nonce);
    let k = key(password, &salt, MEMORY_KIB, PASSES, LANES).expect("valid parameters");
    let cipher = ChaCha20Poly1305::new_from_slice(&k).expect("32-byte key");
    let sealed = cipher
        .encrypt(
            &Nonce::try_from(&nonce[..]).expect("12-byte nonce"),
            Payload {
                msg: plain,
                aad: &out[..HEADER_LEN],
            },
        )
        .expect("encryption of an in-memory buffer");
    out.extend_from_slice(&sealed);
    out
}

/// The key derivation's parameters a blob asks for: memory in KiB, passes, lanes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Cost {
    pub memory_kib: u32,
    pub passes: u32,
    pub lanes: u32,
}

impl Cost {
    /// Whether this build does that much work for a blob (what it writes, with a margin).
    pub fn acceptable(self) -> bool {
        self.memory_kib <= MAX_MEMORY_KIB && self.passes <= MAX_PASSES && self.lanes <= MAX_LANES
    }
}

/// The checks before any work: the magic, the version, and parameters this build accepts.
pub fn header(blob: &[u8]) -> Result<Cost, OpenError> {
    if blob.len() < HEADER_LEN + 16 || &blob[..4] != MAGIC {
        return Err(OpenError::NotABackup);
    }
    if blob[4] != VERSION {
        return Err(OpenError::UnknownVersion);
    }
    let u32_at = |i: usize| u32::from_le_bytes(blob[i..i + 4].try_into().expect("4 bytes"));
    let cost = Cost {
        memory_kib: u32_at(5),
        passes: u32_at(9),
        lanes: u32_at(13),
    };
    if !cost.acceptable() {
        return Err(OpenError::TooCostly);
    }
    Ok(cost)
}

pub fn open(password: &str, blob: &[u8]) -> Result<Vec<u8>, OpenError> {
    let Cost {
        memory_kib: m,
        passes: t,
        lanes: p,
    } = header(blob)?;
    let salt = &blob[17..17 + SALT_LEN];
    let nonce = &blob[17 + SALT_LEN..HEADER_LEN];
    let k = key(password, salt, m, t, p)?;
    let cipher = ChaCha20Poly1305::new_from_slice(&k).expect("32-byte key");
    cipher
        .decrypt(
            &Nonce::try_from(nonce).expect("12-byte nonce"),
            Payload {
                msg: &blob[HEADER_LEN..],
                aad: &blob[..HEADER_LEN],
            },
        )
        .map_err(|_| OpenError::WrongPassword)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn opens_with_the_password_only() {
        let blob = seal("סיסמת-אב-1", b"{\"secret\":\"pass1\"}");
        assert_eq!(
            open("סיסמת-אב-1", &blob).unwrap(),
            b"{\"secret\":\"pass1\"}"
        );
        assert_eq!(open("סיסמת-אב-2", &blob), Err(OpenError::WrongPassword));
        assert!(
            !blob.windows(5).any(|w| w == b"pass1"),
            "no plain text in the blob"
        );
        // Two seals of the same content differ (salt and nonce are random).
        assert_ne!(seal("x", b"same"), seal("x", b"same"));
    }

    #[test]
    fn tampering_and_garbage_are_refused() {
        let mut blob = seal("master-password", b"data");
        assert_eq!(open("master-password", b"MCBK"), Err(OpenError::NotABackup));
        assert_eq!(
            open("master-password", b"not a backup at all, clearly not"),
            Err(OpenError::NotABackup)
        );
        // Weaker parameters written over the header: the header is authenticated.
        blob[9] = 1;
        assert_eq!(
            open("master-password", &blob),
            Err(OpenError::WrongPassword)
        );
        let mut newer = seal("master-password", b"data");
        newer[4] = 9;
        assert_eq!(
            open("master-password", &newer),
            Err(OpenError::UnknownVersion)
        );
        // A hostile file asking for 4 GiB of memory is refused before any work.
        let mut greedy = seal("master-password", b"data");
        greedy[5..9].copy_from_slice(&(4 * 1024 * 1024u32).to_le_bytes());
        assert_eq!(open("master-password", &greedy), Err(OpenError::TooCostly));
    }

    /// The smallest file the reader looks at: the header and an empty ciphertext's tag.
    fn crafted(m: u32, t: u32, p: u32) -> Vec<u8> {
        let mut blob = Vec::from(&MAGIC[..]);
        blob.push(VERSION);
        for n in [m, t, p] {
            blob.extend_from_slice(&n.to_le_bytes());
        }
        blob.resize(HEADER_LEN + 16, 7);
        blob
    }

    #[test]
    fn a_61_byte_file_with_huge_parameters_is_refused_before_any_work() {
        // What the old bounds let through: 256 MiB and 10 passes, 2.6 s of a core each.
        for (m, t, p) in [
            (256 * 1024, 10, 1),
            (MAX_MEMORY_KIB + 1, PASSES, LANES),
            (MEMORY_KIB, MAX_PASSES + 1, LANES),
            (MEMORY_KIB, PASSES, MAX_LANES + 1),
        ] {
            let blob = crafted(m, t, p);
            assert_eq!(blob.len(), 61);
            let started = std::time::Instant::now();
            assert_eq!(open("master-password", &blob), Err(OpenError::TooCostly));
            // No key derived: far below one hash (generous for a loaded machine).
            assert!(started.elapsed() < std::time::Duration::from_millis(200));
        }
        // What this build writes stays accepted (the file is just not a sealed one).
        assert_eq!(
            open("master-password", &crafted(MEMORY_KIB, PASSES, LANES)),
            Err(OpenError::WrongPassword)
        );
    }
}
