//! How often a user may make the server connect to mail servers: a small token bucket per
//! user, spent by every connection test and mailbox login. Each one opens connections to the
//! hosts and ports the user names, so without a limit any user could sweep a network with the
//! server's address; a person setting up a mailbox needs a few tries, not hundreds.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Tries in a burst.
pub const BURST: u32 = 10;
/// One try comes back this often.
pub const REFILL: Duration = Duration::from_secs(6);

#[derive(Debug, Clone, Copy)]
struct Bucket {
    tokens: f64,
    at: Instant,
}

/// The buckets of every user, in memory (a restart refills them).
#[derive(Debug, Default)]
pub struct ConnectionTests {
    buckets: Mutex<HashMap<u64, Bucket>>,
}

impl ConnectionTests {
    /// Spends one try of `user_id`, or tells how many seconds until one comes back.
    pub fn take(&self, user_id: u64) -> Result<(), u64> {
        self.take_at(user_id, Instant::now())
    }

    /// [`take`](Self::take) at a given time (the tests' clock).
    pub fn take_at(&self, user_id: u64, now: Instant) -> Result<(), u64> {
        let mut buckets = self.buckets.lock().expect("connection test buckets");
        // Full buckets hold nothing worth keeping.
        if buckets.len() > 1000 {
            buckets.retain(|_, b| refilled(*b, now) < f64::from(BURST));
        }
        let bucket = buckets.entry(user_id).or_insert(Bucket {
            tokens: f64::from(BURST),
            at: now,
        });
        let tokens = refilled(*bucket, now);
        if tokens >= 1.0 {
            *bucket = Bucket {
                tokens: tokens - 1.0,
                at: now,
            };
            Ok(())
        } else {
            *bucket = Bucket { tokens, at: now };
            let wait = (1.0 - tokens) * REFILL.as_secs_f64();
            Err(wait.ceil().max(1.0) as u64)
        }
    }
}

fn refilled(b: Bucket, now: Instant) -> f64 {
    let earned = now.saturating_duration_since(b.at).as_secs_f64() / REFILL.as_secs_f64();
    (b.tokens + earned).min(f64::from(BURST))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_burst_then_one_try_per_refill_per_user() {
        let limit = ConnectionTests::default();
        let t0 = Instant::now();
        for _ in 0..BURST {
            assert_eq!(limit.take_at(1, t0), Ok(()));
        }
        assert_eq!(limit.take_at(1, t0), Err(REFILL.as_secs()));
        // Another user has their own bucket.
        assert_eq!(limit.take_at(2, t0), Ok(()));
        // Waiting earns one try back, not the burst.
        let later = t0 + REFILL;
        assert_eq!(limit.take_at(1, later), Ok(()));
        assert!(limit.take_at(1, later).is_err());
        // A long rest refills it, up to the burst only.
        let rested = later + REFILL * 100;
        for _ in 0..BURST {
            assert_eq!(limit.take_at(1, rested), Ok(()));
        }
        assert!(limit.take_at(1, rested).is_err());
    }
}
