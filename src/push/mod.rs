//! Web Push notifications (issue 39; RFC 8030, 8291, 8292): the server tells a user's phones
//! and computers of new inbox mail (not spam, not ads; many at once as one), a task's reminder,
//! a scheduled send that failed and an auto-reply draft, even with no tab open. Each device
//! subscribes from its settings page and has its own on/off and quiet hours (the night, and
//! Shabbat as the Israeli week's preset); what quiet hours hold comes as one summary when they
//! end. A subscription the push service says is gone (404, 410) is dropped.
//!
//! What leaves the machine: to the browser vendor's push service, a ciphertext only the device
//! can open (the sender's name, the subject and a link; nothing of the body) and the server's
//! VAPID token; the service sees the size and the time.
//!
//! - `model`: the device record, quiet hours, the note.
//! - `quiet`: quiet hours on the user's clock.
//! - `ece`: the payload encryption (RFC 8291). `vapid`: the server's identity (RFC 8292).
//! - `send`: one delivery under the `[push]` outbound policy.
//! - `notify`: what is sent when (the job on new mail, the notices, the held summaries).
//! - `routes`: `/api/push`.

pub mod ece;
pub mod model;
pub mod notify;
pub mod quiet;
pub mod routes;
pub mod send;
pub mod vapid;

use std::sync::Arc;

use redb::WriteTransaction;
use serde::{Deserialize, Serialize};

use crate::feature::{BackupSection, Feature, Notes, Section, need, unless_empty};
use crate::forget::{self, Step};
use crate::jobs::{Event, Spec};
use crate::state::AppState;
use crate::store::per_user::UserRecords;
use model::{Device, Quiet};

/// Push: routes, forget step, backup section, the job (its place in the change log taken
/// before any sync; woken by new mail and by quiet hours' ends), and the notices it follows.
pub static FEATURE: Feature = Feature {
    routes: Some(routes::router),
    wire_types,
    forget: &[Step {
        name: "push devices",
        account: forget::nothing,
        user: forget_user,
    }],
    backup: &[BackupSection::of::<Backup>("pushDevices")],
    jobs: |_| vec![Spec::due(notify::JOB, notify::run).on(Event::NewMail)],
    init: |setup| {
        let vapid = vapid::Vapid::load_or_create(setup.store, setup.key)?;
        setup.provide(Arc::new(send::Push::new(setup.config, vapid)?))
    },
    prepare: |state| notify::join(&state.store),
    start: |state| {
        notify::listen(state);
        Ok(())
    },
    needs: &[need::<send::Push>, need::<crate::notices::Notices>],
    ..Feature::named("push")
};

pub(crate) static DEVICES: UserRecords = UserRecords::new("push_devices", "push_devices");

/// Schema 21: the devices and the server's identity.
pub fn create_tables(txn: &WriteTransaction) -> Result<(), redb::Error> {
    DEVICES.create(txn)?;
    vapid::create_tables(txn)
}

pub fn forget_user(txn: &WriteTransaction, user_id: u64) -> anyhow::Result<()> {
    DEVICES.forget(txn, user_id)
}

/// A device in a backup: its subscription and its choices (what it held and how its last
/// delivery went stay behind).
#[derive(Debug, Serialize, Deserialize)]
struct Saved {
    endpoint: String,
    p256dh: String,
    auth: String,
    label: String,
    enabled: bool,
    quiet: Quiet,
}

/// The settings backup's section: the devices.
struct Backup;

impl Section for Backup {
    type Data = Vec<Saved>;

    fn export(state: &AppState, user_id: u64) -> anyhow::Result<Option<Self::Data>> {
        let all: Vec<Device> = DEVICES.list(&state.store, user_id)?;
        Ok(unless_empty(
            all.into_iter()
                .map(|d| Saved {
                    endpoint: d.endpoint,
                    p256dh: d.p256dh,
                    auth: d.auth,
                    label: d.label,
                    enabled: d.enabled,
                    quiet: d.quiet,
                })
                .collect(),
        ))
    }

    /// Restores each device through the subscription's own checks (a file may be anyone's:
    /// a push URL another user's device has is left out; the push service's address is checked
    /// again at each delivery). A device restored on another server does not get its
    /// notifications until the browser subscribes again (its push service knows this server's
    /// key only): the devices' lines in the settings say so when a delivery fails.
    fn import(state: &AppState, user_id: u64, list: Self::Data) -> anyhow::Result<Notes> {
        let mut notes = Vec::new();
        for s in list.into_iter().take(model::MAX_DEVICES) {
            let ok = s.endpoint.len() <= model::MAX_ENDPOINT
                && (s.endpoint.starts_with("https://") || s.endpoint.starts_with("http://"))
                && s.quiet.valid()
                && routes::checked_key(&s.p256dh, ece::PUBLIC_KEY_LEN).is_ok()
                && routes::checked_key(&s.auth, ece::AUTH_LEN).is_ok();
            let label = routes::checked_label(&s.label);
            let (true, Ok(label)) = (ok, label) else {
                notes.push(crate::messages::PUSH_KEYS_BAD.to_string());
                continue;
            };
            let req = routes::SubscribeRequest {
                endpoint: s.endpoint,
                keys: routes::Keys {
                    p256dh: s.p256dh,
                    auth: s.auth,
                },
                label,
            };
            let (enabled, quiet) = (s.enabled, s.quiet);
            match routes::keep(&state.store, user_id, req, routes::Others::Leave) {
                Ok(d) => {
                    DEVICES.update(&state.store, user_id, d.id, |d: &mut Device| {
                        d.enabled = enabled;
                        d.quiet = quiet;
                        Ok(())
                    })?;
                }
                Err(e) => notes.push(e.user_message()),
            }
        }
        notes.dedup();
        Ok(notes)
    }
}

// This feature's part of the wire contract (see `crate::wire`).
crate::wire_types!(
    model::Span,
    model::Quiet,
    model::DeviceView,
    routes::Overview,
    routes::Keys,
    routes::SubscribeRequest,
    routes::Change,
    routes::TestResponse,
);
