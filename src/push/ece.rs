//! The payload encryption of Web Push (RFC 8291, `aes128gcm` of RFC 8188), from ring's
//! primitives: an ephemeral P-256 key per message, ECDH with the device's key, HKDF-SHA-256
//! with the device's auth secret, AES-128-GCM over one record. Only the device can read it; the
//! browser vendor's push service carries ciphertext.
//!
//! Why not a Web Push crate: each of them brings its own crypto library (OpenSSL through `ece`,
//! or RustCrypto's curves, AES and a JWT stack) beside ring, which is already the one provider
//! of every TLS connection (issue 42). The composition is the RFC's few steps, and
//! [`seal_with`] is checked byte for byte against the RFC's worked example (Appendix A).

use ring::rand::SecureRandom;
use ring::{aead, agreement, hkdf};

/// An uncompressed P-256 point: a device's `p256dh` key and ours.
pub const PUBLIC_KEY_LEN: usize = 65;
/// A device's auth secret.
pub const AUTH_LEN: usize = 16;
/// The record size we declare: the whole message is one record.
const RECORD_SIZE: u32 = 4096;
/// The header: salt, record size, key id length, our public key.
const HEADER_LEN: usize = 16 + 4 + 1 + PUBLIC_KEY_LEN;
/// The longest plaintext: a push service need not take a body over 4096 bytes (RFC 8030 7.2),
/// and the header, the padding delimiter and the tag are in it.
pub const MAX_PLAINTEXT: usize = 4096 - HEADER_LEN - 1 - 16;

/// Why a message could not be sealed.
#[derive(Debug, PartialEq, Eq, thiserror::Error)]
pub enum SealError {
    #[error("the device's key is not a P-256 point")]
    BadKey,
    #[error("the device's auth secret is not 16 bytes")]
    BadAuth,
    #[error("the payload is longer than {MAX_PLAINTEXT} bytes")]
    TooLong,
    #[error("the system's random source failed")]
    Random,
}

/// Encrypts `plaintext` for the device whose subscription keys are `ua_public` and `auth`: the
/// body of the push request, with `Content-Encoding: aes128gcm`.
pub fn seal(ua_public: &[u8], auth: &[u8], plaintext: &[u8]) -> Result<Vec<u8>, SealError> {
    check(ua_public, auth, plaintext)?;
    let rng = ring::rand::SystemRandom::new();
    let ours = agreement::EphemeralPrivateKey::generate(&agreement::ECDH_P256, &rng)
        .map_err(|_| SealError::Random)?;
    let as_public = ours.compute_public_key().map_err(|_| SealError::Random)?;
    let mut salt = [0u8; 16];
    rng.fill(&mut salt).map_err(|_| SealError::Random)?;
    let peer = agreement::UnparsedPublicKey::new(&agreement::ECDH_P256, ua_public);
    let secret =
        agreement::agree_ephemeral(ours, &peer, |s| s.to_vec()).map_err(|_| SealError::BadKey)?;
    seal_with(
        &secret,
        ua_public,
        as_public.as_ref(),
        auth,
        &salt,
        plaintext,
    )
}

fn check(ua_public: &[u8], auth: &[u8], plaintext: &[u8]) -> Result<(), SealError> {
    if ua_public.len() != PUBLIC_KEY_LEN || ua_public[0] != 4 {
        return Err(SealError::BadKey);
    }
    if auth.len() != AUTH_LEN {
        return Err(SealError::BadAuth);
    }
    if plaintext.len() > MAX_PLAINTEXT {
        return Err(SealError::TooLong);
    }
    Ok(())
}

/// The RFC's steps after the key agreement (`ecdh_secret`), with the salt given: what the
/// RFC's example fixes, so this part is checked against it.
pub fn seal_with(
    ecdh_secret: &[u8],
    ua_public: &[u8],
    as_public: &[u8],
    auth: &[u8],
    salt: &[u8; 16],
    plaintext: &[u8],
) -> Result<Vec<u8>, SealError> {
    check(ua_public, auth, plaintext)?;
    // IKM = HKDF(auth, ecdh_secret, "WebPush: info" 0x00 ua_public as_public, 32)
    let mut info = Vec::with_capacity(14 + 2 * PUBLIC_KEY_LEN);
    info.extend_from_slice(b"WebPush: info\0");
    info.extend_from_slice(ua_public);
    info.extend_from_slice(as_public);
    let ikm: [u8; 32] = expand(auth, ecdh_secret, &info);
    // The content key and nonce, from the message's salt.
    let cek: [u8; 16] = expand(salt, &ikm, b"Content-Encoding: aes128gcm\0");
    let nonce: [u8; 12] = expand(salt, &ikm, b"Content-Encoding: nonce\0");
    let key = aead::LessSafeKey::new(
        aead::UnboundKey::new(&aead::AES_128_GCM, &cek).expect("a 16-byte key"),
    );
    // One record, the last: the plaintext and the delimiter 0x02, no padding.
    let mut record = Vec::with_capacity(plaintext.len() + 1 + 16);
    record.extend_from_slice(plaintext);
    record.push(2);
    key.seal_in_place_append_tag(
        aead::Nonce::assume_unique_for_key(nonce),
        aead::Aad::empty(),
        &mut record,
    )
    .expect("a record under the size limit");
    let mut body = Vec::with_capacity(HEADER_LEN + record.len());
    body.extend_from_slice(salt);
    body.extend_from_slice(&RECORD_SIZE.to_be_bytes());
    body.push(PUBLIC_KEY_LEN as u8);
    body.extend_from_slice(as_public);
    body.extend_from_slice(&record);
    Ok(body)
}

/// HKDF-SHA-256 extract with `salt` and expand to `N` bytes with `info`.
fn expand<const N: usize>(salt: &[u8], ikm: &[u8], info: &[u8]) -> [u8; N] {
    struct Len(usize);
    impl hkdf::KeyType for Len {
        fn len(&self) -> usize {
            self.0
        }
    }
    let prk = hkdf::Salt::new(hkdf::HKDF_SHA256, salt).extract(ikm);
    let mut out = [0u8; N];
    prk.expand(&[info], Len(N))
        .and_then(|okm| okm.fill(&mut out))
        .expect("N is within HKDF's bound");
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use base64::Engine;
    use base64::engine::general_purpose::URL_SAFE_NO_PAD;

    fn b64(s: &str) -> Vec<u8> {
        URL_SAFE_NO_PAD.decode(s).unwrap()
    }

    const UA_PUBLIC: &str =
        "BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4";
    const AS_PUBLIC: &str =
        "BP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK6PBru3jl7A8";
    const AUTH: &str = "BTBZMqHH6r4Tts7J_aSIgg";

    /// RFC 8291 Appendix A: from its ECDH secret and salt, the message is the RFC's, byte for
    /// byte.
    #[test]
    fn the_rfc_example_is_sealed_byte_for_byte() {
        let salt: [u8; 16] = b64("DGv6ra1nlYgDCS1FRnbzlw").try_into().unwrap();
        let body = seal_with(
            &b64("kyrL1jIIOHEzg3sM2ZWRHDRB62YACZhhSlknJ672kSs"),
            &b64(UA_PUBLIC),
            &b64(AS_PUBLIC),
            &b64(AUTH),
            &salt,
            b"When I grow up, I want to be a watermelon",
        )
        .unwrap();
        assert_eq!(
            URL_SAFE_NO_PAD.encode(body),
            "DGv6ra1nlYgDCS1FRnbzlwAAEABBBP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLocIn\
             mYWAmS6TlzAC8wEqKK6PBru3jl7A_yl95bQpu6cVPTpK4Mqgkf1CXztLVBSt2Ks3oZwbuwXPXLWyouBWLVWGN\
             WQexSgSxsj_Qulcy4a-fN"
        );
    }

    /// A fresh message has a fresh salt and key each time, the right header, and bad keys or
    /// a long payload are refused.
    #[test]
    fn each_message_has_its_own_key_and_bad_input_is_refused() {
        let (ua, auth) = (b64(UA_PUBLIC), b64(AUTH));
        let a = seal(&ua, &auth, b"x").unwrap();
        let b = seal(&ua, &auth, b"x").unwrap();
        assert_eq!(a.len(), HEADER_LEN + 1 + 1 + 16);
        assert_ne!(a[..16], b[..16], "a salt per message");
        assert_ne!(a[21..86], b[21..86], "a key per message");
        assert_eq!(a[16..21], [0, 0, 16, 0, 65]);
        assert_eq!(seal(&ua[1..], &auth, b"x"), Err(SealError::BadKey));
        assert_eq!(seal(&ua, &auth[1..], b"x"), Err(SealError::BadAuth));
        let long = vec![b'a'; MAX_PLAINTEXT + 1];
        assert_eq!(seal(&ua, &auth, &long), Err(SealError::TooLong));
        assert!(seal(&ua, &auth, &long[1..]).is_ok());
        // A point not on the curve.
        let mut off = ua.clone();
        off[40] ^= 1;
        assert_eq!(seal(&off, &auth, b"x"), Err(SealError::BadKey));
    }
}
