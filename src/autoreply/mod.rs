//! The AI auto-reply (spec 001 §2 auto-reply card, §3, §4, §5, §7, §8, §9): a monitor on the
//! scheduler that writes reply drafts into the mailbox's Drafts for the mail it should answer
//! and records why it skipped the rest; it never sends by itself.
//!
//! - `settings`: the `autoReply*` fields, defaults and checks, per user.
//! - `facts`: what a mail's headers say (list mail, robots per RFC 3834, spam).
//! - `rules`: the decision, pure (work hours in the user's zone, lists, limits, no-repeat).
//! - `journal`: the waiting mail and the decisions (each mail decided once; the day's counts).
//! - `reply`: the provider's draft, APPENDed once (its Message-ID is derived from the mail).
//! - `monitor`: the job: the change log → waiting mail → decisions.
//! - `routes`: the API.
//!
//! Each mail is decided once (key: account + Message-ID): skipped with a `rules::Reason`, or
//! answered; three failed tries (provider, mailbox) record `failed`. The last 1,000 decisions are
//! kept: the card's activity list (100) and the day's counts behind the daily maximum and
//! no-repeat (days in the user's time zone). With `autoReplyNotifications` on, an answered mail is
//! an `auto_reply` notice to the user's sessions.

pub mod facts;
pub mod journal;
pub mod monitor;
pub mod reply;
pub mod routes;
pub mod rules;
pub mod settings;

use redb::WriteTransaction;

pub use routes::router;

/// The auto-reply: routes, forget step, backup section, and the monitor on the scheduler
/// (its place in the change log taken before any sync).
pub static FEATURE: Feature = Feature {
    routes: Some(router),
    wire_types,
    forget: &[Step {
        name: "auto-reply",
        account: forget::nothing,
        user: forget_user,
    }],
    backup: &[BackupSection::of::<Backup>("autoReply")],
    jobs: |_| vec![Spec::due(monitor::JOB, monitor::run).on(Event::NewMail)],
    prepare: |state| monitor::join(&state.store),
    needs: &[
        need::<crate::notices::Notices>,
        need::<crate::sync::SyncManager>,
        need::<crate::ai::Ai>,
    ],
    ..Feature::named("autoreply")
};

use crate::feature::{BackupSection, Feature, Notes, Section, need};
use crate::forget::{self, Step};
use crate::jobs::{Event, Spec};
use crate::state::AppState;

/// Schema 11.
pub fn create_tables(txn: &WriteTransaction) -> Result<(), redb::Error> {
    settings::create_tables(txn)?;
    journal::create_tables(txn)
}

/// The user's settings, waiting mail and decisions.
pub fn forget_user(txn: &WriteTransaction, user_id: u64) -> anyhow::Result<()> {
    settings::forget_user(txn, user_id)?;
    journal::forget_user(txn, user_id)
}

/// The settings backup's section: the settings when the user changed them.
struct Backup;

impl Section for Backup {
    type Data = settings::Settings;

    fn export(state: &AppState, user_id: u64) -> anyhow::Result<Option<settings::Settings>> {
        let s = settings::load(&state.store, user_id)?.settings;
        Ok((s != settings::Settings::default()).then_some(s))
    }

    /// Restores the settings (turned on only with a key for the monitor, as the card requires).
    fn import(state: &AppState, user_id: u64, s: settings::Settings) -> anyhow::Result<Notes> {
        let mut s = s.checked()?;
        if s.auto_reply_enabled && crate::ai::key::user_endpoint(state, user_id).is_err() {
            s.auto_reply_enabled = false;
        }
        let on = s.auto_reply_enabled;
        settings::update(&state.store, user_id, |stored| {
            if on && !stored.settings.auto_reply_enabled {
                stored.enabled_at = Some(crate::kit::now());
            }
            stored.settings = s;
            Ok(())
        })?;
        Ok(Vec::new())
    }
}

// This feature's part of the wire contract (see `crate::wire`).
crate::wire_types!(
    settings::Tone,
    settings::Length,
    settings::Settings,
    routes::Saved,
    routes::Stats,
    rules::Reason,
    routes::ActivityItem,
    routes::Activity,
    routes::Cleared,
);
