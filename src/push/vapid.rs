//! The server's VAPID identity (RFC 8292): one P-256 key pair, made on first start and kept in
//! the store sealed with the server key. Browsers subscribe with its public key (the
//! `applicationServerKey`), and each push request carries a short-lived token signed with it,
//! so a push service takes messages for a subscription only from this server.

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use redb::{ReadableDatabase, ReadableTable, TableDefinition, WriteTransaction};
use ring::signature::{ECDSA_P256_SHA256_FIXED_SIGNING, EcdsaKeyPair, KeyPair};

use crate::crypto::ServerKey;
use crate::store::Store;

/// "vapid" → the sealed PKCS#8 key pair.
const PUSH_SERVER: TableDefinition<&str, &str> = TableDefinition::new("push_server");
const VAPID: &str = "vapid";
const CONTEXT: &str = "push-vapid";
/// How long a token is good for (RFC 8292: at most 24 hours).
const TOKEN_SECS: i64 = 12 * 3600;

/// Schema 21: the server's push identity.
pub fn create_tables(txn: &WriteTransaction) -> Result<(), redb::Error> {
    txn.open_table(PUSH_SERVER)?;
    Ok(())
}

/// The server's signing key.
pub struct Vapid {
    pair: EcdsaKeyPair,
    /// The public key, base64url (the browsers' `applicationServerKey`, the token's `k`).
    public: String,
}

impl Vapid {
    /// The key pair kept in the store, made and kept on the first call.
    pub fn load_or_create(store: &Store, key: &ServerKey) -> anyhow::Result<Self> {
        let rng = ring::rand::SystemRandom::new();
        let txn = store.begin_write()?;
        let pkcs8 = {
            let mut t = txn.open_table(PUSH_SERVER)?;
            let kept = t.get(VAPID)?.map(|v| v.value().to_string());
            let opened = kept.and_then(|sealed| match key.open(CONTEXT, &sealed) {
                Ok(pkcs8) => Some(pkcs8),
                Err(e) => {
                    // The server key changed (a store copied without it): a new identity, and
                    // the devices subscribe again (their push services refuse the old ones).
                    tracing::warn!("push: the kept key does not open ({e}); making a new one");
                    None
                }
            });
            match opened {
                Some(pkcs8) => pkcs8,
                None => {
                    let made = EcdsaKeyPair::generate_pkcs8(&ECDSA_P256_SHA256_FIXED_SIGNING, &rng)
                        .map_err(|_| anyhow::anyhow!("cannot make the push key"))?;
                    t.insert(VAPID, key.seal(CONTEXT, made.as_ref()).as_str())?;
                    made.as_ref().to_vec()
                }
            }
        };
        txn.commit()?;
        Self::from_pkcs8(&pkcs8)
    }

    fn from_pkcs8(pkcs8: &[u8]) -> anyhow::Result<Self> {
        let rng = ring::rand::SystemRandom::new();
        let pair = EcdsaKeyPair::from_pkcs8(&ECDSA_P256_SHA256_FIXED_SIGNING, pkcs8, &rng)
            .map_err(|e| anyhow::anyhow!("the kept push key does not load: {e}"))?;
        let public = URL_SAFE_NO_PAD.encode(pair.public_key().as_ref());
        Ok(Self { pair, public })
    }

    /// The public key, base64url.
    pub fn public_key(&self) -> &str {
        &self.public
    }

    /// Whether the store already holds a key (read only: the settings page's check).
    pub fn kept(store: &Store) -> anyhow::Result<bool> {
        let txn = store.db().begin_read()?;
        Ok(txn.open_table(PUSH_SERVER)?.get(VAPID)?.is_some())
    }

    /// The `Authorization` header for a push service at `audience` (its origin:
    /// `https://host[:port]`), from `sub` (a mailto: or https: contact), good from `now`.
    pub fn authorization(&self, audience: &str, sub: &str, now: i64) -> anyhow::Result<String> {
        let header = URL_SAFE_NO_PAD.encode(br#"{"typ":"JWT","alg":"ES256"}"#);
        let claims = serde_json::json!({"aud": audience, "exp": now + TOKEN_SECS, "sub": sub});
        let claims = URL_SAFE_NO_PAD.encode(serde_json::to_vec(&claims)?);
        let signed = format!("{header}.{claims}");
        let rng = ring::rand::SystemRandom::new();
        let sig = self
            .pair
            .sign(&rng, signed.as_bytes())
            .map_err(|_| anyhow::anyhow!("cannot sign the push token"))?;
        Ok(format!(
            "vapid t={signed}.{}, k={}",
            URL_SAFE_NO_PAD.encode(sig.as_ref()),
            self.public
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ring::signature::{ECDSA_P256_SHA256_FIXED, UnparsedPublicKey};

    /// The key is made once and kept; the token is an ES256 JWT that verifies with the public
    /// key it names, for the audience and contact given, good for 12 hours.
    #[test]
    fn the_key_is_kept_and_the_token_verifies_with_it() {
        let (_dir, store, _user) = crate::schema::store_with_user();
        let key = ServerKey::ephemeral();
        let first = Vapid::load_or_create(&store, &key).unwrap();
        let again = Vapid::load_or_create(&store, &key).unwrap();
        assert_eq!(first.public_key(), again.public_key());
        assert!(Vapid::kept(&store).unwrap());
        let public = URL_SAFE_NO_PAD.decode(first.public_key()).unwrap();
        assert_eq!(public.len(), 65);

        let auth = first
            .authorization("https://push.example", "mailto:a@b.example", 1000)
            .unwrap();
        let rest = auth.strip_prefix("vapid t=").unwrap();
        let (token, k) = rest.split_once(", k=").unwrap();
        assert_eq!(k, first.public_key());
        let (signed, sig) = token.rsplit_once('.').unwrap();
        UnparsedPublicKey::new(&ECDSA_P256_SHA256_FIXED, &public)
            .verify(signed.as_bytes(), &URL_SAFE_NO_PAD.decode(sig).unwrap())
            .expect("the signature verifies");
        let claims: serde_json::Value = serde_json::from_slice(
            &URL_SAFE_NO_PAD
                .decode(signed.split_once('.').unwrap().1)
                .unwrap(),
        )
        .unwrap();
        assert_eq!(claims["aud"], "https://push.example");
        assert_eq!(claims["sub"], "mailto:a@b.example");
        assert_eq!(claims["exp"], 1000 + TOKEN_SECS);
        // Another server key cannot open it: a new identity (a copied store does not carry it).
        let other = Vapid::load_or_create(&store, &ServerKey::ephemeral()).unwrap();
        assert_ne!(other.public_key(), first.public_key());
    }
}
