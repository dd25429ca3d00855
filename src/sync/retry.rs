//! How long an account's task waits after its session ended, and whether the user hears of it.
//! Three endings are told apart (`crate::mail::imap_ops` reads the server's answers):
//! - the provider throttles the mailbox (`NO [THROTTLED]`, Outlook.com / Microsoft 365): a wait
//!   of its own, `[mail] throttle_backoff_secs` doubling up to 30 times that and never shorter
//!   than the server's suggestion, with a status that says the provider slows the sync down
//!   (state `throttled`, `errorKind` "throttled"): nothing for the user to mend;
//! - the server ended the connection under a session (`* BYE` under load, an IDLE cut after
//!   ~30 minutes, a reset socket): a plain reconnect that shows no error, unless it keeps
//!   happening to sessions that barely started (then it is a failure like any other);
//! - anything else: a failure with the general backoff (1 s doubling up to `max_backoff`).
//!
//! A session that lasted a while was a success that later broke: every wait starts over.

use std::time::Duration;

use super::ctx::Ctx;
use crate::mail::imap_ops::{self, Throttle};

/// A session longer than this went well before it ended.
const LASTED: Duration = Duration::from_secs(60);
/// Cuts of short sessions in a row taken quietly; the next one is told as a failure.
const QUIET_CUTS: u32 = 3;
/// The throttled wait grows up to this many times its first value.
const THROTTLE_GROWTH: u32 = 30;

/// How a session ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ending {
    Throttled(Throttle),
    Cut,
    Failed,
}

impl Ending {
    /// The ending an error of the session says. Failing to connect or sign in is a failure
    /// (the server down, a password refused), never a cut; a throttled sign-in is throttling.
    pub fn of(e: &anyhow::Error) -> Self {
        if let Some(m) = e.downcast_ref::<crate::mail::net::MailError>() {
            crate::mail::imap::throttled_sign_in(m).map_or(Ending::Failed, Ending::Throttled)
        } else if let Some(t) = imap_ops::throttled(e) {
            Ending::Throttled(t)
        } else if imap_ops::cut(e) {
            Ending::Cut
        } else {
            Ending::Failed
        }
    }
}

/// What the status says while the task waits.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tell {
    /// The provider slows the sync down.
    Throttled,
    /// Nothing: the task reconnects.
    Nothing,
    /// A failure, with the server's words.
    Failure,
}

/// The waits of one account's task.
pub struct Backoff {
    first_throttle: Duration,
    max_failure: Duration,
    failure: Duration,
    throttle: Duration,
    quick_cuts: u32,
}

impl Backoff {
    pub fn new(first_throttle: Duration, max_failure: Duration) -> Self {
        Self {
            first_throttle,
            max_failure,
            failure: Duration::from_secs(1),
            throttle: first_throttle,
            quick_cuts: 0,
        }
    }

    /// The wait after a session that ended so after `lasted`, and what the user is told.
    pub fn after(&mut self, ending: Ending, lasted: Duration) -> (Duration, Tell) {
        if lasted > LASTED {
            self.failure = Duration::from_secs(1);
            self.throttle = self.first_throttle;
            self.quick_cuts = 0;
        }
        match ending {
            Ending::Throttled(t) => {
                let wait = self.throttle.max(t.suggested.unwrap_or_default());
                self.throttle = (self.throttle * 2).min(self.first_throttle * THROTTLE_GROWTH);
                (wait, Tell::Throttled)
            }
            Ending::Cut if self.quick_cuts < QUIET_CUTS => {
                if lasted <= LASTED {
                    self.quick_cuts += 1;
                }
                (self.grow_failure(), Tell::Nothing)
            }
            Ending::Cut | Ending::Failed => (self.grow_failure(), Tell::Failure),
        }
    }

    fn grow_failure(&mut self) -> Duration {
        let wait = self.failure;
        self.failure = (self.failure * 2).min(self.max_failure);
        wait
    }
}

/// The status of a throttled mailbox: state `throttled`, the Hebrew words, when it tries again;
/// the live channel hears it, but no failure is announced.
pub fn report_throttled(ctx: &Ctx, retry_at: i64) {
    {
        let mut s = ctx.status.lock().expect("status");
        s.state = "throttled".into();
        s.error = Some(crate::messages::SYNC_THROTTLED.into());
        s.error_kind = Some(THROTTLED.into());
        s.next_retry_at = Some(retry_at);
    }
    ctx.status_changed();
}

/// The sync status's `errorKind` while the provider throttles the mailbox.
pub const THROTTLED: &str = "throttled";

#[cfg(test)]
mod tests {
    use super::*;

    const S: fn(u64) -> Duration = Duration::from_secs;

    fn throttled(suggested: Option<Duration>) -> Ending {
        Ending::Throttled(Throttle { suggested })
    }

    #[test]
    fn a_throttled_mailbox_waits_longer_each_time_and_as_long_as_the_server_asks() {
        let mut b = Backoff::new(S(30), S(300));
        assert_eq!(b.after(throttled(None), S(1)), (S(30), Tell::Throttled));
        assert_eq!(b.after(throttled(None), S(1)), (S(60), Tell::Throttled));
        assert_eq!(
            b.after(throttled(Some(S(500))), S(1)),
            (S(500), Tell::Throttled)
        );
        for _ in 0..10 {
            b.after(throttled(None), S(1));
        }
        assert_eq!(b.after(throttled(None), S(1)).0, S(900), "capped");
        // A session that went well starts the waits over.
        assert_eq!(b.after(throttled(None), S(120)).0, S(30));
        // Failures keep their own, shorter backoff.
        assert_eq!(b.after(Ending::Failed, S(1)), (S(1), Tell::Failure));
        assert_eq!(b.after(Ending::Failed, S(1)), (S(2), Tell::Failure));
    }

    #[test]
    fn a_cut_reconnects_quietly_unless_short_sessions_keep_being_cut() {
        let mut b = Backoff::new(S(30), S(300));
        // Outlook's IDLE cut after half an hour: quiet, every time.
        for _ in 0..10 {
            assert_eq!(b.after(Ending::Cut, S(1800)), (S(1), Tell::Nothing));
        }
        for _ in 0..QUIET_CUTS {
            assert_eq!(b.after(Ending::Cut, S(2)).1, Tell::Nothing);
        }
        assert_eq!(b.after(Ending::Cut, S(2)).1, Tell::Failure);
        assert_eq!(b.after(Ending::Cut, S(1800)).1, Tell::Nothing);
    }

    #[test]
    fn endings_are_read_off_the_servers_answers() {
        use async_imap::error::Error;
        let no = |t: &str| anyhow::Error::from(Error::No(t.into()));
        assert_eq!(
            Ending::of(&no("[THROTTLED] Request is throttled.")),
            throttled(None)
        );
        assert_eq!(
            Ending::of(&anyhow::Error::from(Error::ConnectionLost)),
            Ending::Cut
        );
        assert_eq!(Ending::of(&no("[AUTHENTICATIONFAILED] no")), Ending::Failed);
        let endpoint = crate::mail::net::Endpoint {
            host: "mail.example".into(),
            port: 993,
            ssl: true,
            pinned_fingerprint: None,
            timeout: S(5),
            hosts: Default::default(),
        };
        let refused = crate::mail::net::MailError::new(
            crate::mail::net::FailureKind::Unreachable,
            &endpoint,
            "connection refused",
        );
        assert_eq!(Ending::of(&anyhow::Error::from(refused)), Ending::Failed);
        let sign_in = crate::mail::net::MailError::new(
            crate::mail::net::FailureKind::Unreachable,
            &endpoint,
            "[THROTTLED] Request is throttled.",
        );
        assert_eq!(Ending::of(&anyhow::Error::from(sign_in)), throttled(None));
    }
}
