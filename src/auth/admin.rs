//! `/api/admin/users`: user management for admins, while `serve` runs (the `user` CLI needs
//! the server stopped, since the store allows one process). Every route takes `AdminUser`.

use axum::extract::{Path, State};
use axum::routing::{get, put};
use axum::{Json, Router};
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use super::users::{self, NewUser, Role, User, UserChanges};
use crate::auth::AdminUser;
use crate::error::{ApiJson, AppError, Result, Success};
use crate::messages;
use crate::state::AppState;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/api/admin/users", get(list).post(create))
        .route("/api/admin/users/{id}", put(update).delete(remove))
}

/// `GET /api/admin/users` (ordered by id).
#[derive(Serialize, TS)]
pub struct AdminUsersResponse {
    pub success: bool,
    pub users: Vec<User>,
}

/// `POST /api/admin/users`, `PUT /api/admin/users/{id}`: the user as saved.
#[derive(Serialize, TS)]
pub struct AdminUserResponse {
    pub success: bool,
    pub user: User,
}

impl AdminUserResponse {
    fn of(user: User) -> Json<Self> {
        Json(Self {
            success: true,
            user,
        })
    }
}

async fn list(
    State(state): State<AppState>,
    _admin: AdminUser,
) -> Result<Json<AdminUsersResponse>> {
    let users: Vec<User> = users::list(&state.store)?.iter().map(User::from).collect();
    Ok(Json(AdminUsersResponse {
        success: true,
        users,
    }))
}

#[derive(Deserialize, Default, TS)]
#[serde(default)]
#[ts(rename = "CreateUserRequest")]
pub struct CreateRequest {
    username: String,
    name: String,
    password: String,
    /// Absent: a plain user.
    #[ts(optional)]
    role: Option<Role>,
}

async fn create(
    State(state): State<AppState>,
    _admin: AdminUser,
    ApiJson(req): ApiJson<CreateRequest>,
) -> Result<Json<AdminUserResponse>> {
    let store = state.store.clone();
    let user = tokio::task::spawn_blocking(move || {
        users::create(
            &store,
            NewUser {
                username: &req.username,
                name: &req.name,
                password: &req.password,
                role: req.role.unwrap_or(Role::User),
            },
            false,
        )
    })
    .await
    .map_err(AppError::internal)??;
    Ok(AdminUserResponse::of(user))
}

/// Only the fields present change.
#[derive(Deserialize, Default, TS)]
#[serde(default, rename_all = "camelCase")]
#[ts(rename = "UpdateUserRequest", optional_fields)]
pub struct UpdateRequest {
    name: Option<String>,
    role: Option<Role>,
    /// A new password set by the admin; ends the user's sessions.
    password: Option<String>,
}

async fn update(
    State(state): State<AppState>,
    _admin: AdminUser,
    Path(id): Path<u64>,
    ApiJson(req): ApiJson<UpdateRequest>,
) -> Result<Json<AdminUserResponse>> {
    if let Some(password) = req.password.filter(|p| !p.is_empty()) {
        let record = users::get(&state.store, id)?
            .ok_or_else(|| AppError::NotFound(messages::USER_NOT_FOUND.into()))?;
        let store = state.store.clone();
        tokio::task::spawn_blocking(move || {
            users::set_password_of(&store, record, &password, None)
        })
        .await
        .map_err(AppError::internal)??;
    }
    let user = users::update(
        &state.store,
        id,
        UserChanges {
            name: req.name.as_deref(),
            role: req.role,
        },
    )?;
    Ok(AdminUserResponse::of(user))
}

async fn remove(
    State(state): State<AppState>,
    AdminUser(admin): AdminUser,
    Path(id): Path<u64>,
) -> Result<Json<Success>> {
    if id == admin.id {
        return Err(AppError::bad_request(messages::CANNOT_REMOVE_SELF));
    }
    let record = users::get(&state.store, id)?
        .ok_or_else(|| AppError::NotFound(messages::USER_NOT_FOUND.into()))?;
    users::remove_record(&state.store, &state.forget, &record, true)?;
    Ok(Json(Success::YES))
}
