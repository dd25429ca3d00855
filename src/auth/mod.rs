//! Sign-in to mailclient itself: users, password hashes, sessions, login throttling and the
//! first-run setup. The HTTP side is in `routes.rs`; the request extractor that checks the
//! session token is `crate::auth::CurrentUser`.
//!
//! The access check is the extractor: a handler that takes `CurrentUser` (or `AdminUser`) is
//! signed in, one without is public, and only health, login and the first-run setup are
//! (`tests/auth_sweep.rs` fails on a route missing from its table). No more password hashes run at
//! once than there are cores (`password::bounded`; the backups' key derivation uses it too); a
//! password change is throttled like a login.

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
mod user_store;
pub mod users;

use std::sync::Arc;
use std::time::Duration;

pub use extract::{AdminUser, ClientAddr, CurrentUser, Session};
pub use routes::router;
pub use user_store::UserStore;

use crate::config::Config;
use crate::feature::{Feature, Setup, need};
use crate::forget::{self, Step};
use crate::jobs::Spec;
use crate::state::AppState;

/// Sign-in: its routes, the sessions' sweep, and the guards every request passes.
pub static FEATURE: Feature = Feature {
    routes: Some(router),
    wire_types,
    forget: &[Step {
        name: "sessions",
        account: forget::nothing,
        user: sessions::forget_user,
    }],
    jobs,
    init,
    needs: &[
        need::<throttle::LoginThrottle>,
        need::<setup::SetupGate>,
        need::<proxies::TrustedProxies>,
        need::<limits::RateLimits>,
    ],
    ..Feature::named("auth")
};

fn init(setup: &mut Setup<'_>) -> anyhow::Result<()> {
    let auth = &setup.config.auth;
    let throttle = throttle::LoginThrottle::new(
        auth.max_failed_logins,
        Duration::from_secs(auth.lockout_minutes * 60),
    );
    setup.provide(Arc::new(throttle))?;
    setup.provide(Arc::new(setup::SetupGate::for_store(setup.store)?))?;
    let proxies = proxies::TrustedProxies::new(&setup.config.server.trusted_proxies);
    setup.provide(Arc::new(proxies))?;
    setup.provide(Arc::new(limits::RateLimits::new(&setup.config.limits)))
}

fn jobs(_: &Config) -> Vec<Spec<AppState>> {
    vec![Spec::new(
        sessions::SWEEP,
        Duration::from_secs(3600),
        sessions::sweep_job,
    )]
}

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
