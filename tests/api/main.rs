//! The HTTP API through `app()` with `oneshot`: error shapes, authentication, first run,
//! sign-in, throttling, security headers and the embedded web app.

#[path = "../common/mod.rs"]
mod common;

use axum::body::Body;
use axum::http::Request;
use common::{TestApp, body_text};
use serde_json::json;

const HEBREW_BAD_LOGIN: &str = "שם משתמש או סיסמה שגויים";

mod basics;
mod shell;
mod signin;
mod users;
