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
//!
//! An IPv6 client counts per /64 ([`client_net`]): one host is handed a whole /64, and counting
//! per address would let it guess from 2^64 of them.
//!
//! Guessing one username from many addresses (a botnet, or many IPv6 networks) is slowed per
//! username, but only for addresses that never signed in as that user: after
//! [`UNFAMILIAR_FREE`] × `max_failures` failures from unfamiliar addresses, each further attempt
//! from one waits twice as long as the one before (from a second up to the lockout window),
//! until the window passes without such a failure. The addresses the user signed in from
//! ([`FAMILIAR_PER_USER`] at most, in memory) are never slowed, so the owner keeps signing in at
//! home while strangers guess.

use std::collections::HashMap;
use std::net::{IpAddr, Ipv6Addr};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Entries older than the window are dropped when the map grows past this, so a flood of
/// usernames cannot grow memory without bound.
const PRUNE_AT: usize = 10_000;

/// Failures from unfamiliar addresses a username takes, in multiples of `max_failures`, before
/// they are slowed.
pub const UNFAMILIAR_FREE: u32 = 2;
/// Addresses (networks) remembered per user as ones they signed in from.
pub const FAMILIAR_PER_USER: usize = 16;

/// The network a client is counted as: an IPv6 address's /64, any other address as it is (an
/// IPv4-mapped IPv6 address as its IPv4). Text that is no address stays as it is.
pub fn client_net(client: &str) -> String {
    match client.parse::<IpAddr>().map(|ip| ip.to_canonical()) {
        Ok(IpAddr::V6(v6)) => {
            let s = v6.segments();
            format!("{}/64", Ipv6Addr::new(s[0], s[1], s[2], s[3], 0, 0, 0, 0))
        }
        Ok(ip) => ip.to_string(),
        Err(_) => client.to_string(),
    }
}

#[derive(Debug, Clone, Copy)]
struct Entry {
    failures: u32,
    window_start: Instant,
    locked_until: Option<Instant>,
}

/// A username's failures from addresses it never signed in from.
#[derive(Debug, Clone, Copy)]
struct Unfamiliar {
    failures: u32,
    last: Instant,
}

#[derive(Default)]
struct Counts {
    entries: HashMap<String, Entry>,
    unfamiliar: HashMap<String, Unfamiliar>,
    /// Username → the networks it signed in from, the latest last.
    familiar: HashMap<String, Vec<String>>,
}

pub struct LoginThrottle {
    max_failures: u32,
    window: Duration,
    counts: Mutex<Counts>,
}

fn user_key(username: &str) -> String {
    username.trim().to_ascii_lowercase()
}

impl LoginThrottle {
    pub fn new(max_failures: u32, window: Duration) -> Self {
        Self {
            max_failures,
            window,
            counts: Mutex::new(Counts::default()),
        }
    }

    /// The username from this network, and the network. (A network holds no space, so the
    /// pair cannot be forged by a username.)
    fn keys(username: &str, net: &str) -> [String; 2] {
        [
            format!("pair:{net} {}", user_key(username)),
            format!("addr:{net}"),
        ]
    }

    fn is_familiar(counts: &Counts, username: &str, net: &str) -> bool {
        counts
            .familiar
            .get(&user_key(username))
            .is_some_and(|nets| nets.iter().any(|n| n == net))
    }

    /// How long an unfamiliar address waits after the user's last such failure.
    fn unfamiliar_wait(&self, failures: u32) -> Option<Duration> {
        let free = self.max_failures.saturating_mul(UNFAMILIAR_FREE);
        let over = failures.checked_sub(free)?;
        let secs = 1u64.checked_shl(over.min(32)).unwrap_or(u64::MAX);
        Some(Duration::from_secs(secs).min(self.window))
    }

    /// `Err(seconds)` when either key is locked out at `now` (the tests' view of [`Self::begin`]).
    #[cfg(test)]
    fn check_at(&self, username: &str, client: &str, now: Instant) -> Result<(), u64> {
        let counts = self.counts.lock().expect("throttle lock");
        match self.wait_in(&counts, username, &client_net(client), now) {
            Some(secs) => Err(secs),
            None => Ok(()),
        }
    }

    /// Starts an attempt: refused when locked, else counted as a failure until
    /// [`Self::record_success`] says otherwise.
    pub fn begin(&self, username: &str, client: &str) -> Result<(), u64> {
        self.begin_at(username, client, Instant::now())
    }

    fn begin_at(&self, username: &str, client: &str, now: Instant) -> Result<(), u64> {
        let net = client_net(client);
        // One lock for the check and the count, so concurrent attempts see each other.
        let mut counts = self.counts.lock().expect("throttle lock");
        if let Some(wait) = self.wait_in(&counts, username, &net, now) {
            return Err(wait);
        }
        self.count_in(&mut counts, username, &net, now);
        Ok(())
    }

    fn wait_in(&self, counts: &Counts, username: &str, net: &str, now: Instant) -> Option<u64> {
        let locked = Self::keys(username, net)
            .iter()
            .filter_map(|k| counts.entries.get(k)?.locked_until)
            .filter(|until| *until > now)
            .map(|until| (until - now).as_secs().max(1))
            .max();
        let backoff = if Self::is_familiar(counts, username, net) {
            None
        } else {
            counts
                .unfamiliar
                .get(&user_key(username))
                .filter(|u| now.duration_since(u.last) < self.window)
                .and_then(|u| Some(u.last + self.unfamiliar_wait(u.failures)?))
                .filter(|until| *until > now)
                .map(|until| (until - now).as_secs_f64().ceil().max(1.0) as u64)
        };
        locked.max(backoff)
    }

    #[cfg(test)]
    fn record_failure_at(&self, username: &str, client: &str, now: Instant) {
        let mut counts = self.counts.lock().expect("throttle lock");
        self.count_in(&mut counts, username, &client_net(client), now);
    }

    fn count_in(&self, counts: &mut Counts, username: &str, net: &str, now: Instant) {
        let window = self.window;
        if counts.entries.len() > PRUNE_AT {
            counts.entries.retain(|_, e| {
                now.duration_since(e.window_start) < window
                    || e.locked_until.is_some_and(|u| u > now)
            });
        }
        if counts.unfamiliar.len() > PRUNE_AT {
            counts
                .unfamiliar
                .retain(|_, u| now.duration_since(u.last) < window);
        }
        if !Self::is_familiar(counts, username, net) {
            let u = counts
                .unfamiliar
                .entry(user_key(username))
                .or_insert(Unfamiliar {
                    failures: 0,
                    last: now,
                });
            if now.duration_since(u.last) >= window {
                u.failures = 0;
            }
            u.failures += 1;
            u.last = now;
        }
        let entries = &mut counts.entries;
        for key in Self::keys(username, net) {
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
    /// at other accounts from the same place). The address becomes one the user signed in
    /// from.
    pub fn record_success(&self, username: &str, client: &str) {
        let net = client_net(client);
        let [pair_key, addr_key] = Self::keys(username, &net);
        let mut counts = self.counts.lock().expect("throttle lock");
        counts.entries.remove(&pair_key);
        if let Some(e) = counts.entries.get_mut(&addr_key) {
            e.failures = e.failures.saturating_sub(1);
            if e.failures < self.max_failures {
                e.locked_until = None;
            }
        }
        let user = user_key(username);
        if !Self::is_familiar(&counts, username, &net) {
            // The attempt counted as unfamiliar when it began: given back too.
            if let Some(u) = counts.unfamiliar.get_mut(&user) {
                u.failures = u.failures.saturating_sub(1);
            }
        }
        let nets = counts.familiar.entry(user).or_default();
        nets.retain(|n| *n != net);
        nets.push(net);
        if nets.len() > FAMILIAR_PER_USER {
            nets.remove(0);
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
            let _ = t.begin_at("dana", "198.51.100.7", t0);
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
    fn ipv6_counts_per_64() {
        assert_eq!(client_net("2001:db8:1:2:aaaa::1"), "2001:db8:1:2::/64");
        assert_eq!(client_net("::ffff:192.0.2.7"), "192.0.2.7");
        assert_eq!(client_net("192.0.2.7"), "192.0.2.7");
        let t = LoginThrottle::new(3, WINDOW);
        let t0 = Instant::now();
        // Three failures from three addresses of one /64: that network is locked.
        for client in [
            "2001:db8:1:2::1",
            "2001:db8:1:2::2",
            "2001:db8:1:2:ffff:ffff:ffff:3",
        ] {
            t.record_failure_at("dana", client, t0);
        }
        assert!(t.check_at("yossi", "2001:db8:1:2:9::9", t0).is_err());
        // The next /64 is another client.
        assert!(t.check_at("yossi", "2001:db8:1:3::1", t0).is_ok());
    }

    #[test]
    fn many_addresses_guessing_one_user_are_slowed_but_not_the_owners() {
        let t = LoginThrottle::new(3, WINDOW);
        let t0 = Instant::now();
        // The owner signed in from home once.
        t.begin_at("dana", "192.168.1.20", t0).unwrap();
        t.record_success("dana", "192.168.1.20");
        // A botnet: one guess from each of many addresses (none locked by its own count).
        let free = 3 * UNFAMILIAR_FREE;
        for i in 0..free {
            t.begin_at("dana", &format!("198.51.100.{i}"), t0).unwrap();
        }
        // Past the free ones, a new address waits: 1 s, then twice as long each time.
        assert_eq!(t.begin_at("Dana", "203.0.113.1", t0), Err(1));
        let t1 = t0 + Duration::from_secs(1);
        t.begin_at("dana", "203.0.113.2", t1).unwrap();
        assert_eq!(t.begin_at("dana", "203.0.113.3", t1), Err(2));
        let t2 = t1 + Duration::from_secs(2);
        t.begin_at("dana", "203.0.113.3", t2).unwrap();
        assert_eq!(t.begin_at("dana", "203.0.113.4", t2), Err(4));
        // The owner, at home, is not slowed; nor is another username.
        assert!(t.begin_at("dana", "192.168.1.20", t2).is_ok());
        t.record_success("dana", "192.168.1.20");
        assert!(t.begin_at("yossi", "203.0.113.9", t2).is_ok());
        // The wait doubles up to the lockout window, never past it...
        let (mut now, mut longest) = (t2, 0);
        for i in 0..40 {
            let client = format!("203.0.114.{i}");
            while let Err(wait) = t.begin_at("dana", &client, now) {
                longest = longest.max(wait);
                now += Duration::from_secs(wait);
            }
        }
        assert_eq!(longest, 900);
        // ...and ends once a window passes without such a failure.
        assert!(t.check_at("dana", "203.0.115.1", now).is_err());
        assert!(t.check_at("dana", "203.0.115.1", now + WINDOW).is_ok());
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
