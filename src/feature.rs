//! A feature declares itself once: its [`Feature`] value, in its own folder's `mod.rs`, says
//! what the application needs to know of it (routes, wire types, forget steps, backup sections,
//! jobs, the services and hooks it provides, what it starts). `app::FEATURES` lists them and
//! the application is built by walking that list: adding a feature touches its own folder,
//! `schema.rs` (the migrations stay one ordered list) and the list, nothing else.
//!
//! Services and hooks are found by type in a [`Registry`] that is built once per application
//! (never process-global: two applications in one process share nothing). A feature gets what
//! it needs from the features before it in the list while it is set up ([`Setup::need`]), so a
//! missing one is a start-up error; the seams through which lower rooms call higher ones are
//! collected into one typed [`crate::hooks::Hooks`] at the end.

use std::sync::Arc;

use axum::Router;
use serde_json::Value;

use crate::config::Config;
use crate::crypto::ServerKey;
use crate::forget::{self, Step};
use crate::jobs::Spec;
use crate::mail::hosts::HostPolicy;
use crate::mail::tls::TlsContext;
pub use crate::registry::Registry;
use crate::state::AppState;
use crate::store::Store;

/// What a backup section tells the user about its restore (Hebrew): a part it left out and why.
pub type Notes = Vec<String>;

/// One feature's part of a settings backup: what it saves for a user (None: nothing) and how it
/// puts it back. Both run on the blocking pool. `import` reads a file that may be anyone's: it
/// goes through the same checks and limits as the feature's own routes (one function each, used
/// by both), and says what it left out.
pub struct BackupSection {
    pub name: &'static str,
    pub export: fn(&AppState, u64) -> anyhow::Result<Option<Value>>,
    pub import: fn(&AppState, u64, Value) -> anyhow::Result<Notes>,
}

/// A backup section in its own types ([`BackupSection::of`]): the JSON of the file is read and
/// written once, here, for every section.
pub trait Section {
    /// What the section holds in the file.
    type Data: serde::Serialize + serde::de::DeserializeOwned;
    /// What the section saves for the user (None: nothing to save).
    fn export(state: &AppState, user_id: u64) -> anyhow::Result<Option<Self::Data>>;
    /// Puts the data back (a file that may be anyone's), and says what it left out.
    fn import(state: &AppState, user_id: u64, data: Self::Data) -> anyhow::Result<Notes>;
}

impl BackupSection {
    /// The section `name`, saved and restored by `S`.
    pub const fn of<S: Section>(name: &'static str) -> Self {
        Self {
            name,
            export: export_json::<S>,
            import: import_json::<S>,
        }
    }
}

fn export_json<S: Section>(state: &AppState, user_id: u64) -> anyhow::Result<Option<Value>> {
    Ok(match S::export(state, user_id)? {
        Some(data) => Some(serde_json::to_value(data)?),
        None => None,
    })
}

fn import_json<S: Section>(state: &AppState, user_id: u64, v: Value) -> anyhow::Result<Notes> {
    S::import(state, user_id, serde_json::from_value(v)?)
}

/// A list section's data: none when the list is empty (nothing to save).
pub fn unless_empty<T>(list: Vec<T>) -> Option<Vec<T>> {
    (!list.is_empty()).then_some(list)
}

/// A service a feature finds by type at run time (`AppState::service`): checked when the
/// application starts, so a feature listed without what it uses fails at start-up.
pub type Need = fn(&Registry) -> anyhow::Result<()>;

/// The [`Need`] of a service of type `T`.
pub fn need<T: ?Sized + 'static>(r: &Registry) -> anyhow::Result<()> {
    r.get::<T>().map(|_| ())
}

/// What a feature declares. Build one with [`Feature::named`] and struct update syntax:
/// `Feature { routes: Some(routes::router), ..Feature::named("rules") }`.
pub struct Feature {
    /// For the log and start-up errors.
    pub name: &'static str,
    /// Its HTTP routes, under the request timeout.
    pub routes: Option<fn() -> Router<AppState>>,
    /// Long-lived routes (the live channel), outside the request timeout.
    pub streams: Option<fn() -> Router<AppState>>,
    /// Its part of the wire contract (`crate::wire_types!`).
    pub wire_types: fn(&ts_rs::Config) -> Vec<String>,
    /// Its steps in forgetting an account or a user, run in the list's order.
    pub forget: &'static [Step],
    /// Its sections of a settings backup, restored in the list's order.
    pub backup: &'static [BackupSection],
    /// Its periodic work on the scheduler.
    pub jobs: fn(&Config) -> Vec<Spec<AppState>>,
    /// Builds its services and hooks into the registry (in the list's order).
    pub init: fn(&mut Setup<'_>) -> anyhow::Result<()>,
    /// Runs once the state is built, before the scheduler starts (a change-log reader takes its
    /// place; work cut by a restart is released). Inside the runtime.
    pub prepare: fn(&AppState) -> anyhow::Result<()>,
    /// Starts its long-lived work (`serve` only; tests start what they need).
    pub start: fn(&AppState) -> anyhow::Result<()>,
    /// The services it finds at run time ([`need`]).
    pub needs: &'static [Need],
}

fn no_wire_types(_: &ts_rs::Config) -> Vec<String> {
    Vec::new()
}

fn no_jobs(_: &Config) -> Vec<Spec<AppState>> {
    Vec::new()
}

fn no_init(_: &mut Setup<'_>) -> anyhow::Result<()> {
    Ok(())
}

fn nothing_to_start(_: &AppState) -> anyhow::Result<()> {
    Ok(())
}

impl Feature {
    /// A feature with nothing declared yet.
    pub const fn named(name: &'static str) -> Self {
        Self {
            name,
            routes: None,
            streams: None,
            wire_types: no_wire_types,
            forget: &[],
            backup: &[],
            jobs: no_jobs,
            init: no_init,
            prepare: nothing_to_start,
            start: nothing_to_start,
            needs: &[],
        }
    }
}

/// What a feature's `init` is given: the plumbing every feature may use, and the registry of
/// what the features before it provided.
pub struct Setup<'a> {
    pub config: &'a Config,
    pub store: &'a Store,
    pub key: &'a ServerKey,
    pub tls: &'a TlsContext,
    /// `[mail] allowed_hosts` and `deny_private_ranges`.
    pub hosts: &'a HostPolicy,
    pub(crate) registry: Registry,
    pub(crate) forget_hooks: Vec<Arc<dyn forget::Hooks>>,
    pub(crate) current: &'static str,
}

impl Setup<'_> {
    /// Registers a service or a hook of the feature being set up.
    pub fn provide<T: ?Sized + Send + Sync + 'static>(
        &mut self,
        value: Arc<T>,
    ) -> anyhow::Result<()>
    where
        Arc<T>: Send + Sync,
    {
        self.registry.insert(value, self.current)
    }

    /// Work in memory to stop before an account is forgotten, or to wake after.
    pub fn on_forget(&mut self, hooks: Arc<dyn forget::Hooks>) {
        self.forget_hooks.push(hooks);
    }

    /// What an earlier feature provided (an error at start-up when none did).
    pub fn need<T: ?Sized + 'static>(&self) -> anyhow::Result<Arc<T>> {
        self.registry
            .get::<T>()
            .map_err(|e| e.context(format!("setting up {}", self.current)))
    }
}
