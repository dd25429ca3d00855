//! Sign-in to mailclient itself: users, password hashes, sessions, login throttling and the
//! first-run setup. The HTTP side is in `routes.rs`; the request extractor that checks the
//! session token is `crate::http::auth::CurrentUser`.

pub mod admin;
pub mod password;
pub mod routes;
pub mod sessions;
pub mod setup;
pub mod throttle;
pub mod tokens;
pub mod users;

pub use routes::router;
