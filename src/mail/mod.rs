//! Talking to mail servers and understanding mail: TLS policy, IMAP and SMTP connections,
//! the provider table, parsing, previews, HTML sanitizing and thread keys. Stateless: the sync
//! engine (`crate::sync`) and the account routes (`crate::accounts`) use these.

pub mod folder_path;
pub mod gmail_labels;
#[cfg(test)]
mod hostile_tests;
pub mod hosts;
pub mod html_depth;
pub mod imap;
pub mod imap_cap;
pub mod imap_ops;
pub mod imap_quoted;
pub mod imap_stream;
pub mod mutf7;
pub mod net;
pub mod parse;
pub mod preview;
pub mod providers;
pub mod quote;
pub mod sanitize;
pub mod servers;
pub mod smtp;
#[cfg(test)]
mod smtp_tls_tests;
pub mod threading;
pub mod tls;

/// How a mailbox signs in: its password (IMAP LOGIN, SMTP AUTH PLAIN/LOGIN), or an OAuth2
/// access token (IMAP `AUTHENTICATE XOAUTH2`, SMTP `AUTH XOAUTH2`). `Debug` shows neither.
#[derive(Clone)]
pub enum Credential {
    Password(String),
    XOAuth2(String),
}

impl std::fmt::Debug for Credential {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Self::Password(_) => "Password(<redacted>)",
            Self::XOAuth2(_) => "XOAuth2(<redacted>)",
        })
    }
}

impl Credential {
    /// The SASL XOAUTH2 initial response (before base64): `user=…^Aauth=Bearer …^A^A`.
    pub fn xoauth2_response(user: &str, token: &str) -> String {
        format!("user={user}\x01auth=Bearer {token}\x01\x01")
    }
}
