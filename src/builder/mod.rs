//! The page-builder page: Builder.io content entries of model `page`, fetched and cached by the
//! server (so the browser's CSP stays `connect-src 'self'` and a LAN browser never needs
//! Builder's hosts), and the submissions of Builder's form block, delivered from here.
//!
//! Where the server connects: the configured `[builder] base_url` and `form_submit_url` (the
//! admin chose them), and a form's own action URL, which whoever edits the content chose: that
//! one passes the form actions' own policy (`policy.rs`: `[builder] allowed_hosts`, and no
//! loopback, private or link-local address unless `allowed_private_networks` lists it),
//! checked on the name and again on the addresses the connection uses. No redirect is
//! followed. Every answer is bounded in time (`timeout_secs`) and size.

pub mod form;
pub mod policy;
pub mod routes;

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::config::BuilderConfig;
use crate::error::{AppError, Result};
use crate::feature::{Feature, need};
use crate::http::outbound::UrlRefusal;
use crate::messages;
use policy::{ActionPolicy, action_policy};

pub use routes::{router, wire_types};

/// The page-builder page: routes, and the client that fetches entries and delivers forms.
pub static FEATURE: Feature = Feature {
    routes: Some(router),
    wire_types,
    init: |setup| {
        let builder = Builder::new(setup.config.builder.clone())?;
        setup.provide(Arc::new(builder))
    },
    needs: &[need::<Builder>, need::<crate::outgoing::Outbox>],
    ..Feature::named("builder")
};

/// The largest content entry or form answer read from the network.
pub const MAX_ANSWER_BYTES: usize = 4 * 1024 * 1024;
/// Paths kept in the cache at once (the oldest goes first).
const MAX_CACHED: usize = 256;
/// The longest page path asked for.
pub const MAX_PATH_CHARS: usize = 512;
/// The model the page shows (spec 001 §2).
pub const MODEL: &str = "page";

/// The feature's service: the HTTP clients, the settings and the cache of entries.
pub struct Builder {
    /// For the admin's URLs (content API, form-submit).
    http: reqwest::Client,
    /// For form action URLs: resolves names through the host policy.
    forms: reqwest::Client,
    pub config: BuilderConfig,
    actions: ActionPolicy,
    cache: Mutex<HashMap<String, Cached>>,
}

#[derive(Clone)]
struct Cached {
    at: Instant,
    /// `None`: Builder has no entry for the path (the empty page).
    entry: Option<Arc<Value>>,
}

impl Builder {
    pub fn new(config: BuilderConfig) -> anyhow::Result<Self> {
        let actions = action_policy(&config);
        let timeout = Duration::from_secs(config.timeout_secs);
        let base = || {
            reqwest::Client::builder()
                .redirect(reqwest::redirect::Policy::none())
                .connect_timeout(timeout)
                .timeout(timeout)
                .user_agent(concat!("mailclient/", env!("CARGO_PKG_VERSION")))
        };
        let tls = crate::mail::tls::system_https()?;
        Ok(Self {
            http: base().tls_backend_preconfigured(tls).build()?,
            // No proxy, no redirect: the connection goes to the checked addresses only.
            forms: actions.client(timeout, None)?,
            config,
            actions,
            cache: Mutex::new(HashMap::new()),
        })
    }

    pub fn configured(&self) -> bool {
        !self.config.api_key.trim().is_empty()
    }

    /// The entry of model `page` for `url_path`: from the cache when it is younger than
    /// `cache_secs` (unless `fresh`, the editor's preview), else from Builder.
    pub async fn content(&self, url_path: &str, fresh: bool) -> Result<Option<Arc<Value>>> {
        if !self.configured() {
            return Err(AppError::bad_request(messages::BUILDER_NOT_CONFIGURED));
        }
        let ttl = Duration::from_secs(self.config.cache_secs);
        if !fresh && let Some(hit) = self.cached(url_path, ttl) {
            return Ok(hit.entry);
        }
        let entry = self.fetch(url_path, fresh).await?.map(Arc::new);
        let mut cache = self.cache.lock().unwrap_or_else(|e| e.into_inner());
        if cache.len() >= MAX_CACHED
            && !cache.contains_key(url_path)
            && let Some(oldest) = cache
                .iter()
                .min_by_key(|(_, c)| c.at)
                .map(|(k, _)| k.clone())
        {
            cache.remove(&oldest);
        }
        cache.insert(
            url_path.to_string(),
            Cached {
                at: Instant::now(),
                entry: entry.clone(),
            },
        );
        Ok(entry)
    }

    fn cached(&self, url_path: &str, ttl: Duration) -> Option<Cached> {
        let cache = self.cache.lock().unwrap_or_else(|e| e.into_inner());
        cache
            .get(url_path)
            .filter(|c| !ttl.is_zero() && c.at.elapsed() < ttl)
            .cloned()
    }

    /// The content API's URL for a path (`userAttributes.urlPath` is how Builder's SDKs target
    /// a page entry at a URL).
    pub fn content_url(&self, url_path: &str, fresh: bool) -> Result<reqwest::Url> {
        let base = self.config.base_url.trim_end_matches('/');
        let mut url = reqwest::Url::parse(&format!("{base}/api/v3/content/{MODEL}"))
            .map_err(|_| AppError::Upstream(messages::BUILDER_UPSTREAM_UNREACHABLE.into()))?;
        url.query_pairs_mut()
            .append_pair("apiKey", self.config.api_key.trim())
            .append_pair("userAttributes.urlPath", url_path)
            .append_pair("limit", "1")
            .append_pair("includeRefs", "true");
        if fresh {
            url.query_pairs_mut().append_pair("cachebust", "true");
        }
        Ok(url)
    }

    async fn fetch(&self, url_path: &str, fresh: bool) -> Result<Option<Value>> {
        let url = self.content_url(url_path, fresh)?;
        let response = self
            .http
            .get(url)
            .header("accept", "application/json")
            .send()
            .await
            .map_err(|e| upstream_error(&e))?;
        let status = response.status();
        // An unknown model or entry: nothing to show, like an empty result list.
        if status == reqwest::StatusCode::NOT_FOUND {
            return Ok(None);
        }
        if !status.is_success() {
            tracing::warn!(%status, url_path, "builder content API failed");
            return Err(AppError::Upstream(format!(
                "{} ({})",
                messages::BUILDER_UPSTREAM_STATUS,
                status.as_u16()
            )));
        }
        let bytes = read_bounded(response, MAX_ANSWER_BYTES).await?;
        let body: Value = serde_json::from_slice(&bytes)
            .map_err(|_| AppError::Upstream(messages::BUILDER_UPSTREAM_MALFORMED.into()))?;
        let Some(results) = body.get("results").and_then(Value::as_array) else {
            return Err(AppError::Upstream(
                messages::BUILDER_UPSTREAM_MALFORMED.into(),
            ));
        };
        match results.first() {
            None => Ok(None),
            Some(entry) if entry.is_object() => Ok(Some(entry.clone())),
            Some(_) => Err(AppError::Upstream(
                messages::BUILDER_UPSTREAM_MALFORMED.into(),
            )),
        }
    }

    /// Checks a form action URL against the actions' policy before anything is sent (the
    /// resolver checks the addresses again when it connects, and connects to those).
    pub async fn check_action(&self, url: &reqwest::Url) -> Result<()> {
        let refused = || AppError::Forbidden(messages::BUILDER_FORM_HOST_REFUSED.into());
        match self.actions.check_url(url).await {
            Ok(()) => Ok(()),
            Err(UrlRefusal::Malformed) => {
                Err(AppError::bad_request(messages::BUILDER_FORM_BAD_ACTION))
            }
            Err(UrlRefusal::Unresolved) => Err(AppError::Upstream(
                messages::BUILDER_UPSTREAM_UNREACHABLE.into(),
            )),
            Err(UrlRefusal::Host(_)) => Err(refused()),
        }
    }
}

/// The Hebrew reason of a failed request.
pub fn upstream_error(e: &reqwest::Error) -> AppError {
    tracing::warn!(error = %e, "builder request failed");
    AppError::Upstream(
        if e.is_timeout() {
            messages::BUILDER_UPSTREAM_TIMEOUT
        } else {
            messages::BUILDER_UPSTREAM_UNREACHABLE
        }
        .into(),
    )
}

/// Reads a body, refusing one larger than `max` without reading all of it.
pub async fn read_bounded(mut response: reqwest::Response, max: usize) -> Result<Vec<u8>> {
    if response.content_length().is_some_and(|n| n > max as u64) {
        return Err(AppError::Upstream(
            messages::BUILDER_UPSTREAM_TOO_LARGE.into(),
        ));
    }
    let mut out = Vec::new();
    while let Some(chunk) = response.chunk().await.map_err(|e| upstream_error(&e))? {
        if out.len() + chunk.len() > max {
            return Err(AppError::Upstream(
                messages::BUILDER_UPSTREAM_TOO_LARGE.into(),
            ));
        }
        out.extend_from_slice(&chunk);
    }
    Ok(out)
}

/// A page path as the browser sends it: `/`-rooted, bounded, no control characters.
pub fn valid_path(path: &str) -> bool {
    path.starts_with('/')
        && path.chars().count() <= MAX_PATH_CHARS
        && !path.chars().any(char::is_control)
}

/// Finds the block with `id` anywhere in an entry (its blocks, children, variations, and the
/// error/success/sending blocks of forms).
pub fn find_block<'a>(value: &'a Value, id: &str) -> Option<&'a Value> {
    match value {
        Value::Object(map) => {
            if map.get("@type").and_then(Value::as_str) == Some("@builder.io/sdk:Element")
                && map.get("id").and_then(Value::as_str) == Some(id)
            {
                return Some(value);
            }
            map.values().find_map(|v| find_block(v, id))
        }
        Value::Array(items) => items.iter().find_map(|v| find_block(v, id)),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn blocks_are_found_in_children_and_variations() {
        let entry = json!({"data": {"blocks": [
            {"@type": "@builder.io/sdk:Element", "id": "a", "children": [
                {"@type": "@builder.io/sdk:Element", "id": "b"}]}]},
            "variations": {"v1": {"data": {"blocks": [
                {"@type": "@builder.io/sdk:Element", "id": "c"}]}}}});
        assert_eq!(find_block(&entry, "b").unwrap()["id"], "b");
        assert_eq!(find_block(&entry, "c").unwrap()["id"], "c");
        assert!(find_block(&entry, "d").is_none());
        // Something that only looks like a block by its id is not one.
        assert!(find_block(&json!({"id": "x"}), "x").is_none());
    }

    #[test]
    fn paths_are_bounded() {
        assert!(valid_path("/builder-demo"));
        assert!(valid_path("/עמוד"));
        assert!(!valid_path("builder"));
        assert!(!valid_path("/a\nb"));
        assert!(!valid_path(&format!("/{}", "a".repeat(600))));
    }
}
