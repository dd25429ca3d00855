//! Login throttling: after `max_failures` failed logins for one username from one client
//! address, or from one client address for any usernames, within the lockout window, further
//! attempts for it are refused until the window has passed. Kept in memory: a restart forgets
//! it, which only ever helps the real user.
//!
//! A username is never locked on its own: then anyone who knows it could keep its owner out
//! from anywhere. A stranger's failures lock the stranger's address (for every username) and
//! that username from that address; the owner, elsewhere, still signs in. Behind a reverse
//! proxy the address is the forwarded one (`proxies.rs`), not the proxy's.
//!
//! An attempt counts as a failure from the moment it starts ([`LoginThrottle::begin`]), before
//! the password is hashed; a success gives it back. So a burst of concurrent guesses cannot all
//! pass the check before the first one is recorded, and each pays for argon2 only within the
//! limit.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Entries older than the window are dropped when the map grows past this, so a flood of
/// usernames cannot grow memory without bound.
const PRUNE_AT: usize = 10_000;

#[derive(Debug, Clone, Copy)]
struct Entry {
    failures: u32,
    window_start: Instant,
    locked_until: Option<Instant>,
}

pub struct LoginThrottle {
    max_failures: u32,
    window: Duration,
    entries: Mutex<HashMap<String, Entry>>,
}

impl LoginThrottle {
    pub fn new(max_failures: u32, window: Duration) -> Self {
        Self {
            max_failures,
            window,
            entries: Mutex::new(HashMap::new()),
        }
    }

    /// The username from this address, and the address. (An address holds no space, so the
    /// pair cannot be forged by a username.)
    fn keys(username: &str, client: &str) -> [String; 2] {
        [
            format!("pair:{client} {}", username.trim().to_ascii_lowercase()),
            format!("addr:{client}"),
        ]
    }

    /// `Err(seconds)` when either key is locked out at `now` (the tests' view of [`Self::begin`]).
    #[cfg(test)]
    fn check_at(&self, username: &str, client: &str, now: Instant) -> Result<(), u64> {
        let entries = self.entries.lock().expect("throttle lock");
        match Self::wait_in(&entries, username, client, now) {
            Some(secs) => Err(secs),
            None => Ok(()),
        }
    }

    /// Starts an attempt: refused when locked, else counted as a failure until
    /// [`Self::record_success`] says otherwise.
    pub fn begin(&self, username: &str, client: &str) -> Result<(), u64> {
        let now = Instant::now();
        // One lock for the check and the count, so concurrent attempts see each other.
        let mut entries = self.entries.lock().expect("throttle lock");
        if let Some(wait) = Self::wait_in(&entries, username, client, now) {
            return Err(wait);
        }
        self.count_in(&mut entries, username, client, now);
        Ok(())
    }

    fn wait_in(
        entries: &HashMap<String, Entry>,
        username: &str,
        client: &str,
        now: Instant,
    ) -> Option<u64> {
        Self::keys(username, client)
            .iter()
            .filter_map(|k| entries.get(k)?.locked_until)
            .filter(|until| *until > now)
            .map(|until| (until - now).as_secs().max(1))
            .max()
    }

    #[cfg(test)]
    fn record_failure_at(&self, username: &str, client: &str, now: Instant) {
        let mut entries = self.entries.lock().expect("throttle lock");
        self.count_in(&mut entries, username, client, now);
    }

    fn count_in(
        &self,
        entries: &mut HashMap<String, Entry>,
        username: &str,
        client: &str,
        now: Instant,
    ) {
        if entries.len() > PRUNE_AT {
            let window = self.window;
            entries.retain(|_, e| {
                now.duration_since(e.window_start) < window
                    || e.locked_until.is_some_and(|u| u > now)
            });
        }
        for key in Self::keys(username, client) {
            let e = entries.entry(key).or_insert(Entry {
                failures: 0,
                window_start: now,
                locked_until: None,
            });
            if now.duration_since(e.window_start) >= self.window
                && e.locked_until.is_none_or(|u| u <= now)
            {
                *e = Entry {
                    failures: 0,
                    window_start: now,
                    locked_until: None,
                };
            }
            e.failures += 1;
            if e.failures >= self.max_failures {
                e.locked_until = Some(now + self.window);
            }
        }
    }

    /// A successful attempt clears the username's record at this address and gives the address back the
    /// attempt [`Self::begin`] counted (only that one: a right password must not unlock guessing
    /// at other accounts from the same place).
    pub fn record_success(&self, username: &str, client: &str) {
        let [pair_key, addr_key] = Self::keys(username, client);
        let mut entries = self.entries.lock().expect("throttle lock");
        entries.remove(&pair_key);
        if let Some(e) = entries.get_mut(&addr_key) {
            e.failures = e.failures.saturating_sub(1);
            if e.failures < self.max_failures {
                e.locked_until = None;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const WINDOW: Duration = Duration::from_secs(900);

    #[test]
    fn locks_after_max_failures_and_unlocks_after_window() {
        let t = LoginThrottle::new(3, WINDOW);
        let t0 = Instant::now();
        for _ in 0..2 {
            t.record_failure_at("dana", "1.2.3.4", t0);
            assert!(t.check_at("dana", "1.2.3.4", t0).is_ok());
        }
        t.record_failure_at("dana", "1.2.3.4", t0);
        assert_eq!(t.check_at("dana", "1.2.3.4", t0), Err(900));
        // The address stays locked for every username; the username from elsewhere does not.
        assert!(t.check_at("DANA", "1.2.3.4", t0).is_err());
        assert!(t.check_at("yossi", "1.2.3.4", t0).is_err());
        assert!(t.check_at("yossi", "5.6.7.8", t0).is_ok());
        let later = t0 + WINDOW + Duration::from_secs(1);
        assert!(t.check_at("dana", "1.2.3.4", later).is_ok());
    }

    #[test]
    fn a_stranger_cannot_lock_the_owner_out_from_another_address() {
        let t = LoginThrottle::new(3, WINDOW);
        let t0 = Instant::now();
        for _ in 0..10 {
            t.record_failure_at("dana", "198.51.100.7", t0);
        }
        assert!(t.check_at("dana", "198.51.100.7", t0).is_err());
        assert!(t.check_at("dana", "192.168.1.20", t0).is_ok());
        assert!(t.check_at("Dana", "192.168.1.20", t0).is_ok());
    }

    #[test]
    fn one_address_cannot_spray_many_usernames() {
        let t = LoginThrottle::new(3, WINDOW);
        for name in ["dana", "yossi", "noa"] {
            t.begin(name, "198.51.100.7").unwrap();
        }
        // A fourth username, never tried before, is refused from there.
        assert!(t.begin("gil", "198.51.100.7").is_err());
        assert!(t.begin("gil", "192.168.1.20").is_ok());
    }

    #[test]
    fn old_failures_fall_out_of_the_window() {
        let t = LoginThrottle::new(3, WINDOW);
        let t0 = Instant::now();
        t.record_failure_at("dana", "a", t0);
        t.record_failure_at("dana", "a", t0);
        let later = t0 + WINDOW + Duration::from_secs(1);
        t.record_failure_at("dana", "a", later);
        assert!(t.check_at("dana", "a", later).is_ok());
    }

    #[test]
    fn success_clears_the_username_at_that_address() {
        let t = LoginThrottle::new(3, WINDOW);
        let t0 = Instant::now();
        t.record_failure_at("dana", "a", t0);
        t.record_failure_at("dana", "a", t0);
        t.record_success("dana", "a");
        // The pair starts again; the address keeps one failure of the two.
        t.record_failure_at("dana", "a", t0);
        assert!(t.check_at("dana", "a", t0).is_ok());
        t.record_failure_at("yossi", "a", t0);
        assert!(t.check_at("dana", "a", t0).is_err());
    }

    #[test]
    fn an_attempt_counts_from_its_start_and_a_success_gives_it_back() {
        let t = LoginThrottle::new(3, WINDOW);
        for _ in 0..3 {
            t.begin("dana", "1.2.3.4").unwrap();
        }
        // Three attempts under way or failed: the fourth is refused before any hashing.
        assert!(t.begin("dana", "1.2.3.4").is_err());
        let t = LoginThrottle::new(3, WINDOW);
        for _ in 0..5 {
            t.begin("dana", "1.2.3.4").unwrap();
            t.record_success("dana", "1.2.3.4");
        }
        assert!(
            t.begin("yossi", "1.2.3.4").is_ok(),
            "successes leave the address free"
        );
    }
}
