//! The React bundle, embedded in the binary with rust-embed. `build.rs` points
//! `EMBED_WEB_DIST` at a release build's gzip copy of `web/dist` (`<name>.gz` for each file gzip
//! shrinks, `bundle_gzip.rs`), at `web/dist` itself for a debug build (read at run time and
//! compressed on the fly by the same rule), or at a generated notice page when the web app has
//! not been built. A browser that accepts gzip gets those bytes as they are; any other client
//! gets them inflated.
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
    match find(wanted).filter(|_| !wanted.is_empty()) {
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
        None => match find("index.html") {
            Some(index) => serve("index.html", index, NO_CACHE, &headers),
            None => (StatusCode::NOT_FOUND, "web bundle missing").into_response(),
        },
    }
}

/// A bundle file as embedded: its bytes, and whether they are gzip.
struct Found {
    file: rust_embed::EmbeddedFile,
    gzip: bool,
}

fn find(name: &str) -> Option<Found> {
    if let Some(file) = WebDist::get(&format!("{name}.gz")) {
        return Some(Found { file, gzip: true });
    }
    let file = WebDist::get(name)?;
    #[cfg(debug_assertions)]
    if let Some(gz) = super::bundle_gzip::gzip_if_smaller(&file.data, 1) {
        let file = rust_embed::EmbeddedFile {
            data: gz.into(),
            metadata: file.metadata,
        };
        return Some(Found { file, gzip: true });
    }
    Some(Found { file, gzip: false })
}

/// Whether the request's `Accept-Encoding` takes gzip: named with a q above zero, or, when
/// gzip is not named, `*` with a q above zero (RFC 9110: a coding named explicitly wins).
fn accepts_gzip(headers: &HeaderMap) -> bool {
    let (mut gzip, mut any) = (None, None);
    for coding in headers
        .get_all(header::ACCEPT_ENCODING)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
    {
        let mut parts = coding.split(';').map(str::trim);
        let name = parts.next().unwrap_or("");
        let taken = !parts.any(|p| {
            p.strip_prefix("q=")
                .and_then(|q| q.trim().parse::<f32>().ok())
                .is_some_and(|q| q <= 0.0)
        });
        if name.eq_ignore_ascii_case("gzip") || name.eq_ignore_ascii_case("x-gzip") {
            gzip = Some(taken);
        } else if name == "*" {
            any = Some(taken);
        }
    }
    gzip.or(any).unwrap_or(false)
}

fn inflate(gz: &[u8]) -> Option<Vec<u8>> {
    let mut out = Vec::with_capacity(gz.len() * 4);
    std::io::Read::read_to_end(&mut flate2::read::GzDecoder::new(gz), &mut out).ok()?;
    Some(out)
}

fn serve(name: &str, found: Found, cache: &'static str, request_headers: &HeaderMap) -> Response {
    let Found { file, gzip } = found;
    let send_gzip = gzip && accepts_gzip(request_headers);
    // The two encodings of one file are two representations: each has its own tag.
    let suffix = if gzip && !send_gzip { "-identity" } else { "" };
    let etag = format!(
        "\"{}{suffix}\"",
        hex::encode(&file.metadata.sha256_hash()[..16])
    );
    let not_modified = request_headers
        .get(header::IF_NONE_MATCH)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.split(',').any(|t| t.trim() == etag));
    let mut response = if not_modified {
        StatusCode::NOT_MODIFIED.into_response()
    } else if gzip && !send_gzip {
        match inflate(&file.data) {
            Some(raw) => Response::new(Body::from(raw)),
            None => return (StatusCode::INTERNAL_SERVER_ERROR, "bad bundle file").into_response(),
        }
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
    if gzip {
        h.insert(header::VARY, HeaderValue::from_static("accept-encoding"));
    }
    if send_gzip && !not_modified {
        h.insert(header::CONTENT_ENCODING, HeaderValue::from_static("gzip"));
    }
    if let Ok(v) = HeaderValue::from_str(&etag) {
        h.insert(header::ETAG, v);
    }
    response
}
