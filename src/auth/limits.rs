//! Per-user rate limits of the calls that cost: AI help (a provider's tokens, often money),
//! search (snippets parse stored mail), "sync now" (a pass over every folder), a rule's
//! preview and "run now" (a pass over the mailbox), the spam check's explanation (the mail
//! parsed and scored again), a contacts import (a vCard file parsed) and the page-builder's
//! form posts and previews (requests to other servers). Each user has a token bucket per kind
//! holding a minute's worth (`[limits]`), refilled evenly; an empty bucket answers 429 with a
//! Hebrew message and Retry-After. In memory: a full bucket is the same as none, so full ones
//! are dropped when the map grows, and it never holds more than a few buckets per user.
//!
//! The AI also has a day's budget per user ([`Kind::AiDaily`], `ai_per_day`): not taken by a
//! route but by every call to a provider (`ai::Ai::complete`), the background ones included
//! (the spam check's AI review, the auto-reply's drafts), so mail from strangers cannot spend
//! more of the household's key than the user could by hand.
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
    /// AI help asked from a page (a minute's worth).
    Ai,
    /// Every AI call, from a page or the background (a day's worth).
    AiDaily,
    Search,
    Refresh,
    /// A rule's preview or "run now".
    Rules,
    /// The spam check's explanation of one mail.
    SpamDebug,
    /// A contacts import.
    ContactsImport,
    /// A page-builder form post, or a preview fetched past the cache.
    Builder,
    /// Saving or opening a settings backup (a password hash each; checked by the backup
    /// routes themselves, only on the calls that hash).
    Backup,
}

/// The limited paths: a prefix when it ends in `/`, else the whole path; `*` stands for one
/// segment (an id).
const LIMITED: &[(&str, Kind)] = &[
    ("/api/claude/", Kind::Ai),
    ("/api/smart/", Kind::Ai),
    ("/api/search", Kind::Search),
    ("/api/sync/refresh", Kind::Refresh),
    ("/api/rules/*/preview", Kind::Rules),
    ("/api/rules/*/run", Kind::Rules),
    ("/api/spam/debug/*", Kind::SpamDebug),
    ("/api/contacts/import", Kind::ContactsImport),
    ("/api/builder/form", Kind::Builder),
];

/// Whether `path` is `pattern` (see [`LIMITED`]).
fn path_matches(pattern: &str, path: &str) -> bool {
    if pattern.ends_with('/') {
        return path.starts_with(pattern);
    }
    let (mut want, mut got) = (pattern.split('/'), path.split('/'));
    loop {
        match (want.next(), got.next()) {
            (None, None) => return true,
            (Some("*"), Some(seg)) if !seg.is_empty() => {}
            (Some(w), Some(g)) if w == g => {}
            _ => return false,
        }
    }
}

/// The kind a request is limited as: by its path, and the page-builder's content only when it
/// asks past the cache (`preview=true`: every one is a request to Builder).
fn kind_of(path: &str, query: Option<&str>) -> Option<Kind> {
    if path == "/api/builder/content" {
        let preview = url::form_urlencoded::parse(query.unwrap_or("").as_bytes())
            .any(|(k, v)| k == "preview" && v == "true");
        return preview.then_some(Kind::Builder);
    }
    LIMITED
        .iter()
        .find_map(|(p, kind)| path_matches(p, path).then_some(*kind))
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

    /// A kind's bucket: what it holds, and what it refills per second.
    fn bucket_of(&self, kind: Kind) -> (f64, f64) {
        let c = &self.config;
        let per_minute = |n: u32| (f64::from(n), f64::from(n) / 60.0);
        match kind {
            Kind::Ai => per_minute(c.ai_per_minute),
            Kind::AiDaily => (f64::from(c.ai_per_day), f64::from(c.ai_per_day) / 86_400.0),
            Kind::Search => per_minute(c.search_per_minute),
            Kind::Refresh => per_minute(c.refresh_per_minute),
            Kind::Rules => per_minute(c.rules_per_minute),
            Kind::SpamDebug => per_minute(c.spam_debug_per_minute),
            Kind::ContactsImport => per_minute(c.contacts_import_per_minute),
            Kind::Builder => per_minute(c.builder_per_minute),
            Kind::Backup => per_minute(c.backup_per_minute),
        }
    }

    /// Takes one call from the user's bucket; `Err(seconds)` until the next one refills.
    pub fn take(&self, user: u64, kind: Kind) -> Result<(), u64> {
        self.take_at(user, kind, Instant::now())
    }

    fn take_at(&self, user: u64, kind: Kind, now: Instant) -> Result<(), u64> {
        let (capacity, per_sec) = self.bucket_of(kind);
        let level = |b: &Bucket| {
            (b.tokens + now.saturating_duration_since(b.at).as_secs_f64() * per_sec).min(capacity)
        };
        let mut buckets = self.buckets.lock().expect("rate limit lock");
        if buckets.len() >= PRUNE_AT {
            buckets.retain(|(_, k), b| {
                let (cap, rate) = self.bucket_of(*k);
                b.tokens + now.saturating_duration_since(b.at).as_secs_f64() * rate < cap
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

/// The 429 of an empty bucket, in Hebrew.
pub fn refused(kind: Kind, retry_after_secs: u64) -> AppError {
    let what = match kind {
        Kind::Ai => messages::AI_CALLS_LIMITED,
        Kind::AiDaily => {
            return AppError::RateLimited {
                retry_after_secs,
                message: messages::ai_budget_spent(retry_after_secs),
            };
        }
        Kind::Search => messages::SEARCHES_LIMITED,
        Kind::Refresh => messages::REFRESHES_LIMITED,
        Kind::Rules => messages::RULE_RUNS_LIMITED,
        Kind::SpamDebug => messages::SPAM_DEBUG_LIMITED,
        Kind::ContactsImport => messages::CONTACT_IMPORTS_LIMITED,
        Kind::Builder => messages::BUILDER_CALLS_LIMITED,
        Kind::Backup => messages::BACKUPS_LIMITED,
    };
    AppError::RateLimited {
        retry_after_secs,
        message: messages::try_again_in(what, retry_after_secs),
    }
}

/// The middleware: the limited paths take from the signed-in user's bucket first.
pub async fn per_user(State(state): State<AppState>, request: Request, next: Next) -> Response {
    let Some(kind) = kind_of(request.uri().path(), request.uri().query()) else {
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
            ai_per_day: per_minute,
            search_per_minute: per_minute,
            refresh_per_minute: per_minute,
            rules_per_minute: per_minute,
            spam_debug_per_minute: per_minute,
            contacts_import_per_minute: per_minute,
            builder_per_minute: per_minute,
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
        let kind = |p: &str| kind_of(p, None);
        assert_eq!(kind("/api/claude/smart-reply"), Some(Kind::Ai));
        assert_eq!(kind("/api/smart/summary"), Some(Kind::Ai));
        assert_eq!(kind("/api/search"), Some(Kind::Search));
        assert_eq!(kind("/api/sync/refresh"), Some(Kind::Refresh));
        assert_eq!(kind("/api/rules/7/preview"), Some(Kind::Rules));
        assert_eq!(kind("/api/rules/7/run"), Some(Kind::Rules));
        assert_eq!(kind("/api/spam/debug/12"), Some(Kind::SpamDebug));
        assert_eq!(kind("/api/contacts/import"), Some(Kind::ContactsImport));
        assert_eq!(kind("/api/builder/form"), Some(Kind::Builder));
        assert_eq!(
            kind_of("/api/builder/content", Some("urlPath=%2Fa&preview=true")),
            Some(Kind::Builder)
        );
        assert_eq!(kind_of("/api/builder/content", Some("urlPath=%2Fa")), None);
        for free in [
            "/api/searches",
            "/api/settings/claude-api-key",
            "/api/emails/inbox",
            "/api/rules",
            "/api/rules/7",
            "/api/rules/7/activity",
            "/api/rules//run",
            "/api/rules/7/run/x",
            "/api/spam/debug",
            "/api/contacts",
        ] {
            assert_eq!(kind(free), None, "{free}");
        }
    }

    #[test]
    fn the_ai_budget_holds_a_day_and_refills_over_it() {
        let l = RateLimits::new(&LimitsConfig {
            ai_per_day: 3,
            ..LimitsConfig::default()
        });
        let t0 = Instant::now();
        for _ in 0..3 {
            l.take_at(1, Kind::AiDaily, t0).unwrap();
        }
        // One call comes back every 8 hours.
        assert_eq!(l.take_at(1, Kind::AiDaily, t0), Err(8 * 3600));
        let later = t0 + Duration::from_secs(8 * 3600);
        assert!(l.take_at(1, Kind::AiDaily, later).is_ok());
        assert!(l.take_at(2, Kind::AiDaily, t0).is_ok(), "per user");
    }
}
