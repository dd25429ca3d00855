//! Sign-in to mailclient itself: users, password hashes, sessions, login throttling and the
//! first-run setup. The HTTP side is in `routes.rs`; the request extractor that checks the
//! session token is `crate::auth::CurrentUser`.

pub mod admin;
pub mod extract;
pub mod password;
pub mod routes;
pub mod sessions;
pub mod setup;
pub mod throttle;
pub mod tokens;
pub mod users;

pub use extract::{AdminUser, ClientAddr, CurrentUser, Session};
pub use routes::router;

/// This feature's part of the wire contract (see `crate::wire`).
pub fn wire_types(cfg: &ts_rs::Config) -> Vec<String> {
    use crate::wire::export;
    vec![
        export::<users::Role>(cfg),
        export::<users::User>(cfg),
        export::<routes::LoginRequest>(cfg),
        export::<routes::LoginResponse>(cfg),
        export::<routes::MeResponse>(cfg),
        export::<routes::PasswordRequest>(cfg),
        export::<routes::SetupStatusResponse>(cfg),
        export::<routes::SetupRequest>(cfg),
        export::<routes::SetupAdminResponse>(cfg),
        export::<admin::AdminUsersResponse>(cfg),
        export::<admin::CreateRequest>(cfg),
        export::<admin::UpdateRequest>(cfg),
        export::<admin::AdminUserResponse>(cfg),
    ]
}
