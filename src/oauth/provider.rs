//! The providers' OAuth2 endpoints (RFC 6749 token requests, RFC 8628 device authorization):
//! form-encoded POSTs answered with JSON, each bounded in time (`[oauth] timeout_secs`) and size
//! ([`MAX_ANSWER`]); no redirect is followed (a redirect would carry the secrets elsewhere).
//! Tokens never reach a log: errors keep only the provider's error code.

use std::time::Duration;

use serde_json::Value;

use crate::accounts::AuthKind;
use crate::config::{GoogleOAuthConfig, MicrosoftOAuthConfig, OAuthConfig};
use crate::messages;

/// The most of one answer read into memory (a token answer is a few KB).
pub const MAX_ANSWER: usize = 64 << 10;
/// The longest token kept (Microsoft's access tokens are 1-3 KB).
const MAX_TOKEN: usize = 16 << 10;

/// Gmail's scope: IMAP and SMTP.
pub const GOOGLE_SCOPE: &str = "https://mail.google.com/";
/// Outlook's IMAP and SMTP scopes, and a refresh token.
pub const MICROSOFT_SCOPE: &str = "offline_access https://outlook.office.com/IMAP.AccessAsUser.All https://outlook.office.com/SMTP.Send";

/// What a token endpoint gave.
pub struct TokenSet {
    pub access_token: String,
    pub expires_in: Duration,
    pub refresh_token: Option<String>,
}

impl std::fmt::Debug for TokenSet {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TokenSet")
            .field("expires_in", &self.expires_in)
            .field("refresh_token", &self.refresh_token.is_some())
            .finish_non_exhaustive()
    }
}

/// A device authorization (RFC 8628 §3.2).
#[derive(Debug)]
pub struct DeviceStart {
    pub device_code: String,
    pub user_code: String,
    pub verification_uri: String,
    pub expires_in: u64,
    pub interval: u64,
}

/// Why a token request gave no tokens.
#[derive(Debug, Clone, PartialEq)]
pub enum TokenFailure {
    /// Device flow: the user has not approved yet.
    Pending,
    /// Device flow: poll less often.
    SlowDown,
    /// Device flow: the code expired.
    Expired,
    /// The user refused.
    Denied,
    /// The refresh token (or code) is revoked, expired or unknown: sign in again.
    InvalidGrant,
    /// Another refusal, with the provider's error code.
    Refused(String),
    /// Not reachable, timed out, or an error status without a JSON error.
    Unreachable(String),
    /// An answer that is not the JSON it should be.
    Malformed,
}

impl TokenFailure {
    /// The Hebrew message for the user.
    pub fn message(&self, provider: AuthKind) -> String {
        let name = provider_name(provider);
        match self {
            Self::Pending | Self::SlowDown => String::new(),
            Self::Expired => messages::OAUTH_FLOW_EXPIRED.into(),
            Self::Denied => messages::OAUTH_ACCESS_DENIED.into(),
            Self::InvalidGrant => messages::OAUTH_SIGN_IN_NEEDED.into(),
            Self::Refused(code) => messages::oauth_refused(name, code),
            Self::Unreachable(_) => messages::oauth_unreachable(name),
            Self::Malformed => messages::OAUTH_MALFORMED.into(),
        }
    }
}

pub fn provider_name(kind: AuthKind) -> &'static str {
    match kind {
        AuthKind::Google => "Google",
        AuthKind::Microsoft => "Microsoft",
        AuthKind::Password => "",
    }
}

/// The HTTP client and the admin's provider settings.
pub struct Providers {
    http: reqwest::Client,
    pub config: OAuthConfig,
}

impl Providers {
    pub fn new(config: OAuthConfig) -> anyhow::Result<Self> {
        let timeout = Duration::from_secs(config.timeout_secs);
        let http = reqwest::Client::builder()
            .redirect(reqwest::redirect::Policy::none())
            .connect_timeout(timeout)
            .timeout(timeout)
            .user_agent(concat!("mailclient/", env!("CARGO_PKG_VERSION")))
            .tls_backend_preconfigured(crate::mail::tls::system_https()?)
            .build()?;
        Ok(Self { http, config })
    }

    pub fn google(&self) -> Option<&GoogleOAuthConfig> {
        self.config.google.as_ref()
    }

    pub fn microsoft(&self) -> Option<&MicrosoftOAuthConfig> {
        self.config.microsoft.as_ref()
    }

    pub fn configured(&self, kind: AuthKind) -> bool {
        match kind {
            AuthKind::Google => self.google().is_some(),
            AuthKind::Microsoft => self.microsoft().is_some(),
            AuthKind::Password => false,
        }
    }

    /// A POST of `form` to `url`, URL-encoded (the body every OAuth endpoint takes).
    fn form_request(&self, url: &str, form: &[(&str, &str)]) -> reqwest::RequestBuilder {
        let body = url::form_urlencoded::Serializer::new(String::new())
            .extend_pairs(form)
            .finish();
        self.http
            .post(url)
            .header(
                reqwest::header::CONTENT_TYPE,
                "application/x-www-form-urlencoded",
            )
            .body(body)
    }

    /// POSTs `form` to `url`; the JSON answer of a 2xx, else the failure its `error` names.
    async fn post(&self, url: &str, form: &[(&str, &str)]) -> Result<Value, TokenFailure> {
        let response = self
            .form_request(url, form)
            .header(reqwest::header::ACCEPT, "application/json")
            .send()
            .await
            .map_err(|e| TokenFailure::Unreachable(transport(&e)))?;
        let status = response.status();
        if response
            .content_length()
            .is_some_and(|n| n > MAX_ANSWER as u64)
        {
            return Err(TokenFailure::Malformed);
        }
        let mut response = response;
        let mut bytes = Vec::new();
        while let Some(chunk) = response
            .chunk()
            .await
            .map_err(|e| TokenFailure::Unreachable(transport(&e)))?
        {
            if bytes.len() + chunk.len() > MAX_ANSWER {
                return Err(TokenFailure::Malformed);
            }
            bytes.extend_from_slice(&chunk);
        }
        let answer = read_answer(status.as_u16(), &bytes);
        if let Err(failure) = &answer
            && !status.is_success()
        {
            tracing::info!(%url, status = status.as_u16(), ?failure, "OAuth token endpoint refused");
        }
        answer
    }

    /// The token answer of a 2xx: an access token, its lifetime, maybe a refresh token.
    pub fn tokens(body: &Value) -> Result<TokenSet, TokenFailure> {
        let text = |k: &str| {
            body.get(k)
                .and_then(Value::as_str)
                .filter(|t| !t.is_empty() && t.len() <= MAX_TOKEN && t.is_ascii())
                .map(str::to_string)
        };
        let access_token = text("access_token").ok_or(TokenFailure::Malformed)?;
        if access_token
            .bytes()
            .any(|b| b.is_ascii_control() || b == b' ')
        {
            return Err(TokenFailure::Malformed);
        }
        let expires_in = body
            .get("expires_in")
            .and_then(|v| v.as_u64().or_else(|| v.as_str()?.parse().ok()))
            .unwrap_or(3600)
            .clamp(1, 24 * 3600);
        Ok(TokenSet {
            access_token,
            expires_in: Duration::from_secs(expires_in),
            refresh_token: text("refresh_token"),
        })
    }

    /// A new access token for `refresh_token`.
    pub async fn refresh(
        &self,
        kind: AuthKind,
        refresh_token: &str,
    ) -> Result<TokenSet, TokenFailure> {
        let body = match kind {
            AuthKind::Google => {
                let g = self
                    .google()
                    .ok_or(TokenFailure::Refused("not_configured".into()))?;
                self.post(
                    &g.token_url,
                    &[
                        ("grant_type", "refresh_token"),
                        ("refresh_token", refresh_token),
                        ("client_id", &g.client_id),
                        ("client_secret", g.client_secret.expose()),
                    ],
                )
                .await?
            }
            AuthKind::Microsoft => {
                let m = self
                    .microsoft()
                    .ok_or(TokenFailure::Refused("not_configured".into()))?;
                let mut form = vec![
                    ("grant_type", "refresh_token"),
                    ("refresh_token", refresh_token),
                    ("client_id", m.client_id.as_str()),
                    ("scope", MICROSOFT_SCOPE),
                ];
                if !m.client_secret.is_empty() {
                    form.push(("client_secret", m.client_secret.expose()));
                }
                self.post(&m.token_endpoint(), &form).await?
            }
            AuthKind::Password => return Err(TokenFailure::Refused("not_oauth".into())),
        };
        Self::tokens(&body)
    }

    /// Google: the authorization code (with its PKCE verifier) for tokens.
    pub async fn google_code(
        &self,
        code: &str,
        verifier: &str,
        redirect_uri: &str,
    ) -> Result<TokenSet, TokenFailure> {
        let g = self
            .google()
            .ok_or(TokenFailure::Refused("not_configured".into()))?;
        let body = self
            .post(
                &g.token_url,
                &[
                    ("grant_type", "authorization_code"),
                    ("code", code),
                    ("code_verifier", verifier),
                    ("redirect_uri", redirect_uri),
                    ("client_id", &g.client_id),
                    ("client_secret", g.client_secret.expose()),
                ],
            )
            .await?;
        Self::tokens(&body)
    }

    /// Microsoft: starts a device authorization.
    pub async fn device_start(&self) -> Result<DeviceStart, TokenFailure> {
        let m = self
            .microsoft()
            .ok_or(TokenFailure::Refused("not_configured".into()))?;
        let body = self
            .post(
                &m.device_endpoint(),
                &[("client_id", &m.client_id), ("scope", MICROSOFT_SCOPE)],
            )
            .await?;
        Self::device_answer(&body)
    }

    /// The device authorization's answer: the codes, where to enter one, and the timings
    /// (clamped: at most half an hour, a poll every 1 to 60 seconds).
    pub fn device_answer(body: &Value) -> Result<DeviceStart, TokenFailure> {
        let text = |k: &str| {
            body.get(k)
                .and_then(Value::as_str)
                .filter(|t| !t.is_empty() && t.len() <= 4096)
                .map(str::to_string)
        };
        let number = |k: &str| body.get(k).and_then(Value::as_u64);
        let verification_uri = text("verification_uri")
            .or_else(|| text("verification_url"))
            .filter(|u| u.starts_with("https://") || u.starts_with("http://"))
            .ok_or(TokenFailure::Malformed)?;
        Ok(DeviceStart {
            device_code: text("device_code").ok_or(TokenFailure::Malformed)?,
            user_code: text("user_code")
                .filter(|c| c.len() <= 64)
                .ok_or(TokenFailure::Malformed)?,
            verification_uri,
            // At most half an hour; Microsoft gives 15 minutes.
            expires_in: number("expires_in").unwrap_or(900).clamp(1, 1800),
            interval: number("interval").unwrap_or(5).clamp(1, 60),
        })
    }

    /// Microsoft: one poll of a device authorization.
    pub async fn device_poll(&self, device_code: &str) -> Result<TokenSet, TokenFailure> {
        let m = self
            .microsoft()
            .ok_or(TokenFailure::Refused("not_configured".into()))?;
        let mut form = vec![
            ("grant_type", "urn:ietf:params:oauth:grant-type:device_code"),
            ("device_code", device_code),
            ("client_id", m.client_id.as_str()),
        ];
        if !m.client_secret.is_empty() {
            form.push(("client_secret", m.client_secret.expose()));
        }
        let body = self.post(&m.token_endpoint(), &form).await?;
        Self::tokens(&body)
    }

    /// Google: revokes a refresh token (best effort, when the user removes the account).
    pub async fn revoke(&self, kind: AuthKind, token: &str) {
        let (AuthKind::Google, Some(g)) = (kind, self.google()) else {
            return;
        };
        // RFC 7009: 200 whatever the token was; the answer has no body worth reading.
        match self
            .form_request(&g.revoke_url, &[("token", token)])
            .send()
            .await
        {
            Ok(r) if r.status().is_success() => tracing::info!("Google refresh token revoked"),
            Ok(r) => tracing::info!(
                status = r.status().as_u16(),
                "revoking the Google token failed"
            ),
            Err(e) => tracing::info!(error = %transport(&e), "revoking the Google token failed"),
        }
    }
}

/// A token endpoint's answer (`status`, at most `MAX_ANSWER` bytes of body): the JSON object
/// of a 2xx, else the failure its `error` names (RFC 6749 §5.2, RFC 8628 §3.5).
pub fn read_answer(status: u16, bytes: &[u8]) -> Result<Value, TokenFailure> {
    let body: Option<Value> = serde_json::from_slice(bytes).ok();
    if (200..300).contains(&status) {
        return body.filter(Value::is_object).ok_or(TokenFailure::Malformed);
    }
    let code = body
        .as_ref()
        .and_then(|b| b.get("error"))
        .and_then(Value::as_str)
        .map(|c| c.chars().take(64).collect::<String>());
    Err(match code.as_deref() {
        Some("authorization_pending") => TokenFailure::Pending,
        Some("slow_down") => TokenFailure::SlowDown,
        Some("expired_token") => TokenFailure::Expired,
        Some("access_denied" | "authorization_declined") => TokenFailure::Denied,
        Some("invalid_grant") => TokenFailure::InvalidGrant,
        Some(other) => TokenFailure::Refused(other.to_string()),
        None => TokenFailure::Unreachable(format!("HTTP {status}")),
    })
}

fn transport(e: &reqwest::Error) -> String {
    if e.is_timeout() {
        "timeout".into()
    } else if e.is_connect() {
        "connection failed".into()
    } else {
        "request failed".into()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn token_answers_are_checked() {
        let ok = Providers::tokens(&serde_json::json!({
            "access_token": "at", "expires_in": 10, "refresh_token": "rt"
        }))
        .unwrap();
        assert_eq!(ok.expires_in, Duration::from_secs(10));
        assert_eq!(ok.refresh_token.as_deref(), Some("rt"));
        assert!(!format!("{ok:?}").contains("at\""));
        assert_eq!(
            Providers::tokens(&serde_json::json!({"expires_in": 10})).unwrap_err(),
            TokenFailure::Malformed
        );
        assert_eq!(
            Providers::tokens(&serde_json::json!({"access_token": "a b"})).unwrap_err(),
            TokenFailure::Malformed
        );
    }
}
