//! The user's preferences, kept on the server and synced live between their sessions (spec 001
//! §3 "Settings object", §4 sync states, §7 "Settings sync"): `prefs.rs` (the keys, defaults
//! and checks), `versions.rs` (versions, conflicts, history, restore), `device.rs` (who changed
//! it), `routes.rs` (the API). Saved changes and lost races go out on [`SettingsFeed`]; the
//! live channel forwards them to the user's sessions.

pub mod device;
pub mod prefs;
pub mod routes;
pub mod versions;

use tokio::sync::broadcast;

pub use prefs::Preferences;
pub use routes::router;
pub use versions::{create_tables, forget_user};

use crate::feature::{BackupSection, Feature, need};
use crate::forget::{self, Step};

/// The preferences: routes, their step in forgetting, their backup section, and the feed of
/// changes the live channel forwards.
pub static FEATURE: Feature = Feature {
    routes: Some(router),
    wire_types,
    forget: &[Step {
        name: "preferences and their history",
        account: forget::nothing,
        user: forget_user,
    }],
    backup: &[BackupSection {
        name: "preferences",
        export: backup_export,
        import: backup_import,
    }],
    init: |setup| setup.provide(std::sync::Arc::new(SettingsFeed::default())),
    needs: &[need::<SettingsFeed>],
    ..Feature::named("settings")
};

/// What a session hears about its user's preferences.
#[derive(Debug, Clone)]
pub enum Event {
    /// A saved change: for every session of the user but the one that made it.
    Changed(routes::SettingsChanged),
    /// A refused stale change: for the session that sent it only.
    Conflict(routes::SettingsConflictResponse),
}

#[derive(Debug, Clone)]
pub struct FeedItem {
    pub user_id: u64,
    /// `auth::sessions::public_id` of the session that made the change.
    pub session: String,
    pub event: Event,
}

/// The broadcast of settings events (a service of the state).
pub struct SettingsFeed(broadcast::Sender<FeedItem>);

impl Default for SettingsFeed {
    fn default() -> Self {
        Self(broadcast::channel(256).0)
    }
}

impl SettingsFeed {
    pub fn subscribe(&self) -> broadcast::Receiver<FeedItem> {
        self.0.subscribe()
    }

    pub fn send(&self, user_id: u64, session: &str, event: Event) {
        // No live session listening is fine: they read the settings when they open.
        let _ = self.0.send(FeedItem {
            user_id,
            session: session.to_string(),
            event,
        });
    }
}

/// The user's preferences (the defaults until first changed).
pub fn load(store: &crate::store::Store, user_id: u64) -> crate::error::Result<Preferences> {
    Ok(versions::current(store, user_id)?.values)
}

/// The preferences' part of a settings backup: the whole object, defaults included, so a
/// restore brings back exactly what the user had.
pub fn backup_export(
    state: &crate::state::AppState,
    user_id: u64,
) -> anyhow::Result<Option<serde_json::Value>> {
    let current = versions::current(&state.store, user_id)?;
    Ok(Some(serde_json::to_value(current.values)?))
}

/// Restores the preferences as a new version, which the user's sessions hear of.
pub fn backup_import(
    state: &crate::state::AppState,
    user_id: u64,
    v: serde_json::Value,
) -> anyhow::Result<crate::backup::Notes> {
    let values: Preferences = serde_json::from_value(v)?;
    let mut update = serde_json::Map::new();
    for (k, v) in values.to_map() {
        // Each value passes the same checks as a change sent by the page.
        let checked = prefs::checked_update(&serde_json::json!({ k.clone(): v }))?;
        update.extend(checked);
    }
    let now = crate::kit::now_rfc3339();
    let outcome = versions::apply(
        &state.store,
        user_id,
        versions::Change {
            update,
            settings_type: "general",
            base_version: None,
            changed_by: crate::messages::RESTORED_FROM_BACKUP,
            timestamp: &now,
        },
    )?;
    if let versions::Outcome::Saved { version, .. } = outcome {
        state.service::<SettingsFeed>().send(
            user_id,
            "",
            Event::Changed(routes::changed_event(&version)),
        );
    }
    Ok(Vec::new())
}

crate::wire_types!(
    Preferences,
    prefs::SettingsType,
    routes::SettingsSyncResponse,
    routes::SettingsSyncRequest,
    routes::ConflictView,
    routes::SettingsConflictResponse,
    routes::SettingsChanged,
    routes::SettingsHistoryEntry,
    routes::SettingsHistoryResponse,
    routes::SettingsRollbackRequest,
    routes::SettingsRollbackResponse,
);
