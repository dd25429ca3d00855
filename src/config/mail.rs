//! `[mail]`: how the server talks to mail servers: extra certificate authorities, timeouts,
//! how often it syncs, and which hosts users may connect to.

use std::path::PathBuf;

use serde::{Deserialize, Serialize};

use super::check::{Check, Checked, host_pattern_ok};

#[derive(Debug, Clone, Deserialize, Serialize, PartialEq)]
#[serde(deny_unknown_fields, default)]
pub struct MailConfig {
    /// PEM files of extra certificate authorities to trust for IMAP and SMTP (a home server's
    /// own CA), on top of the built-in web PKI roots.
    pub extra_ca_files: Vec<PathBuf>,
    /// Seconds to wait for a mail server to connect, log in or answer.
    pub timeout_secs: u64,
    /// Seconds between full syncs of every folder (INBOX is watched with IDLE in between).
    pub poll_interval_secs: u64,
    /// Seconds between checks of INBOX on a server without IDLE (the design's 30 s).
    pub inbox_poll_secs: u64,
    /// Seconds a mailbox waits first when its provider throttles it (`NO [THROTTLED]`,
    /// Outlook.com / Microsoft 365); the wait doubles while the throttling goes on, up to 30
    /// times this, and is never shorter than the wait the server suggests.
    pub throttle_backoff_secs: u64,
    /// The only IMAP/SMTP hosts users may connect to (names or IP literals as typed, or
    /// `*.example.com` for its subdomains); empty means any. Any user names the hosts of a
    /// connection test, so this keeps the server from connecting wherever they say.
    pub allowed_hosts: Vec<String>,
    /// Refuse mail servers whose name resolves to a loopback or private address too (checked on
    /// the resolved addresses). Off by default: a mail server on the LAN, or on this machine, is
    /// common. Link-local, metadata and other addresses where no mail server lives are refused
    /// whatever this says (`mail::hosts::never_mail`).
    pub deny_private_ranges: bool,
    /// Mailboxes one user may connect (1 to 1000): each is a sync task and connections.
    pub max_accounts_per_user: usize,
}

impl Default for MailConfig {
    fn default() -> Self {
        Self {
            extra_ca_files: Vec::new(),
            timeout_secs: 30,
            poll_interval_secs: 300,
            inbox_poll_secs: 30,
            throttle_backoff_secs: 30,
            allowed_hosts: Vec::new(),
            deny_private_ranges: false,
            max_accounts_per_user: 10,
        }
    }
}

impl MailConfig {
    /// Timeouts and intervals in their ranges; `allowed_hosts` holds host patterns only.
    pub fn check(&self, c: &Check) -> Checked {
        c.within("timeout_secs", self.timeout_secs, 1..=600, " seconds")?;
        c.at_least(
            "poll_interval_secs",
            self.poll_interval_secs,
            10,
            " seconds",
        )?;
        c.within(
            "inbox_poll_secs",
            self.inbox_poll_secs,
            5..=3600,
            " seconds",
        )?;
        c.within(
            "throttle_backoff_secs",
            self.throttle_backoff_secs,
            1..=3600,
            " seconds",
        )?;
        c.within(
            "max_accounts_per_user",
            self.max_accounts_per_user as u64,
            1..=1000,
            "",
        )?;
        if let Some(bad) = self.allowed_hosts.iter().find(|h| !host_pattern_ok(h)) {
            return c.bad(
                "allowed_hosts",
                bad,
                "expected host names or IP addresses (or *.example.com), without a scheme or port",
            );
        }
        Ok(())
    }
}
