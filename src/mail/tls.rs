//! TLS for IMAP and SMTP. Certificates are verified against the bundled web PKI roots plus the
//! CA files named in `[mail] extra_ca_files`; a server whose certificate still does not verify
//! can be accepted only by its SHA-256 fingerprint, pinned per account after the user saw it.
//! Nothing here ever turns verification off: a pinned fingerprint replaces the chain check for
//! exactly that certificate, and the handshake signatures are still checked.

use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use anyhow::Context;
use sha2::{Digest, Sha256};
use tokio_rustls::rustls::client::WebPkiServerVerifier;
use tokio_rustls::rustls::client::danger::{
    HandshakeSignatureValid, ServerCertVerified, ServerCertVerifier,
};
use tokio_rustls::rustls::crypto::{CryptoProvider, ring};
use tokio_rustls::rustls::pki_types::pem::PemObject;
use tokio_rustls::rustls::pki_types::{CertificateDer, ServerName, UnixTime};
use tokio_rustls::rustls::{
    self, ClientConfig, DigitallySignedStruct, RootCertStore, SignatureScheme,
};

/// Trust anchors shared by every connection: built once at start-up.
#[derive(Clone)]
pub struct TlsContext {
    roots: Arc<RootCertStore>,
    provider: Arc<CryptoProvider>,
}

impl std::fmt::Debug for TlsContext {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "TlsContext({} roots)", self.roots.len())
    }
}

impl TlsContext {
    /// The web PKI roots plus every certificate in `extra_ca_files` (PEM).
    pub fn new(extra_ca_files: &[PathBuf]) -> anyhow::Result<Self> {
        let mut roots = RootCertStore {
            roots: webpki_roots::TLS_SERVER_ROOTS.to_vec(),
        };
        for path in extra_ca_files {
            let mut added = 0;
            for cert in CertificateDer::pem_file_iter(path)
                .with_context(|| format!("cannot read CA file {}", path.display()))?
            {
                let cert = cert.with_context(|| format!("bad PEM in {}", path.display()))?;
                roots
                    .add(cert)
                    .with_context(|| format!("bad CA certificate in {}", path.display()))?;
                added += 1;
            }
            anyhow::ensure!(added > 0, "no certificate found in {}", path.display());
        }
        Ok(Self {
            roots: Arc::new(roots),
            provider: provider(),
        })
    }

    /// A client config for one connection. `pinned` is the account's accepted fingerprint;
    /// `seen` receives the fingerprint of the certificate the server presented, so a failed
    /// handshake can show it to the user.
    pub fn client_config(
        &self,
        pinned: Option<&str>,
        seen: Arc<Mutex<Option<String>>>,
    ) -> anyhow::Result<Arc<ClientConfig>> {
        let inner =
            WebPkiServerVerifier::builder_with_provider(self.roots.clone(), self.provider.clone())
                .build()?;
        let verifier = PinningVerifier {
            inner,
            pinned: pinned.map(normalize_fingerprint),
            seen,
        };
        let config = ClientConfig::builder_with_provider(self.provider.clone())
            .with_safe_default_protocol_versions()?
            .dangerous()
            .with_custom_certificate_verifier(Arc::new(verifier))
            .with_no_client_auth();
        Ok(Arc::new(config))
    }
}

/// The crypto provider of every TLS connection, in and out: ring. One provider for the whole
/// binary (aws-lc-rs, reqwest's default, would add a C library of about 2 MB beside it).
pub fn provider() -> Arc<CryptoProvider> {
    Arc::new(ring::default_provider())
}

/// The TLS of the HTTPS clients (AI providers, OAuth, the page-builder): certificates verified
/// against the system's trust store, as reqwest's own default does, on [`provider`].
pub fn system_https() -> anyhow::Result<ClientConfig> {
    let provider = provider();
    let verifier = rustls_platform_verifier::Verifier::new(provider.clone())?;
    Ok(ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()?
        .dangerous()
        .with_custom_certificate_verifier(Arc::new(verifier))
        .with_no_client_auth())
}

/// `AB:CD:...` upper-case hex of the certificate's SHA-256, as browsers show it.
pub fn fingerprint(cert: &[u8]) -> String {
    let digest = Sha256::digest(cert);
    digest
        .iter()
        .map(|b| format!("{b:02X}"))
        .collect::<Vec<_>>()
        .join(":")
}

/// Accepts fingerprints typed or pasted in any common form (colons, spaces, lower case).
pub fn normalize_fingerprint(s: &str) -> String {
    let hex: String = s
        .chars()
        .filter(|c| c.is_ascii_hexdigit())
        .map(|c| c.to_ascii_uppercase())
        .collect();
    hex.as_bytes()
        .chunks(2)
        .map(|c| std::str::from_utf8(c).unwrap_or_default().to_string())
        .collect::<Vec<_>>()
        .join(":")
}

#[derive(Debug)]
struct PinningVerifier {
    inner: Arc<WebPkiServerVerifier>,
    pinned: Option<String>,
    seen: Arc<Mutex<Option<String>>>,
}

impl ServerCertVerifier for PinningVerifier {
    fn verify_server_cert(
        &self,
        end_entity: &CertificateDer<'_>,
        intermediates: &[CertificateDer<'_>],
        server_name: &ServerName<'_>,
        ocsp_response: &[u8],
        now: UnixTime,
    ) -> Result<ServerCertVerified, rustls::Error> {
        let print = fingerprint(end_entity.as_ref());
        *self.seen.lock().expect("fingerprint slot") = Some(print.clone());
        match self.inner.verify_server_cert(
            end_entity,
            intermediates,
            server_name,
            ocsp_response,
            now,
        ) {
            Ok(ok) => Ok(ok),
            Err(e) if self.pinned.as_deref() == Some(print.as_str()) => {
                tracing::debug!(error = %e, "certificate accepted by its pinned fingerprint");
                Ok(ServerCertVerified::assertion())
            }
            Err(e) => Err(e),
        }
    }

    fn verify_tls12_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        self.inner.verify_tls12_signature(message, cert, dss)
    }

    fn verify_tls13_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        self.inner.verify_tls13_signature(message, cert, dss)
    }

    fn supported_verify_schemes(&self) -> Vec<SignatureScheme> {
        self.inner.supported_verify_schemes()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fingerprints_normalize() {
        assert_eq!(normalize_fingerprint("ab cd:ef"), "AB:CD:EF");
        assert_eq!(fingerprint(b"").len(), 32 * 3 - 1);
    }

    #[test]
    fn missing_ca_file_is_a_clear_error() {
        let err = TlsContext::new(&[PathBuf::from("/nonexistent/ca.pem")])
            .unwrap_err()
            .to_string();
        assert!(err.contains("/nonexistent/ca.pem"), "{err}");
    }
}
