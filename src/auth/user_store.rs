//! [`UserStore`]: the extractor for the many routes that only run one store call for the
//! signed-in user (read the user's list, their settings) and answer what it returns. It is
//! [`CurrentUser`] and the application's state together, with the blocking-pool call that
//! every such route made by hand.

use axum::extract::FromRequestParts;
use axum::http::request::Parts;

use super::CurrentUser;
use super::users::UserRecord;
use crate::error::{AppError, Result};
use crate::state::AppState;
use crate::store::Store;

/// The signed-in user (closed to anonymous callers, as [`CurrentUser`]) and the state.
pub struct UserStore {
    pub state: AppState,
    pub user: UserRecord,
}

impl UserStore {
    /// Runs `f(store, user id)` on the blocking pool (`AppState::store_blocking`).
    pub async fn run<T: Send + 'static>(
        &self,
        f: impl FnOnce(&Store, u64) -> Result<T> + Send + 'static,
    ) -> Result<T> {
        let user_id = self.user.id;
        self.state
            .store_blocking(move |store| f(store, user_id))
            .await
    }
}

impl FromRequestParts<AppState> for UserStore {
    type Rejection = AppError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self> {
        let CurrentUser(user) = CurrentUser::from_request_parts(parts, state).await?;
        Ok(Self {
            state: state.clone(),
            user,
        })
    }
}
