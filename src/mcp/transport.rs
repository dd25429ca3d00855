//! The MCP endpoint (`POST /mcp`): the Streamable HTTP transport of revision 2026-07-28
//! (stateless: every request carries its protocol version and the client's capabilities in
//! `_meta`, mirrored in the `MCP-Protocol-Version`, `Mcp-Method` and `Mcp-Name` headers, which
//! must match the body), and, on the same endpoint, the handshake revisions 2025-03-26,
//! 2025-06-18 and 2025-11-25 (`initialize`, without a session: this server keeps none). Every
//! answer is one JSON object; GET and DELETE are 405 (no stream, no session to end).
//!
//! Before any JSON is read: the `Origin` (a browser's page on another site is refused: DNS
//! rebinding), the token (`Authorization: Bearer mcp_…`, [`super::tokens`]), the user's rate
//! limit (`[limits] mcp_per_minute`) and the body's size. Every request that got that far is
//! logged for the token ([`super::calls`]).

use std::time::Instant;

use axum::Router;
use axum::body::Bytes;
use axum::extract::State;
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::post;
use base64::Engine;
use serde_json::{Value, json};

use super::calls::{self, Call};
use super::protocol::{self, Era, Failure};
use super::tokens::{self, TokenRecord};
use crate::auth::limits::{Kind, RateLimits};
use crate::kit::now;
use crate::state::AppState;

/// The endpoint's path.
pub const ENDPOINT: &str = "/mcp";
/// A request body larger than this is refused (a tool call is a few hundred bytes).
const MAX_BODY: usize = 64 * 1024;

pub const MODERN: &[&str] = &["2026-07-28"];
pub const LEGACY: &[&str] = &["2025-11-25", "2025-06-18", "2025-03-26"];
/// The version a request without the header speaks (2025-06-18 §Protocol Version Header).
const UNNAMED: &str = "2025-03-26";

const META_VERSION: &str = "io.modelcontextprotocol/protocolVersion";
const META_CAPABILITIES: &str = "io.modelcontextprotocol/clientCapabilities";

// JSON-RPC and MCP error codes.
pub const PARSE_ERROR: i64 = -32700;
pub const INVALID_REQUEST: i64 = -32600;
pub const METHOD_NOT_FOUND: i64 = -32601;
pub const INVALID_PARAMS: i64 = -32602;
pub const INTERNAL: i64 = -32603;
const UNAUTHORIZED: i64 = -32001;
const RATE_LIMITED: i64 = -32002;
const HEADER_MISMATCH: i64 = -32020;
const UNSUPPORTED_VERSION: i64 = -32022;

pub fn router() -> Router<AppState> {
    // The path spelled out (= ENDPOINT): tests/auth_sweep.rs reads the routes from the source.
    Router::new().route("/mcp", post(handle).get(not_allowed).delete(not_allowed))
}

/// Every supported version, newest first.
pub fn supported() -> Vec<&'static str> {
    MODERN.iter().chain(LEGACY).copied().collect()
}

async fn not_allowed() -> Response {
    (
        StatusCode::METHOD_NOT_ALLOWED,
        [(header::ALLOW, "POST")],
        axum::Json(error_body(Value::Null, INVALID_REQUEST, "POST only", None)),
    )
        .into_response()
}

fn error_body(id: Value, code: i64, message: &str, data: Option<Value>) -> Value {
    let mut error = json!({"code": code, "message": message});
    if let Some(d) = data {
        error["data"] = d;
    }
    json!({"jsonrpc": "2.0", "id": id, "error": error})
}

fn answer(status: StatusCode, body: Value) -> Response {
    (status, axum::Json(body)).into_response()
}

fn failed(status: StatusCode, id: Value, f: &Failure) -> Response {
    answer(status, error_body(id, f.code, &f.message, f.data.clone()))
}

fn header_str<'a>(h: &'a HeaderMap, name: &str) -> Option<&'a str> {
    h.get(name).and_then(|v| v.to_str().ok()).map(str::trim)
}

/// A browser page of another origin may not call (DNS rebinding): an `Origin` must name this
/// server's host. Agents send none.
fn origin_allowed(h: &HeaderMap) -> bool {
    let Some(origin) = h.get(header::ORIGIN) else {
        return true;
    };
    let (Some(origin), Some(host)) = (
        origin.to_str().ok().and_then(|o| url::Url::parse(o).ok()),
        header_str(h, "host"),
    ) else {
        return false;
    };
    let authority = match (origin.host_str(), origin.port()) {
        (Some(host), Some(port)) => format!("{host}:{port}"),
        (Some(host), None) => host.to_string(),
        _ => return false,
    };
    authority.eq_ignore_ascii_case(host)
}

fn bearer(h: &HeaderMap) -> Option<&str> {
    let raw = header_str(h, "authorization")?;
    raw.strip_prefix("Bearer ")
        .or_else(|| raw.strip_prefix("bearer "))
        .map(str::trim)
}

/// A header value as the spec's `=?base64?…?=` sentinel allows it to be sent.
fn decoded(value: &str) -> Option<String> {
    match value
        .strip_prefix("=?base64?")
        .and_then(|v| v.strip_suffix("?="))
    {
        Some(b64) => base64::engine::general_purpose::STANDARD
            .decode(b64)
            .ok()
            .and_then(|b| String::from_utf8(b).ok()),
        None => Some(value.to_string()),
    }
}

/// The modern request's headers against its body (2026-07-28 §Server Validation).
fn check_headers(h: &HeaderMap, version: &str, method: &str, params: &Value) -> Result<(), String> {
    if header_str(h, "mcp-protocol-version") != Some(version) {
        return Err("MCP-Protocol-Version does not match _meta".into());
    }
    if header_str(h, "mcp-method") != Some(method) {
        return Err("Mcp-Method does not match the body's method".into());
    }
    let named = match method {
        "tools/call" | "prompts/get" => params.get("name"),
        "resources/read" => params.get("uri"),
        _ => None,
    };
    if let Some(name) = named {
        let header = header_str(h, "mcp-name").and_then(decoded);
        if header.as_deref() != name.as_str() {
            return Err("Mcp-Name does not match the body".into());
        }
    }
    Ok(())
}

/// `POST /mcp`.
async fn handle(State(state): State<AppState>, headers: HeaderMap, body: Bytes) -> Response {
    if !origin_allowed(&headers) {
        return answer(
            StatusCode::FORBIDDEN,
            error_body(Value::Null, INVALID_REQUEST, "Origin not allowed", None),
        );
    }
    let token = match bearer(&headers) {
        Some(secret) => {
            let secret = secret.to_string();
            state
                .store_blocking(move |store| tokens::authenticate(store, &secret))
                .await
                .ok()
                .flatten()
        }
        None => None,
    };
    let Some(token) = token else {
        let mut r = answer(
            StatusCode::UNAUTHORIZED,
            error_body(
                Value::Null,
                UNAUTHORIZED,
                crate::messages::MCP_TOKEN_INVALID,
                None,
            ),
        );
        r.headers_mut().insert(
            header::WWW_AUTHENTICATE,
            HeaderValue::from_static("Bearer realm=\"mailclient\""),
        );
        return r;
    };
    if let Err(secs) = state.service::<RateLimits>().take(token.user_id, Kind::Mcp) {
        let message = crate::auth::limits::refused(Kind::Mcp, secs).user_message();
        let mut r = answer(
            StatusCode::TOO_MANY_REQUESTS,
            error_body(Value::Null, RATE_LIMITED, &message, None),
        );
        r.headers_mut()
            .insert(header::RETRY_AFTER, HeaderValue::from(secs));
        return r;
    }
    if body.len() > MAX_BODY {
        return answer(
            StatusCode::PAYLOAD_TOO_LARGE,
            error_body(Value::Null, INVALID_REQUEST, "request too large", None),
        );
    }
    let started = Instant::now();
    let msg: Value = match serde_json::from_slice(&body) {
        Ok(v) => v,
        Err(_) => {
            return answer(
                StatusCode::BAD_REQUEST,
                error_body(Value::Null, PARSE_ERROR, "Parse error", None),
            );
        }
    };
    let (response, call) = one(&state, &headers, &token, msg).await;
    if let Some((method, target, outcome)) = call {
        let entry = Call {
            token: token.id,
            at: now(),
            method,
            target,
            ok: outcome.is_none(),
            error: outcome,
            millis: started.elapsed().as_millis().min(u128::from(u32::MAX)) as u32,
        };
        let user = token.user_id;
        let logged = state
            .store_blocking(move |store| calls::log(store, user, entry))
            .await;
        if logged.is_err() {
            tracing::warn!("cannot log an MCP call");
        }
    }
    response
}

/// The revision a request speaks, checked: the modern one's `_meta` and headers (2026-07-28
/// §Server Validation), or a handshake revision the server knows; else the 400's error.
fn era_of(headers: &HeaderMap, method: &str, params: &Value) -> Result<Era, Failure> {
    let meta = params.get("_meta");
    let unsupported = |requested: &str| Failure {
        code: UNSUPPORTED_VERSION,
        message: "Unsupported protocol version".into(),
        data: Some(json!({"supported": supported(), "requested": requested})),
    };
    let Some(v) = meta
        .and_then(|m| m.get(META_VERSION))
        .and_then(Value::as_str)
    else {
        let version = header_str(headers, "mcp-protocol-version").unwrap_or(UNNAMED);
        if !LEGACY.contains(&version) && method != "initialize" {
            return Err(unsupported(version));
        }
        return Ok(Era::Legacy);
    };
    if !MODERN.contains(&v) {
        return Err(unsupported(v));
    }
    check_headers(headers, v, method, params)
        .map_err(|why| Failure::new(HEADER_MISMATCH, format!("Header mismatch: {why}")))?;
    if !meta
        .and_then(|m| m.get(META_CAPABILITIES))
        .is_some_and(Value::is_object)
    {
        return Err(Failure::new(
            INVALID_PARAMS,
            "_meta lacks clientCapabilities",
        ));
    }
    Ok(Era::Modern)
}

/// What one message's call logs: method, target, and the failure (None: it worked).
type Logged = Option<(String, String, Option<String>)>;

/// One JSON-RPC message: its response, and what to log.
async fn one(
    state: &AppState,
    headers: &HeaderMap,
    token: &TokenRecord,
    msg: Value,
) -> (Response, Logged) {
    let bad = |code, text: &str| {
        (
            answer(
                StatusCode::BAD_REQUEST,
                error_body(Value::Null, code, text, None),
            ),
            None,
        )
    };
    let Some(obj) = msg.as_object() else {
        return bad(
            INVALID_REQUEST,
            "one JSON-RPC message per request (no batches)",
        );
    };
    if obj.get("jsonrpc").and_then(Value::as_str) != Some("2.0") {
        return bad(INVALID_REQUEST, "not JSON-RPC 2.0");
    }
    let Some(method) = obj.get("method").and_then(Value::as_str) else {
        // A response: this server never asks the client anything.
        return bad(INVALID_REQUEST, "no method");
    };
    let params = obj.get("params").cloned().unwrap_or(json!({}));
    let Some(id) = obj.get("id").cloned() else {
        // A notification (initialized, cancelled): nothing to answer.
        return (StatusCode::ACCEPTED.into_response(), None);
    };
    if !(id.is_string() || id.is_i64() || id.is_u64()) {
        return bad(INVALID_REQUEST, "bad id");
    }
    let era = match era_of(headers, method, &params) {
        Ok(era) => era,
        Err(f) => return (failed(StatusCode::BAD_REQUEST, id, &f), None),
    };
    let target = protocol::target(method, &params);
    let outcome = protocol::dispatch(state, token, era, method, &params).await;
    let logged = |error: Option<String>| Some((method.to_string(), target.clone(), error));
    match outcome {
        Ok(result) => {
            let error = protocol::tool_error(&result);
            (
                answer(
                    StatusCode::OK,
                    json!({"jsonrpc": "2.0", "id": id, "result": result}),
                ),
                logged(error),
            )
        }
        Err(f) => {
            // A modern server answers an unknown method with 404 (2026-07-28 §Request
            // Metadata); every other failure of a well-formed request is a JSON-RPC error.
            let status = if era == Era::Modern && f.code == METHOD_NOT_FOUND {
                StatusCode::NOT_FOUND
            } else {
                StatusCode::OK
            };
            let message = f.message.clone();
            (failed(status, id, &f), logged(Some(message)))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(pairs: &[(&'static str, &str)]) -> HeaderMap {
        let mut h = HeaderMap::new();
        for (k, v) in pairs {
            h.insert(*k, HeaderValue::from_str(v).unwrap());
        }
        h
    }

    #[test]
    fn only_this_server_s_own_pages_may_send_an_origin() {
        assert!(origin_allowed(&headers(&[("host", "mail.home:8080")])));
        assert!(origin_allowed(&headers(&[
            ("host", "mail.home:8080"),
            ("origin", "http://mail.home:8080")
        ])));
        assert!(!origin_allowed(&headers(&[
            ("host", "mail.home:8080"),
            ("origin", "http://evil.example")
        ])));
        assert!(!origin_allowed(&headers(&[
            ("host", "127.0.0.1:8080"),
            ("origin", "null")
        ])));
    }

    #[test]
    fn modern_headers_must_match_the_body() {
        let params = json!({"name": "search_mail"});
        let ok = headers(&[
            ("mcp-protocol-version", "2026-07-28"),
            ("mcp-method", "tools/call"),
            ("mcp-name", "search_mail"),
        ]);
        assert!(check_headers(&ok, "2026-07-28", "tools/call", &params).is_ok());
        let b64 = headers(&[
            ("mcp-protocol-version", "2026-07-28"),
            ("mcp-method", "tools/call"),
            ("mcp-name", "=?base64?c2VhcmNoX21haWw=?="),
        ]);
        assert!(check_headers(&b64, "2026-07-28", "tools/call", &params).is_ok());
        let wrong = headers(&[
            ("mcp-protocol-version", "2026-07-28"),
            ("mcp-method", "tools/call"),
            ("mcp-name", "read_email"),
        ]);
        assert!(check_headers(&wrong, "2026-07-28", "tools/call", &params).is_err());
        let missing = headers(&[("mcp-protocol-version", "2026-07-28")]);
        assert!(check_headers(&missing, "2026-07-28", "tools/list", &json!({})).is_err());
    }
}
