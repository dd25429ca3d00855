//! A local OAuth2 authorization server on loopback, standing in for Google's and Microsoft's:
//! RFC 6749 (authorization code with PKCE S256, refresh), RFC 8628 (device authorization,
//! polling with authorization_pending / slow_down / expired_token / access_denied), RFC 7009
//! revocation and RFC 7662 introspection (what Dovecot's `oauth2` passdb asks). Tests run it
//! in-process ([`OAuthServer::start`]); `examples/oauth_stand_in.rs` runs the same code as a
//! process for the web E2E. Every request is counted by kind (`/_stats`), so a test can check
//! that nobody keeps hammering the token endpoint.
//!
//! Clients: [`GOOGLE_CLIENT`] / [`GOOGLE_SECRET`] (confidential; refresh tokens kept),
//! [`MICROSOFT_CLIENT`] (public; each refresh rotates the refresh token and retires the old).
//! Users are whatever name the authorize request's `login_hint` or the device page gives.
//!
//! Control (for tests and E2E): `POST /_revoke_user` (form `username`): every refresh token of
//! the user revoked, as when they remove the app's access in their account; `POST /_settings`
//! (form: `access_ttl`, `reported_ttl`, `deny`): access-token lifetime, the lifetime the token
//! answer claims (a lie, to make a server refuse a token the client thinks is valid), and
//! whether authorize/device approvals are denied; `GET /_stats`; `GET /_device_codes`.
#![allow(dead_code)]

use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::extract::{Form, Query, State};
use axum::http::{StatusCode, header};
use axum::response::{Html, IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use base64::Engine;
use serde_json::{Value, json};
use sha2::{Digest, Sha256};

pub const GOOGLE_CLIENT: &str = "google-test-client";
pub const GOOGLE_SECRET: &str = "google-test-secret";
pub const MICROSOFT_CLIENT: &str = "microsoft-test-client";

struct Code {
    user: String,
    client: String,
    challenge: String,
    redirect_uri: String,
    used: bool,
}

struct Device {
    code: String,
    client: String,
    user: Option<String>,
    denied: bool,
    expires: Instant,
    interval: Duration,
    last_poll: Option<Instant>,
    done: bool,
}

struct Refresh {
    user: String,
    client: String,
    revoked: bool,
}

struct Access {
    user: String,
    refresh: String,
    expires: Instant,
}

#[derive(Default)]
pub struct Inner {
    codes: HashMap<String, Code>,
    /// user code → device authorization.
    devices: HashMap<String, Device>,
    refresh: HashMap<String, Refresh>,
    access: HashMap<String, Access>,
    /// Requests by kind: "token:refresh_token", "token:authorization_code", "token:device_code",
    /// "devicecode", "authorize", "introspect", "revoke", "introspect:active".
    pub stats: HashMap<String, u64>,
    access_ttl: u64,
    reported_ttl: Option<u64>,
    device_ttl: u64,
    device_interval: u64,
    deny: bool,
    /// The next device poll is answered slow_down whatever its timing.
    slow_down_next: bool,
    /// Every token issued (access and refresh), for tests grepping for leaks.
    pub issued: Vec<String>,
}

#[derive(Clone)]
pub struct OAuthServer {
    pub url: String,
    pub inner: Arc<Mutex<Inner>>,
}

fn random() -> String {
    let mut bytes = [0u8; 24];
    getrandom::fill(&mut bytes).unwrap();
    base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(bytes)
}

fn user_code() -> String {
    const LETTERS: &[u8] = b"BCDFGHJKLMNPQRSTVWXZ";
    let mut bytes = [0u8; 8];
    getrandom::fill(&mut bytes).unwrap();
    let s: String = bytes
        .iter()
        .map(|b| LETTERS[*b as usize % LETTERS.len()] as char)
        .collect();
    format!("{}-{}", &s[..4], &s[4..])
}

fn error(status: StatusCode, code: &str) -> Response {
    (status, Json(json!({ "error": code }))).into_response()
}

impl OAuthServer {
    /// Starts on a free loopback port on the current tokio runtime. `device_interval` is the
    /// seconds between device polls it asks for.
    pub async fn start(access_ttl: u64, device_interval: u64) -> Self {
        Self::start_on("127.0.0.1:0".parse().unwrap(), access_ttl, device_interval).await
    }

    pub async fn start_on(addr: SocketAddr, access_ttl: u64, device_interval: u64) -> Self {
        let listener = tokio::net::TcpListener::bind(addr).await.unwrap();
        let url = format!("http://{}", listener.local_addr().unwrap());
        let inner = Arc::new(Mutex::new(Inner {
            access_ttl,
            device_ttl: 600,
            device_interval,
            ..Default::default()
        }));
        let server = Self { url, inner };
        let app = Router::new()
            .route("/authorize", get(authorize))
            .route("/token", post(token))
            .route("/devicecode", post(devicecode))
            .route("/device", get(device_page).post(device_approve))
            .route("/revoke", post(revoke))
            .route("/introspect", post(introspect))
            .route("/_revoke_user", post(revoke_user))
            .route("/_settings", post(settings))
            .route("/_stats", get(stats))
            .route("/_device_codes", get(device_codes))
            .with_state(server.clone());
        tokio::spawn(async move {
            axum::serve(listener, app).await.unwrap();
        });
        server
    }

    pub fn count(&self, kind: &str) -> u64 {
        self.inner
            .lock()
            .unwrap()
            .stats
            .get(kind)
            .copied()
            .unwrap_or(0)
    }

    pub fn issued(&self) -> Vec<String> {
        self.inner.lock().unwrap().issued.clone()
    }

    /// The user's refresh tokens revoked (they removed the app's access).
    pub fn revoke_user(&self, user: &str) {
        let mut inner = self.inner.lock().unwrap();
        let mut gone = Vec::new();
        for (t, r) in inner.refresh.iter_mut() {
            if r.user == user {
                r.revoked = true;
                gone.push(t.clone());
            }
        }
        inner.access.retain(|_, a| !gone.contains(&a.refresh));
    }

    pub fn set_access_ttl(&self, secs: u64, reported: Option<u64>) {
        let mut inner = self.inner.lock().unwrap();
        inner.access_ttl = secs;
        inner.reported_ttl = reported;
    }

    /// Every access token issued so far expires now (the client still thinks it is valid).
    pub fn expire_access_tokens(&self) {
        let now = Instant::now();
        for a in self.inner.lock().unwrap().access.values_mut() {
            a.expires = now;
        }
    }

    pub fn set_device_ttl(&self, secs: u64) {
        self.inner.lock().unwrap().device_ttl = secs;
    }

    /// The next device poll is answered `slow_down` (its interval grows by 5 s).
    pub fn slow_down_next(&self) {
        self.inner.lock().unwrap().slow_down_next = true;
    }

    pub fn set_deny(&self, deny: bool) {
        self.inner.lock().unwrap().deny = deny;
    }

    /// Approves (or denies) the device code `user_code` as `user` (what the user does on the
    /// verification page).
    pub fn approve_device(&self, user_code: &str, user: &str, approve: bool) -> bool {
        let mut inner = self.inner.lock().unwrap();
        match inner.devices.get_mut(user_code) {
            Some(d) => {
                d.user = Some(user.to_string());
                d.denied = !approve;
                true
            }
            None => false,
        }
    }

    /// The users of the currently valid access tokens.
    pub fn active_access_tokens(&self) -> usize {
        let inner = self.inner.lock().unwrap();
        let now = Instant::now();
        inner.access.values().filter(|a| a.expires > now).count()
    }
}

fn bump(inner: &mut Inner, kind: &str) {
    *inner.stats.entry(kind.to_string()).or_default() += 1;
}

fn issue(inner: &mut Inner, user: &str, client: &str, refresh: Option<String>) -> Value {
    let refresh_token = refresh.unwrap_or_else(|| {
        let t = format!("rt-{}", random());
        inner.refresh.insert(
            t.clone(),
            Refresh {
                user: user.to_string(),
                client: client.to_string(),
                revoked: false,
            },
        );
        inner.issued.push(t.clone());
        t
    });
    let access_token = format!("at-{}", random());
    inner.access.insert(
        access_token.clone(),
        Access {
            user: user.to_string(),
            refresh: refresh_token.clone(),
            expires: Instant::now() + Duration::from_secs(inner.access_ttl),
        },
    );
    inner.issued.push(access_token.clone());
    json!({
        "access_token": access_token,
        "token_type": "Bearer",
        "expires_in": inner.reported_ttl.unwrap_or(inner.access_ttl),
        "refresh_token": refresh_token,
        "scope": "mail",
    })
}

async fn authorize(
    State(s): State<OAuthServer>,
    Query(q): Query<HashMap<String, String>>,
) -> Response {
    let mut inner = s.inner.lock().unwrap();
    bump(&mut inner, "authorize");
    let get = |k: &str| q.get(k).cloned().unwrap_or_default();
    let redirect_uri = get("redirect_uri");
    if get("client_id") != GOOGLE_CLIENT || redirect_uri.is_empty() {
        return (StatusCode::BAD_REQUEST, "unknown client or no redirect_uri").into_response();
    }
    if get("response_type") != "code"
        || get("code_challenge_method") != "S256"
        || get("code_challenge").len() < 43
    {
        return (
            StatusCode::BAD_REQUEST,
            "PKCE S256 and response_type=code required",
        )
            .into_response();
    }
    let mut target = url::Url::parse(&redirect_uri).unwrap();
    if inner.deny {
        target
            .query_pairs_mut()
            .append_pair("error", "access_denied")
            .append_pair("state", &get("state"));
    } else {
        let code = format!("code-{}", random());
        inner.codes.insert(
            code.clone(),
            Code {
                user: get("login_hint"),
                client: get("client_id"),
                challenge: get("code_challenge"),
                redirect_uri: redirect_uri.clone(),
                used: false,
            },
        );
        target
            .query_pairs_mut()
            .append_pair("state", &get("state"))
            .append_pair("code", &code)
            .append_pair("scope", &get("scope"));
    }
    (
        StatusCode::SEE_OTHER,
        [(header::LOCATION, target.to_string())],
    )
        .into_response()
}

async fn token(State(s): State<OAuthServer>, Form(f): Form<HashMap<String, String>>) -> Response {
    let mut inner = s.inner.lock().unwrap();
    let get = |k: &str| f.get(k).cloned().unwrap_or_default();
    let grant = get("grant_type");
    match grant.as_str() {
        "authorization_code" => {
            bump(&mut inner, "token:authorization_code");
            if get("client_id") != GOOGLE_CLIENT || get("client_secret") != GOOGLE_SECRET {
                return error(StatusCode::UNAUTHORIZED, "invalid_client");
            }
            let verifier = get("code_verifier");
            let Some(code) = inner.codes.get_mut(&get("code")) else {
                return error(StatusCode::BAD_REQUEST, "invalid_grant");
            };
            let challenge = base64::engine::general_purpose::URL_SAFE_NO_PAD
                .encode(Sha256::digest(verifier.as_bytes()));
            if code.used
                || code.challenge != challenge
                || code.redirect_uri != get("redirect_uri")
                || code.client != get("client_id")
            {
                return error(StatusCode::BAD_REQUEST, "invalid_grant");
            }
            code.used = true;
            let (user, client) = (code.user.clone(), code.client.clone());
            Json(issue(&mut inner, &user, &client, None)).into_response()
        }
        "refresh_token" => {
            bump(&mut inner, "token:refresh_token");
            let rt = get("refresh_token");
            let client = get("client_id");
            if client == GOOGLE_CLIENT && get("client_secret") != GOOGLE_SECRET {
                return error(StatusCode::UNAUTHORIZED, "invalid_client");
            }
            let Some(r) = inner.refresh.get(&rt) else {
                return error(StatusCode::BAD_REQUEST, "invalid_grant");
            };
            if r.revoked || r.client != client {
                return error(StatusCode::BAD_REQUEST, "invalid_grant");
            }
            let user = r.user.clone();
            if client == MICROSOFT_CLIENT {
                // Microsoft rotates refresh tokens: a new one each time, the old one retired
                // (so a client that does not keep the new one is locked out next time).
                inner.refresh.get_mut(&rt).unwrap().revoked = true;
                return Json(issue(&mut inner, &user, &client, None)).into_response();
            }
            let mut answer = issue(&mut inner, &user, &client, Some(rt));
            // Google keeps the refresh token: its answer has none.
            answer.as_object_mut().unwrap().remove("refresh_token");
            Json(answer).into_response()
        }
        "urn:ietf:params:oauth:grant-type:device_code" => {
            bump(&mut inner, "token:device_code");
            let forced = std::mem::take(&mut inner.slow_down_next);
            let code = get("device_code");
            let Some((user_code, d)) = inner.devices.iter_mut().find(|(_, d)| d.code == code)
            else {
                return error(StatusCode::BAD_REQUEST, "invalid_grant");
            };
            let user_code = user_code.clone();
            let now = Instant::now();
            if d.client != get("client_id") {
                return error(StatusCode::BAD_REQUEST, "invalid_client");
            }
            if now >= d.expires {
                return error(StatusCode::BAD_REQUEST, "expired_token");
            }
            let too_soon = d
                .last_poll
                .is_some_and(|t| now.duration_since(t) + Duration::from_millis(200) < d.interval);
            d.last_poll = Some(now);
            if too_soon || forced {
                d.interval += Duration::from_secs(5);
                return error(StatusCode::BAD_REQUEST, "slow_down");
            }
            if d.denied {
                return error(StatusCode::BAD_REQUEST, "access_denied");
            }
            if d.done {
                return error(StatusCode::BAD_REQUEST, "invalid_grant");
            }
            let Some(user) = d.user.clone() else {
                return error(StatusCode::BAD_REQUEST, "authorization_pending");
            };
            d.done = true;
            let client = d.client.clone();
            let _ = user_code;
            Json(issue(&mut inner, &user, &client, None)).into_response()
        }
        _ => {
            bump(&mut inner, "token:other");
            error(StatusCode::BAD_REQUEST, "unsupported_grant_type")
        }
    }
}

async fn devicecode(
    State(s): State<OAuthServer>,
    Form(f): Form<HashMap<String, String>>,
) -> Response {
    let mut inner = s.inner.lock().unwrap();
    bump(&mut inner, "devicecode");
    if f.get("client_id").map(String::as_str) != Some(MICROSOFT_CLIENT) {
        return error(StatusCode::BAD_REQUEST, "invalid_client");
    }
    if !f.get("scope").is_some_and(|s| s.contains("offline_access")) {
        return error(StatusCode::BAD_REQUEST, "invalid_scope");
    }
    let code = format!("dc-{}", random());
    let uc = user_code();
    let (ttl, interval) = (inner.device_ttl, inner.device_interval);
    inner.devices.insert(
        uc.clone(),
        Device {
            code: code.clone(),
            client: MICROSOFT_CLIENT.into(),
            user: None,
            denied: false,
            expires: Instant::now() + Duration::from_secs(ttl),
            interval: Duration::from_secs(interval),
            last_poll: None,
            done: false,
        },
    );
    Json(json!({
        "device_code": code,
        "user_code": uc,
        "verification_uri": format!("{}/device", s.url),
        "expires_in": ttl,
        "interval": interval,
        "message": format!("To sign in, open {}/device and enter the code {uc}.", s.url),
    }))
    .into_response()
}

async fn device_page() -> Html<&'static str> {
    Html(
        r#"<!doctype html><html><head><meta charset="utf-8"><title>Stand-in device sign-in</title></head>
<body><h1>Sign in to the stand-in provider</h1>
<form method="post" action="/device">
<label>Code <input name="user_code" id="user_code" autocomplete="off"></label><br>
<label>Account <input name="username" id="username" value="user1@example.test"></label><br>
<button name="action" value="approve" id="approve">Approve</button>
<button name="action" value="deny" id="deny">Deny</button>
</form></body></html>"#,
    )
}

async fn device_approve(
    State(s): State<OAuthServer>,
    Form(f): Form<HashMap<String, String>>,
) -> Response {
    let get = |k: &str| f.get(k).cloned().unwrap_or_default();
    let code = get("user_code").trim().to_ascii_uppercase();
    let approve = get("action") != "deny";
    if s.approve_device(&code, get("username").trim(), approve) {
        Html(if approve {
            "<!doctype html><p id=\"result\">Approved. You can close this window.</p>"
        } else {
            "<!doctype html><p id=\"result\">Denied.</p>"
        })
        .into_response()
    } else {
        (
            StatusCode::BAD_REQUEST,
            Html("<!doctype html><p id=\"result\">Unknown code.</p>"),
        )
            .into_response()
    }
}

async fn revoke(State(s): State<OAuthServer>, Form(f): Form<HashMap<String, String>>) -> Response {
    let mut inner = s.inner.lock().unwrap();
    bump(&mut inner, "revoke");
    let t = f.get("token").cloned().unwrap_or_default();
    if let Some(r) = inner.refresh.get_mut(&t) {
        r.revoked = true;
        inner.access.retain(|_, a| a.refresh != t);
    } else {
        inner.access.remove(&t);
    }
    StatusCode::OK.into_response()
}

async fn introspect(
    State(s): State<OAuthServer>,
    Form(f): Form<HashMap<String, String>>,
) -> Response {
    let mut inner = s.inner.lock().unwrap();
    bump(&mut inner, "introspect");
    let t = f.get("token").cloned().unwrap_or_default();
    let now = Instant::now();
    match inner.access.get(&t) {
        Some(a) if a.expires > now => {
            let user = a.user.clone();
            bump(&mut inner, "introspect:active");
            Json(json!({ "active": true, "username": user, "scope": "mail" })).into_response()
        }
        _ => {
            bump(&mut inner, "introspect:inactive");
            Json(json!({ "active": false })).into_response()
        }
    }
}

async fn revoke_user(
    State(s): State<OAuthServer>,
    Form(f): Form<HashMap<String, String>>,
) -> StatusCode {
    s.revoke_user(f.get("username").map(String::as_str).unwrap_or_default());
    StatusCode::NO_CONTENT
}

async fn settings(
    State(s): State<OAuthServer>,
    Form(f): Form<HashMap<String, String>>,
) -> StatusCode {
    let mut inner = s.inner.lock().unwrap();
    if let Some(v) = f.get("access_ttl").and_then(|v| v.parse().ok()) {
        inner.access_ttl = v;
    }
    if let Some(v) = f.get("reported_ttl") {
        inner.reported_ttl = v.parse().ok();
    }
    if let Some(v) = f.get("device_ttl").and_then(|v| v.parse().ok()) {
        inner.device_ttl = v;
    }
    if f.contains_key("slow_down_next") {
        inner.slow_down_next = true;
    }
    if let Some(v) = f.get("deny") {
        inner.deny = v == "true" || v == "1";
    }
    StatusCode::NO_CONTENT
}

async fn stats(State(s): State<OAuthServer>) -> Json<Value> {
    Json(json!(s.inner.lock().unwrap().stats))
}

async fn device_codes(State(s): State<OAuthServer>) -> Json<Value> {
    let inner = s.inner.lock().unwrap();
    Json(json!(inner.devices.keys().collect::<Vec<_>>()))
}
