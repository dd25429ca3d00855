//! The checks every saved mailbox passes, whoever brings it: the settings page's login, the
//! household's settings, an OAuth finish, a restored backup (`backup.rs`). One function, so a
//! backup file cannot bring a mailbox the login would refuse.

use super::Settings;
use crate::error::{AppError, Result};
use crate::messages;

/// The longest password (or refresh token) kept.
const MAX_SECRET: usize = 16 << 10;

/// The checks every saved mailbox passes, whoever brings it (the settings page, the household's
/// settings, OAuth, a restored backup): a real address, servers that are host names, ports,
/// certificate pins in one form, and a password.
pub fn validated(mut s: Settings) -> Result<Settings> {
    s.email = super::address::normalize(&s.email)
        .ok_or_else(|| AppError::bad_request(messages::MAIL_EMAIL_INVALID))?;
    for host in [&mut s.servers.imap_server, &mut s.servers.smtp_server] {
        *host = host.trim().to_string();
        if host.is_empty() {
            return Err(AppError::bad_request(messages::MAIL_SERVER_REQUIRED));
        }
        let odd = |c: char| c.is_whitespace() || c.is_control() || matches!(c, '/' | '@' | '\\');
        if host.len() > 253 || host.chars().any(odd) {
            return Err(AppError::bad_request(messages::MAIL_SERVER_INVALID));
        }
    }
    if s.servers.imap_port == 0 || s.servers.smtp_port == 0 {
        return Err(AppError::bad_request(messages::MAIL_PORT_INVALID));
    }
    for pin in [&mut s.imap_fingerprint, &mut s.smtp_fingerprint] {
        *pin = pin
            .as_deref()
            .map(crate::mail::tls::normalize_fingerprint)
            .filter(|f| !f.is_empty());
    }
    if s.password.is_empty() {
        return Err(AppError::bad_request(messages::MAIL_PASSWORD_REQUIRED));
    }
    if s.password.len() > MAX_SECRET {
        return Err(AppError::bad_request(messages::BODY_TOO_LARGE));
    }
    Ok(s)
}
