//! Per-user rate limits of the calls that cost: AI help (a provider's tokens, often money),
//! search (snippets parse stored mail) and "sync now" (a pass over every folder). Each user has
//! a token bucket per kind holding a minute's worth (`[limits]`), refilled evenly; an empty
//! bucket answers 429 with a Hebrew message and Retry-After. In memory: a full bucket is the
//! same as none, so full ones are dropped when the map grows, and it never holds more than a
//! few buckets per user.
//!
//! The middleware looks the session up once and leaves it in the request for the handler's
//! extractor (`extract.rs`); a request without a session passes to the handler, whose
//! extractor answers 401.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::Instant;

use axum::extract::{Request, State};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use crate::config::LimitsConfig;
use crate::error::AppError;
use crate::messages;
use crate::state::AppState;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Kind {
    Ai,
    Search,
    Refresh,
    /// Saving or opening a settings backup (a password hash each; checked by the backup
    /// routes themselves, only on the calls that hash).
    Backup,
}

/// The limited paths: a prefix when it ends in `/`, else the exact path.
const LIMITED: &[(&str, Kind)] = &[
    ("/api/claude/", Kind::Ai),
    ("/api/smart/", Kind::Ai),
    ("/api/search", Kind::Search),
    ("/api/sync/refresh", Kind::Refresh),
];

fn kind_of(path: &str) -> Option<Kind> {
    LIMITED.iter().find_map(|(p, kind)| {
        let hit = if p.ends_with('/') {
            path.starts_with(p)
        } else {
            path == *p
        };
        hit.then_some(*kind)
    })
}

/// Buckets are pruned of full ones when there are more than this.
const PRUNE_AT: usize = 1024;

#[derive(Debug, Clone, Copy)]
struct Bucket {
    tokens: f64,
    at: Instant,
}

pub struct RateLimits {
    config: LimitsConfig,
    buckets: Mutex<HashMap<(u64, Kind), Bucket>>,
}

impl RateLimits {
    pub fn new(config: &LimitsConfig) -> Self {
        Self {
            config: config.clone(),
            buckets: Mutex::new(HashMap::new()),
        }
    }

    fn per_minute(&self, kind: Kind) -> f64 {
        f64::from(match kind {
            Kind::Ai => self.config.ai_per_minute,
            Kind::Search => self.config.search_per_minute,
            Kind::Refresh => self.config.refresh_per_minute,
            Kind::Backup => self.config.backup_per_minute,
        })
    }

    /// Takes one call from the user's bucket; `Err(seconds)` until the next one refills.
    pub fn take(&self, user: u64, kind: Kind) -> Result<(), u64> {
        self.take_at(user, kind, Instant::now())
    }

    fn take_at(&self, user: u64, kind: Kind, now: Instant) -> Result<(), u64> {
        let capacity = self.per_minute(kind);
        let per_sec = capacity / 60.0;
        let level = |b: &Bucket| {
            (b.tokens + now.saturating_duration_since(b.at).as_secs_f64() * per_sec).min(capacity)
        };
        let mut buckets = self.buckets.lock().expect("rate limit lock");
        if buckets.len() >= PRUNE_AT {
            buckets.retain(|(_, k), b| {
                let cap = self.per_minute(*k);
                b.tokens + now.saturating_duration_since(b.at).as_secs_f64() * cap / 60.0 < cap
            });
        }
        let bucket = buckets.entry((user, kind)).or_insert(Bucket {
            tokens: capacity,
            at: now,
        });
        let tokens = level(bucket);
        if tokens < 1.0 {
            return Err(((1.0 - tokens) / per_sec).ceil().max(1.0) as u64);
        }
        *bucket = Bucket {
            tokens: tokens - 1.0,
            at: now,
        };
        Ok(())
    }

    /// [`take`](Self::take) as the 429 the middleware answers: for a route that limits only
    /// some of its calls itself.
    pub fn check(&self, user: u64, kind: Kind) -> Result<(), AppError> {
        self.take(user, kind).map_err(|secs| refused(kind, secs))
    }

    #[cfg(test)]
    fn len(&self) -> usize {
        self.buckets.lock().unwrap().len()
    }
}

fn refused(kind: Kind, retry_after_secs: u64) -> AppError {
    let what = match kind {
        Kind::Ai => messages::AI_CALLS_LIMITED,
        Kind::Search => messages::SEARCHES_LIMITED,
        Kind::Refresh => messages::REFRESHES_LIMITED,
        Kind::Backup => messages::BACKUPS_LIMITED,
    };
    AppError::RateLimited {
        retry_after_secs,
        message: messages::try_again_in(what, retry_after_secs),
    }
}

/// The middleware: the limited paths take from the signed-in user's bucket first.
pub async fn per_user(State(state): State<AppState>, request: Request, next: Next) -> Response {
    let Some(kind) = kind_of(request.uri().path()) else {
        return next.run(request).await;
    };
    let (mut parts, body) = request.into_parts();
    match super::extract::remember_session(&mut parts, &state).await {
        Ok(Some(user)) => {
            if let Err(secs) = state.service::<RateLimits>().take(user, kind) {
                return refused(kind, secs).into_response();
            }
        }
        Ok(None) => {}
        Err(e) => return e.into_response(),
    }
    next.run(Request::from_parts(parts, body)).await
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;

    fn limits(per_minute: u32) -> RateLimits {
        RateLimits::new(&LimitsConfig {
            ai_per_minute: per_minute,
            search_per_minute: per_minute,
            refresh_per_minute: per_minute,
            backup_per_minute: per_minute,
            forwards_per_day: per_minute,
        })
    }

    #[test]
    fn a_minutes_worth_then_one_call_per_refill() {
        let l = limits(6);
        let t0 = Instant::now();
        for _ in 0..6 {
            l.take_at(1, Kind::Ai, t0).unwrap();
        }
        assert_eq!(l.take_at(1, Kind::Ai, t0), Err(10));
        // Another kind and another user have their own buckets.
        assert!(l.take_at(1, Kind::Search, t0).is_ok());
        assert!(l.take_at(2, Kind::Ai, t0).is_ok());
        // One call refills every 10 s.
        assert_eq!(l.take_at(1, Kind::Ai, t0 + Duration::from_secs(4)), Err(6));
        assert!(l.take_at(1, Kind::Ai, t0 + Duration::from_secs(10)).is_ok());
        assert!(
            l.take_at(1, Kind::Ai, t0 + Duration::from_secs(10))
                .is_err()
        );
    }

    #[test]
    fn full_buckets_are_dropped_so_memory_stays_bounded() {
        let l = limits(60);
        let t0 = Instant::now();
        for user in 0..PRUNE_AT as u64 {
            l.take_at(user, Kind::Search, t0).unwrap();
        }
        assert_eq!(l.len(), PRUNE_AT);
        // Two seconds later every bucket is full again: they go, the new one stays.
        l.take_at(u64::MAX, Kind::Search, t0 + Duration::from_secs(2))
            .unwrap();
        assert_eq!(l.len(), 1);
    }

    #[test]
    fn the_limited_paths() {
        assert_eq!(kind_of("/api/claude/smart-reply"), Some(Kind::Ai));
        assert_eq!(kind_of("/api/smart/summary"), Some(Kind::Ai));
        assert_eq!(kind_of("/api/search"), Some(Kind::Search));
        assert_eq!(kind_of("/api/sync/refresh"), Some(Kind::Refresh));
        assert_eq!(kind_of("/api/searches"), None);
        assert_eq!(kind_of("/api/settings/claude-api-key"), None);
        assert_eq!(kind_of("/api/emails/inbox"), None);
    }
}
