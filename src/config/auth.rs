//! `[auth]`: how long sign-in sessions last and when repeated failed logins lock sign-in.

use serde::{Deserialize, Serialize};

use super::check::{Check, Checked};

#[derive(Debug, Clone, Deserialize, Serialize, PartialEq)]
#[serde(deny_unknown_fields, default)]
pub struct AuthConfig {
    /// How long a sign-in session lasts, in hours.
    pub session_ttl_hours: u64,
    /// A session not used for this many hours ends (within `session_ttl_hours`).
    pub session_idle_hours: u64,
    /// Failed logins (per username, and per client address) before sign-in is refused for a while.
    pub max_failed_logins: u32,
    /// How long sign-in stays refused after too many failures, in minutes.
    pub lockout_minutes: u64,
}

impl Default for AuthConfig {
    fn default() -> Self {
        Self {
            session_ttl_hours: 24 * 30,
            session_idle_hours: 24 * 7,
            max_failed_logins: 5,
            lockout_minutes: 15,
        }
    }
}

/// A year, in hours: the longest a session may last or idle.
const YEAR_HOURS: u64 = 24 * 365;

impl AuthConfig {
    /// Sessions end within a year; a lockout needs at least one failure and one minute. An
    /// idle limit past the lifetime is allowed: the lifetime ends the session first.
    pub fn check(&self, c: &Check) -> Checked {
        c.within(
            "session_ttl_hours",
            self.session_ttl_hours,
            1..=YEAR_HOURS,
            " hours",
        )?;
        c.at_least("max_failed_logins", self.max_failed_logins, 1, "")?;
        c.at_least("lockout_minutes", self.lockout_minutes, 1, " minute")?;
        c.within(
            "session_idle_hours",
            self.session_idle_hours,
            1..=YEAR_HOURS,
            " hours",
        )
    }
}
