//! `[oauth]`: OAuth2 sign-in (XOAUTH2) to Gmail and Microsoft mailboxes: each provider is on
//! when its section is present (`[oauth.google]`, `[oauth.microsoft]`). The endpoint URLs
//! default to the providers' own; they are settable so tests (and an admin's proxy) can point
//! elsewhere.

use serde::{Deserialize, Serialize};

use crate::crypto::Secret;

use super::check::{Check, Checked, base_url_ok};
use crate::mail::servers::MailServers;

#[derive(Debug, Clone, Deserialize, Serialize, PartialEq)]
#[serde(deny_unknown_fields, default)]
pub struct OAuthConfig {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub google: Option<GoogleOAuthConfig>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub microsoft: Option<MicrosoftOAuthConfig>,
    /// Seconds to wait for one answer of a provider's token endpoint (1 to 60).
    pub timeout_secs: u64,
}

/// `[oauth.google]`: an OAuth client of Google Cloud (a desktop-type client for the pasted
/// loopback redirect; a web client whose redirect URI is
/// `{public_url}/api/oauth/google/callback` when `[server] public_url` is HTTPS).
#[derive(Debug, Clone, Deserialize, Serialize, PartialEq)]
#[serde(deny_unknown_fields, default)]
pub struct GoogleOAuthConfig {
    pub client_id: String,
    pub client_secret: Secret,
    pub auth_url: String,
    pub token_url: String,
    pub revoke_url: String,
    /// The mail servers a Google account connects to (Gmail's).
    pub imap_server: String,
    pub imap_port: u16,
    pub imap_ssl: bool,
    pub smtp_server: String,
    pub smtp_port: u16,
    pub smtp_ssl: bool,
}

impl Default for GoogleOAuthConfig {
    fn default() -> Self {
        Self {
            client_id: String::new(),
            client_secret: Secret::default(),
            auth_url: "https://accounts.google.com/o/oauth2/v2/auth".into(),
            token_url: "https://oauth2.googleapis.com/token".into(),
            revoke_url: "https://oauth2.googleapis.com/revoke".into(),
            imap_server: "imap.gmail.com".into(),
            imap_port: 993,
            imap_ssl: true,
            smtp_server: "smtp.gmail.com".into(),
            smtp_port: 465,
            smtp_ssl: true,
        }
    }
}

/// `[oauth.microsoft]`: an app registration of Microsoft Entra (a public client with the
/// device code flow allowed).
#[derive(Debug, Clone, Deserialize, Serialize, PartialEq)]
#[serde(deny_unknown_fields, default)]
pub struct MicrosoftOAuthConfig {
    pub client_id: String,
    /// Only for a confidential client; a public client has none.
    pub client_secret: Secret,
    /// `common` (work and personal accounts), `consumers`, `organizations` or a tenant id.
    pub tenant: String,
    /// Empty: `https://login.microsoftonline.com/{tenant}/oauth2/v2.0/devicecode`.
    pub device_url: String,
    /// Empty: `https://login.microsoftonline.com/{tenant}/oauth2/v2.0/token`.
    pub token_url: String,
    pub imap_server: String,
    pub imap_port: u16,
    pub imap_ssl: bool,
    pub smtp_server: String,
    pub smtp_port: u16,
    pub smtp_ssl: bool,
}

impl Default for MicrosoftOAuthConfig {
    fn default() -> Self {
        Self {
            client_id: String::new(),
            client_secret: Secret::default(),
            tenant: "common".into(),
            device_url: String::new(),
            token_url: String::new(),
            imap_server: "outlook.office365.com".into(),
            imap_port: 993,
            imap_ssl: true,
            smtp_server: "smtp.office365.com".into(),
            smtp_port: 587,
            smtp_ssl: false,
        }
    }
}

impl GoogleOAuthConfig {
    /// The mail servers a Google account is saved with.
    pub fn servers(&self) -> MailServers {
        servers(
            (&self.imap_server, self.imap_port, self.imap_ssl),
            (&self.smtp_server, self.smtp_port, self.smtp_ssl),
        )
    }
}

impl MicrosoftOAuthConfig {
    /// The mail servers a Microsoft account is saved with.
    pub fn servers(&self) -> MailServers {
        servers(
            (&self.imap_server, self.imap_port, self.imap_ssl),
            (&self.smtp_server, self.smtp_port, self.smtp_ssl),
        )
    }

    fn tenant_url(&self, what: &str) -> String {
        format!(
            "https://login.microsoftonline.com/{}/oauth2/v2.0/{what}",
            self.tenant
        )
    }

    /// Where the device code flow starts (`device_url`, or the tenant's).
    pub fn device_endpoint(&self) -> String {
        if self.device_url.is_empty() {
            self.tenant_url("devicecode")
        } else {
            self.device_url.clone()
        }
    }

    /// Where tokens are fetched and refreshed (`token_url`, or the tenant's).
    pub fn token_endpoint(&self) -> String {
        if self.token_url.is_empty() {
            self.tenant_url("token")
        } else {
            self.token_url.clone()
        }
    }
}

/// A section's server keys as [`MailServers`]. They stay flat keys of each provider's section
/// with the provider's own defaults (a flattened struct would take neither the section's
/// defaults nor its key-naming errors).
fn servers(imap: (&str, u16, bool), smtp: (&str, u16, bool)) -> MailServers {
    MailServers {
        imap_server: imap.0.to_string(),
        imap_port: imap.1,
        imap_ssl: imap.2,
        smtp_server: smtp.0.to_string(),
        smtp_port: smtp.1,
        smtp_ssl: smtp.2,
    }
}

impl Default for OAuthConfig {
    fn default() -> Self {
        Self {
            google: None,
            microsoft: None,
            timeout_secs: 15,
        }
    }
}

/// Sections whose keys are themselves sections: `MAILCLIENT_OAUTH_GOOGLE_CLIENT_ID` is
/// `[oauth.google] client_id`.
pub(super) const NESTED_SECTIONS: &[(&str, &[&str])] = &[("oauth", &["google", "microsoft"])];

impl OAuthConfig {
    /// The wait, then each provider present: its secret, tenant and mail servers, then the
    /// client ids, then the endpoint URLs.
    pub fn check(&self, c: &Check) -> Checked {
        c.within("timeout_secs", self.timeout_secs, 1..=60, " seconds")?;
        let (google, microsoft) = (c.nested("google"), c.nested("microsoft"));
        // (checker, key, value) of the client ids and URLs, checked after the rest.
        let mut urls: Vec<(&Check, &str, &str)> = Vec::new();
        let mut ids: Vec<(&Check, &str)> = Vec::new();
        if let Some(g) = &self.google {
            ids.push((&google, &g.client_id));
            urls.extend([
                (&google, "auth_url", g.auth_url.as_str()),
                (&google, "token_url", g.token_url.as_str()),
                (&google, "revoke_url", g.revoke_url.as_str()),
            ]);
            google.ensure(
                !g.client_secret.trim().is_empty(),
                "client_secret",
                &"",
                "Google's clients need their secret (Google Cloud, Credentials)",
            )?;
            google.host("imap_server", &g.imap_server)?;
            google.host("smtp_server", &g.smtp_server)?;
        }
        if let Some(m) = &self.microsoft {
            ids.push((&microsoft, &m.client_id));
            let tenant_ok = !m.tenant.is_empty()
                && m.tenant.len() <= 100
                && m.tenant
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_'));
            microsoft.ensure(
                tenant_ok,
                "tenant",
                &m.tenant,
                "expected common, consumers, organizations or a tenant id",
            )?;
            for (key, url) in [("device_url", &m.device_url), ("token_url", &m.token_url)] {
                if !url.is_empty() {
                    urls.push((&microsoft, key, url));
                }
            }
            microsoft.host("imap_server", &m.imap_server)?;
            microsoft.host("smtp_server", &m.smtp_server)?;
        }
        for (section, id) in ids {
            section.ensure(
                !id.trim().is_empty() && id.len() <= 500,
                "client_id",
                &id,
                "expected the client id of the app registration",
            )?;
        }
        for (section, key, url) in urls {
            section.ensure(
                base_url_ok(url),
                key,
                &url,
                "expected a URL starting with http:// or https://",
            )?;
        }
        Ok(())
    }
}
