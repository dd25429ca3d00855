//! The React bundle, embedded in the binary with rust-embed (release builds carry the files;
//! debug builds read them from `web/dist`). `build.rs` points `EMBED_WEB_DIST` at
//! `web/dist`, or at a generated notice page when the web app has not been built.
//!
//! Vite names bundle files by content hash under `assets/`, so those are cached for a year;
//! `index.html` must always be revalidated, and so must the installable app's service worker and
//! manifest (`sw.js`, `manifest.webmanifest`: a deployed version is found by the worker's bytes
//! changing). Any other path gets `index.html` (the app routes
//! in the hash, so this only matters for bookmarks of odd paths). Unknown `/api/...` paths are
//! a JSON 404, never the app.

use axum::body::Body;
use axum::http::{HeaderMap, HeaderValue, StatusCode, Uri, header};
use axum::response::{IntoResponse, Response};
use rust_embed::RustEmbed;

use crate::error::AppError;
use crate::messages;

#[derive(RustEmbed)]
#[folder = "$EMBED_WEB_DIST"]
struct WebDist;

/// Changes whenever the bundle does (see build.rs), so cargo rebuilds with the new files.
pub const WEB_BUILD_STAMP: &str = env!("EMBED_WEB_STAMP");

const IMMUTABLE: &str = "public, max-age=31536000, immutable";
const NO_CACHE: &str = "no-cache";
const SHORT: &str = "public, max-age=3600";
/// Files whose name stays while their content changes with each build.
const REVALIDATED: &[&str] = &["index.html", "sw.js", "manifest.webmanifest"];

pub async fn fallback(uri: Uri, headers: HeaderMap) -> Response {
    let path = uri.path();
    if path == "/api" || path.starts_with("/api/") {
        return AppError::NotFound(messages::NOT_FOUND.into()).into_response();
    }
    let wanted = path.trim_start_matches('/');
    match WebDist::get(wanted).filter(|_| !wanted.is_empty()) {
        Some(file) => {
            let cache = if wanted.starts_with("assets/") {
                IMMUTABLE
            } else if REVALIDATED.contains(&wanted) {
                NO_CACHE
            } else {
                SHORT
            };
            serve(wanted, file, cache, &headers)
        }
        None => match WebDist::get("index.html") {
            Some(index) => serve("index.html", index, NO_CACHE, &headers),
            None => (StatusCode::NOT_FOUND, "web bundle missing").into_response(),
        },
    }
}

fn serve(
    name: &str,
    file: rust_embed::EmbeddedFile,
    cache: &'static str,
    request_headers: &HeaderMap,
) -> Response {
    let etag = format!("\"{}\"", hex::encode(&file.metadata.sha256_hash()[..16]));
    let not_modified = request_headers
        .get(header::IF_NONE_MATCH)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.split(',').any(|t| t.trim() == etag));
    let mut response = if not_modified {
        StatusCode::NOT_MODIFIED.into_response()
    } else {
        Response::new(Body::from(file.data.into_owned()))
    };
    let mime = mime_guess::from_path(name).first_or_octet_stream();
    let content_type = if mime.type_() == "text" || mime.subtype() == "javascript" {
        format!("{mime}; charset=utf-8")
    } else {
        mime.to_string()
    };
    let h = response.headers_mut();
    if let Ok(v) = HeaderValue::from_str(&content_type) {
        h.insert(header::CONTENT_TYPE, v);
    }
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static(cache));
    if let Ok(v) = HeaderValue::from_str(&etag) {
        h.insert(header::ETAG, v);
    }
    response
}
