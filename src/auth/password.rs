//! Password hashing with argon2id (the crate's default parameters: 19 MiB, 2 passes).

use argon2::Argon2;
use argon2::password_hash::{PasswordHasher, PasswordVerifier};

use crate::messages;

pub const MIN_PASSWORD_CHARS: usize = 8;

/// argon2 takes about 19 MiB and a core per hash: no more hashes run at once than there are
/// cores, however many logins arrive together.
fn hashing() -> &'static tokio::sync::Semaphore {
    static PERMITS: std::sync::OnceLock<tokio::sync::Semaphore> = std::sync::OnceLock::new();
    PERMITS.get_or_init(|| {
        tokio::sync::Semaphore::new(std::thread::available_parallelism().map_or(2, |n| n.get()))
    })
}

/// Runs a password hash or check on the blocking pool, within the bound on concurrent hashes.
pub async fn bounded<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
    let _permit = hashing()
        .acquire()
        .await
        .expect("the semaphore is never closed");
    tokio::task::spawn_blocking(f)
        .await
        .expect("a password hash does not panic")
}
const MAX_PASSWORD_BYTES: usize = 1024;

pub fn hash(password: &str) -> anyhow::Result<String> {
    let hash = Argon2::default()
        .hash_password(password.as_bytes())
        .map_err(|e| anyhow::anyhow!("argon2: {e}"))?;
    Ok(hash.to_string())
}

/// True when `password` matches the PHC string `stored`. A malformed stored hash is a
/// mismatch, not an error a caller could tell apart.
pub fn verify(password: &str, stored: &str) -> bool {
    Argon2::default()
        .verify_password(password.as_bytes(), stored)
        .is_ok()
}

/// Validates a new password; the error is the Hebrew message for the user.
pub fn check_new(password: &str) -> Result<(), &'static str> {
    if password.chars().count() < MIN_PASSWORD_CHARS {
        return Err(messages::PASSWORD_TOO_SHORT);
    }
    if password.len() > MAX_PASSWORD_BYTES {
        return Err(messages::BODY_TOO_LARGE);
    }
    Ok(())
}

/// A hash of a random password, verified against when the username is unknown so that a
/// failed login takes as long whether or not the user exists.
pub fn dummy_hash() -> &'static str {
    static DUMMY: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    DUMMY.get_or_init(|| hash(&crate::auth::tokens::random_token()).expect("argon2 works"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hash_is_argon2id_and_verifies() {
        let h = hash("סיסמה-סודית-1").unwrap();
        assert!(h.starts_with("$argon2id$"), "{h}");
        assert!(verify("סיסמה-סודית-1", &h));
        assert!(!verify("סיסמה-סודית-2", &h));
        assert!(!verify("x", "not a hash"));
    }

    #[test]
    fn salts_differ() {
        assert_ne!(hash("same").unwrap(), hash("same").unwrap());
    }

    #[test]
    fn new_password_rules() {
        assert!(check_new("1234567").is_err());
        assert!(check_new("12345678").is_ok());
        // Counted in characters, not bytes: eight Hebrew letters are enough.
        assert!(check_new("אבגדהוזח").is_ok());
        assert!(check_new(&"x".repeat(2000)).is_err());
    }
}
