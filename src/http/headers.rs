//! Security headers on every response, API and assets alike; HSTS when `serve` speaks HTTPS
//! itself (behind a TLS proxy, the proxy sends it).

use axum::extract::Request;
use axum::http::{HeaderName, HeaderValue, header};
use axum::middleware::Next;
use axum::response::Response;
use tower::layer::util::Identity;
use tower::util::Either;
use tower_http::set_header::SetResponseHeaderLayer;

/// No inline script anywhere; the app is same-origin only and may not be framed.
///
/// Mail bodies are shown in a sandboxed `srcdoc` frame (no scripts, opaque origin), which
/// inherits this policy. Hence two allowances, both for mail the server already sanitized:
/// `style-src-attr 'unsafe-inline'` for the inline `style` attributes mail layout relies on
/// (filtered to a safe property list; `<style>` elements stay blocked), and remote images
/// (`https:`/`http:`), which the sanitizer replaces with a placeholder unless the user chose to
/// show them. `data:`/`blob:` images are inline attachments and generated previews.
/// `media-src` as `img-src`: the page-builder page's videos play from where its entry points
/// (Builder's CDN); the entry itself comes through our server (`connect-src 'self'`).
/// The installable app's manifest and service worker (`/manifest.webmanifest`, `/sw.js`) are
/// ours only: `manifest-src 'self'`, `worker-src 'self'` (no blob: or data: workers).
pub const CONTENT_SECURITY_POLICY: &str = "default-src 'self'; script-src 'self'; \
style-src 'self'; style-src-elem 'self'; style-src-attr 'unsafe-inline'; \
img-src 'self' data: blob: https: http:; media-src 'self' data: blob: https: http:; \
font-src 'self'; connect-src 'self'; manifest-src 'self'; worker-src 'self'; \
object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

const HEADERS: &[(HeaderName, &str)] = &[
    (header::CONTENT_SECURITY_POLICY, CONTENT_SECURITY_POLICY),
    (header::X_CONTENT_TYPE_OPTIONS, "nosniff"),
    (header::REFERRER_POLICY, "no-referrer"),
    (header::X_FRAME_OPTIONS, "DENY"),
];

pub async fn security_headers(request: Request, next: Next) -> Response {
    let api = request.uri().path().starts_with("/api/");
    let mut response = next.run(request).await;
    let headers = response.headers_mut();
    // Answers of the API are the user's mail and settings: no cache (a shared browser, a
    // proxy) keeps them. A route that set its own policy keeps it.
    if api && !headers.contains_key(header::CACHE_CONTROL) {
        headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    }
    for (name, value) in HEADERS {
        headers.insert(name, HeaderValue::from_static(value));
    }
    headers.insert(
        HeaderName::from_static("cross-origin-opener-policy"),
        HeaderValue::from_static("same-origin"),
    );
    headers.insert(
        HeaderName::from_static("permissions-policy"),
        HeaderValue::from_static("camera=(), microphone=(), geolocation=(), payment=()"),
    );
    response
}

/// A year of HTTPS only (the browser remembers it), when the server has its own certificate.
pub fn hsts(tls: bool) -> Either<SetResponseHeaderLayer<HeaderValue>, Identity> {
    tower::util::option_layer(tls.then(|| {
        SetResponseHeaderLayer::overriding(
            header::STRICT_TRANSPORT_SECURITY,
            HeaderValue::from_static("max-age=31536000"),
        )
    }))
}
