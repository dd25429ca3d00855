//! Random tokens (session tokens, the first-run setup token) and their stored form.

use sha2::{Digest, Sha256};

/// 256 random bits, hex encoded.
pub fn random_token() -> String {
    random_hex(32)
}

/// `bytes` random bytes, hex encoded (tokens, MIME boundaries, Message-IDs).
pub fn random_hex(bytes: usize) -> String {
    let mut buf = vec![0u8; bytes];
    getrandom::fill(&mut buf).expect("the OS random source works");
    hex::encode(buf)
}

/// What the store keeps instead of the token itself: a stolen store file yields no usable
/// session.
pub fn token_digest(token: &str) -> [u8; 32] {
    Sha256::digest(token.as_bytes()).into()
}

/// Compares two secrets in constant time.
pub fn secrets_equal(a: &str, b: &str) -> bool {
    use subtle::ConstantTimeEq;
    a.len() == b.len() && bool::from(a.as_bytes().ct_eq(b.as_bytes()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_are_long_and_unique() {
        let a = random_token();
        assert_eq!(a.len(), 64);
        assert_ne!(a, random_token());
        assert_ne!(token_digest(&a), token_digest(&random_token()));
    }

    #[test]
    fn constant_time_compare() {
        assert!(secrets_equal("abc", "abc"));
        assert!(!secrets_equal("abc", "abd"));
        assert!(!secrets_equal("abc", "abcd"));
    }
}
