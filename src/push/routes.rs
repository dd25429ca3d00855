//! `/api/push`: the server's public key and the user's devices; a device subscribes (its
//! browser's subscription), is turned on or off, gets quiet hours, is sent a test, is removed.

use axum::extract::{Path, State};
use axum::routing::{get, patch, post};
use axum::{Json, Router};
use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use super::DEVICES;
use super::ece::{AUTH_LEN, PUBLIC_KEY_LEN};
use super::model::{Device, DeviceView, MAX_DEVICES, MAX_ENDPOINT, MAX_LABEL, Note, Quiet};
use super::notify;
use super::send::Push;
use crate::auth::CurrentUser;
use crate::error::{AppError, Result};
use crate::messages;
use crate::state::AppState;
use crate::store::Store;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/api/push", get(overview))
        .route("/api/push/devices", post(subscribe))
        .route("/api/push/devices/{id}", patch(change).delete(remove))
        .route("/api/push/devices/{id}/test", post(test))
}

/// `GET /api/push`: whether notifications are offered, the key to subscribe with, the devices.
#[derive(Debug, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(rename = "PushOverview")]
pub struct Overview {
    pub enabled: bool,
    /// The server's VAPID public key (base64url): the browser's `applicationServerKey`.
    pub public_key: String,
    pub devices: Vec<DeviceView>,
}

async fn overview(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
) -> Result<Json<Overview>> {
    let push = state.service::<Push>();
    let devices = state
        .store_blocking(move |store| views(store, user.id))
        .await?;
    Ok(Json(Overview {
        enabled: push.enabled(),
        public_key: push.vapid.public_key().to_string(),
        devices,
    }))
}

fn views(store: &Store, user_id: u64) -> Result<Vec<DeviceView>> {
    let all: Vec<Device> = DEVICES.list(store, user_id)?;
    Ok(all.iter().map(DeviceView::from).collect())
}

/// The browser's subscription keys (`PushSubscription.toJSON().keys`).
#[derive(Debug, Deserialize, TS)]
#[ts(rename = "PushKeys")]
pub struct Keys {
    pub p256dh: String,
    pub auth: String,
}

/// `POST /api/push/devices`: this browser's subscription.
#[derive(Debug, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(rename = "PushSubscribeRequest")]
pub struct SubscribeRequest {
    pub endpoint: String,
    pub keys: Keys,
    /// The device's name as the page guessed it ("Chrome, Android").
    #[serde(default)]
    pub label: String,
}

pub fn checked_key(value: &str, len: usize) -> Result<()> {
    match URL_SAFE_NO_PAD.decode(value.trim_end_matches('=')) {
        Ok(bytes) if bytes.len() == len => Ok(()),
        _ => Err(AppError::bad_request(messages::PUSH_KEYS_BAD)),
    }
}

pub fn checked_label(label: &str) -> Result<String> {
    let label = label.trim();
    if label.chars().count() > MAX_LABEL || label.chars().any(char::is_control) {
        return Err(AppError::bad_request(messages::PUSH_LABEL_TOO_LONG));
    }
    Ok(label.to_string())
}

async fn subscribe(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    Json(req): Json<SubscribeRequest>,
) -> Result<Json<DeviceView>> {
    let push = state.service::<Push>();
    if !push.enabled() {
        return Err(AppError::bad_request(messages::PUSH_OFF));
    }
    if req.endpoint.len() > MAX_ENDPOINT {
        return Err(AppError::bad_request(messages::PUSH_ENDPOINT_REFUSED));
    }
    checked_key(&req.keys.p256dh, PUBLIC_KEY_LEN)?;
    checked_key(&req.keys.auth, AUTH_LEN)?;
    let mut req = req;
    req.label = checked_label(&req.label)?;
    push.endpoint_ok(&req.endpoint)
        .await
        .map_err(AppError::bad_request)?;
    let device = state
        .store_blocking(move |store| keep(store, user.id, req, Others::Drop))
        .await?;
    Ok(Json(DeviceView::from(&device)))
}

/// What keeping a subscription does to another user's device with the same push URL.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Others {
    /// Drops it: the browser is now signed in to this user (one browser, one user's
    /// notifications).
    Drop,
    /// Leaves it, and keeps nothing (a backup file may be anyone's: it never takes a device).
    Leave,
}

/// Keeps a subscription: the user's device with this push URL gets the new keys (a browser
/// renews its subscription); `req.label` is checked. Refused when another user's device has
/// the URL and `others` leaves it.
pub fn keep(store: &Store, user_id: u64, req: SubscribeRequest, others: Others) -> Result<Device> {
    let label = req.label;
    let everyone: Vec<(u64, Device)> = DEVICES.everyone(store)?;
    for (other, d) in &everyone {
        if *other != user_id && d.endpoint == req.endpoint {
            if others == Others::Leave {
                return Err(AppError::bad_request(messages::PUSH_ENDPOINT_REFUSED));
            }
            DEVICES.remove(store, *other, d.id)?;
        }
    }
    let p256dh = req.keys.p256dh.trim_end_matches('=').to_string();
    let auth = req.keys.auth.trim_end_matches('=').to_string();
    let mine = everyone
        .into_iter()
        .find(|(u, d)| *u == user_id && d.endpoint == req.endpoint);
    if let Some((_, d)) = mine {
        let updated = DEVICES.update(store, user_id, d.id, |d: &mut Device| {
            d.p256dh = p256dh;
            d.auth = auth;
            d.enabled = true;
            if !label.is_empty() {
                d.label = label;
            }
            Ok(())
        })?;
        return updated.ok_or_else(not_found);
    }
    let endpoint = req.endpoint;
    DEVICES.insert(
        store,
        user_id,
        MAX_DEVICES,
        messages::PUSH_DEVICES_FULL,
        move |id| Device {
            id,
            endpoint,
            p256dh,
            auth,
            label,
            enabled: true,
            quiet: Quiet::default(),
            created: crate::kit::now(),
            last_sent: None,
            last_error: None,
            held: 0,
            held_last: None,
        },
    )
}

fn not_found() -> AppError {
    AppError::NotFound(messages::PUSH_DEVICE_NOT_FOUND.into())
}

/// `PATCH /api/push/devices/{id}`: what is given changes.
#[derive(Debug, Default, Deserialize, TS)]
#[serde(default, rename_all = "camelCase")]
#[ts(rename = "PushDeviceChange", optional_fields)]
pub struct Change {
    pub enabled: Option<bool>,
    pub quiet: Option<Quiet>,
    pub label: Option<String>,
}

async fn change(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    Path(id): Path<u64>,
    Json(req): Json<Change>,
) -> Result<Json<DeviceView>> {
    if req.quiet.as_ref().is_some_and(|q| !q.valid()) {
        return Err(AppError::bad_request(messages::PUSH_QUIET_BAD));
    }
    let label = req.label.as_deref().map(checked_label).transpose()?;
    let device = state
        .store_blocking(move |store| {
            DEVICES
                .update(store, user.id, id, |d: &mut Device| {
                    if let Some(on) = req.enabled {
                        d.enabled = on;
                    }
                    if let Some(q) = req.quiet {
                        d.quiet = q;
                    }
                    if let Some(l) = label {
                        d.label = l;
                    }
                    Ok(())
                })?
                .ok_or_else(not_found)
        })
        .await?;
    // New quiet hours may end (or start) what the job waits for.
    state.jobs().trigger(&state, notify::JOB);
    Ok(Json(DeviceView::from(&device)))
}

async fn remove(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    Path(id): Path<u64>,
) -> Result<Json<Vec<DeviceView>>> {
    let left = state
        .store_blocking(move |store| {
            if !DEVICES.remove(store, user.id, id)? {
                return Err(not_found());
            }
            views(store, user.id)
        })
        .await?;
    Ok(Json(left))
}

/// What a test answers.
#[derive(Debug, Serialize, TS)]
#[ts(rename = "PushTestResponse")]
pub struct TestResponse {
    pub message: String,
}

/// `POST /api/push/devices/{id}/test`: a notification now, whatever the quiet hours.
async fn test(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    Path(id): Path<u64>,
) -> Result<Json<TestResponse>> {
    let device = state
        .store_blocking(move |store| {
            DEVICES
                .get::<Device>(store, user.id, id)?
                .ok_or_else(not_found)
        })
        .await?;
    let note = Note::new(
        messages::PUSH_TEST_TITLE,
        messages::PUSH_TEST_BODY,
        "/#/Settings".into(),
        "test",
    );
    let outcome = state.service::<Push>().deliver(&device, &note, true).await;
    let failure = outcome.failure();
    notify::record(&state, user.id, id, outcome).await?;
    match failure {
        Some(why) => Err(AppError::bad_request(why)),
        None => Ok(Json(TestResponse {
            message: messages::PUSH_TEST_BODY.into(),
        })),
    }
}
