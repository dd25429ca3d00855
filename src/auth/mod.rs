//! Sign-in to mailclient itself: users, password hashes, sessions, login throttling and the
//! first-run setup. The HTTP side is in `routes.rs`; the request extractor that checks the
//! session token is `crate::auth::CurrentUser`.

pub mod admin;
pub mod extract;
pub mod limits;
pub mod password;
pub mod proxies;
pub mod routes;
pub mod sessions;
pub mod setup;
pub mod throttle;
pub mod tokens;
pub mod users;

pub use extract::{AdminUser, ClientAddr, CurrentUser, Session};
pub use routes::router;

// This feature's part of the wire contract (see `crate::wire`).
crate::wire_types!(
    users::Role,
    users::User,
    routes::LoginRequest,
    routes::LoginResponse,
    routes::MeResponse,
    routes::PasswordRequest,
    routes::SetupStatusResponse,
    routes::SetupRequest,
    routes::SetupAdminResponse,
    admin::AdminUsersResponse,
    admin::CreateRequest,
    admin::UpdateRequest,
    admin::AdminUserResponse,
);
