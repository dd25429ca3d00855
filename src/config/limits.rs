//! `[limits]`: calls per minute each user may make of the expensive endpoints (a token bucket
//! that holds a minute's worth and refills evenly), and the AI calls per day.

use serde::{Deserialize, Serialize};

use super::check::{Check, Checked};

#[derive(Debug, Clone, Deserialize, Serialize, PartialEq)]
#[serde(deny_unknown_fields, default)]
pub struct LimitsConfig {
    /// AI calls (`/api/claude/*`, `/api/smart/*`).
    pub ai_per_minute: u32,
    /// Every call to the AI provider on a user's behalf, the background ones too (the spam
    /// check's AI review, the auto-reply's drafts): a day's budget, refilled evenly.
    pub ai_per_day: u32,
    /// Searches (`/api/search`).
    pub search_per_minute: u32,
    /// "Sync now" (`/api/sync/refresh`).
    pub refresh_per_minute: u32,
    /// A rule's preview and "run now".
    pub rules_per_minute: u32,
    /// The spam check's explanation of a mail (`/api/spam/debug/{id}`).
    pub spam_debug_per_minute: u32,
    /// Contacts imports.
    pub contacts_import_per_minute: u32,
    /// Page-builder form posts and previews (each asks another server).
    pub builder_per_minute: u32,
    /// Settings backups saved or opened (`/api/settings/backup*`): each costs a password hash.
    pub backup_per_minute: u32,
    /// Mails one user's rules may forward per day (UTC), new mail and "run now" together: a
    /// stranger's flood or a loop between two forwarding mailboxes stops there.
    pub forwards_per_day: u32,
}

impl Default for LimitsConfig {
    fn default() -> Self {
        Self {
            ai_per_minute: 20,
            ai_per_day: 500,
            search_per_minute: 120,
            refresh_per_minute: 6,
            rules_per_minute: 30,
            spam_debug_per_minute: 30,
            contacts_import_per_minute: 6,
            builder_per_minute: 30,
            backup_per_minute: 6,
            forwards_per_day: 100,
        }
    }
}

impl LimitsConfig {
    /// Every rate from 1 to 100,000 a minute; the AI's day from 1 to 1,000,000.
    pub fn check(&self, c: &Check) -> Checked {
        for (key, value) in [
            ("ai_per_minute", self.ai_per_minute),
            ("search_per_minute", self.search_per_minute),
            ("refresh_per_minute", self.refresh_per_minute),
            ("rules_per_minute", self.rules_per_minute),
            ("spam_debug_per_minute", self.spam_debug_per_minute),
            (
                "contacts_import_per_minute",
                self.contacts_import_per_minute,
            ),
            ("builder_per_minute", self.builder_per_minute),
            ("backup_per_minute", self.backup_per_minute),
        ] {
            c.within(key, value, 1..=100_000, " calls per minute")?;
        }
        c.within(
            "ai_per_day",
            self.ai_per_day,
            1..=1_000_000,
            " calls per day",
        )?;
        c.within(
            "forwards_per_day",
            self.forwards_per_day,
            1..=100_000,
            " forwards per day",
        )
    }
}
