//! Spam and advertisement detection that learns (spec 000 statuses spam, suspicious and
//! advertisement, `spamScore`; spec 001 §3 spam-detection settings, §7 its API, the AI training
//! page's spam tab). Every new mail of an inbox is scored as the sync stores it (`screen`):
//! small checks over a shared context (`mail`, `checks/`), each one concern, summed in points
//! (`engine`), the user's thresholds giving the verdict.
//!
//! - `settings`: the spam-detection settings per user.
//! - `mail`: the shared context (headers, text, HTML, links), bounded.
//! - `checks/`: headers, links, html, content, ads, lists, learned.
//! - `tokens`, `bayes`, `model`: the learning classifier (Robinson/Fisher), its shipped base
//!   model and the user's training. `lr`: the logistic regression beside it over the same
//!   tokens, its shipped weights and the user's steps over them.
//! - `profile`: a user's inputs, cached for [`PROFILE_TTL`].
//! - `screen`: the sync's hook. `learn`: the job that learns from the user's markings and the
//!   training page's examples, and has the AI review suspicious mail. `classify`: 'load and
//!   classify'. `journal`: the activity list and the AI's queue. `routes`: the API.
//!
//! Learning (`learn.rs`): a status change by the user (`Reason::Status`) into spam is learned as
//! spam, out of spam as ham; the training page's examples when they change. Training is kept per
//! user with each mail's tokens (`model.rs`), so a reversed decision moves its tokens and a removed
//! example is unlearned; the regression's online step keeps its gradient, so it is taken back
//! exactly. Neither is in the settings backup (both are rebuilt from the examples and markings).
//! Our own changes to stored mail (classify, the AI's review) are `Reason::Detection`, never
//! learned back, and the engine does not learn from its own verdicts (auto-learning was measured
//! and not a gain: docs/BENCHMARKS.md issue 18). A moved mail's copy keeps its score and ad mark
//! (`Carried`) and is not judged again. The shipped models (`assets/spam-base.zst`,
//! `assets/spam-lr.zst`) come from `scripts/spam-model.sh`; the examples' training keys carry the
//! tokenizer version, so a new tokenizer re-learns them from their text. The tokenizer, the
//! constants and the second learner were chosen by cross-validation (`examples/spam_cv/`).

pub mod bayes;
pub mod checks;
pub mod classify;
pub mod engine;
#[cfg(test)]
mod golden_tests;
pub mod journal;
pub mod learn;
pub mod lr;
pub mod mail;
pub mod model;
pub mod profile;
pub mod routes;
mod screen;
pub mod settings;
pub mod tokens;

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use redb::WriteTransaction;

pub use routes::router;

use crate::error::Result;
use crate::feature::{BackupSection, Feature, Notes, Section, Setup, need};
use crate::forget::{self, Step};
use crate::hooks::{Learner, Screen};
use crate::jobs::{Event, Spec};
use crate::notices::Notices;
use crate::state::AppState;
use crate::store::Store;

/// Spam and advertisement detection: routes, forget step, backup section, the learning job, and
/// the two seams it fills: the sync's look at new mail ([`Screen`]) and learning from the user's
/// triage ([`Learner`], in the marking's own transaction).
pub static FEATURE: Feature = Feature {
    routes: Some(router),
    wire_types,
    forget: &[Step {
        name: "spam detection",
        account: forget::nothing,
        user: forget_user,
    }],
    backup: &[BackupSection::of::<Backup>("spamDetection")],
    jobs: |_| {
        vec![
            Spec::due(learn::JOB, learn::run)
                .on(Event::NewMail)
                .on(Event::TrainingSaved),
        ]
    },
    init,
    needs: &[need::<Spam>, need::<crate::ai::Ai>],
    ..Feature::named("spam")
};

fn init(setup: &mut Setup<'_>) -> anyhow::Result<()> {
    let spam = Spam::new(setup.need::<Notices>()?);
    setup.provide::<dyn Screen>(Arc::new(spam.clone()))?;
    setup.provide::<dyn Learner>(Arc::new(learn::Marking(spam.clone())))?;
    setup.provide(Arc::new(spam))
}

/// How long a user's profile is used before it is read again (changes made elsewhere, such as
/// the AI training page or a new contact, are seen within this).
pub const PROFILE_TTL: Duration = Duration::from_secs(20);

/// A profile and when it was built.
type Cached = (Instant, Arc<profile::Profile>);

/// The feature's service: the cached profiles, the live notices, 'load and classify''s
/// progress.
#[derive(Clone)]
pub struct Spam {
    profiles: Arc<Mutex<HashMap<u64, Cached>>>,
    notices: Arc<Notices>,
    pub(crate) progress: Arc<Mutex<HashMap<u64, classify::Progress>>>,
    /// A stamp of each user's examples as last learned (the job skips unchanged ones).
    pub(crate) examples_seen: Arc<Mutex<HashMap<u64, u64>>>,
}

impl Spam {
    pub fn new(notices: Arc<Notices>) -> Self {
        Self {
            profiles: Default::default(),
            notices,
            progress: Default::default(),
            examples_seen: Default::default(),
        }
    }

    /// The user's profile, from the cache while fresh.
    pub fn profile(&self, store: &Store, user_id: u64) -> Result<Arc<profile::Profile>> {
        if let Some((at, p)) = self.profiles.lock().expect("profiles").get(&user_id)
            && at.elapsed() < PROFILE_TTL
        {
            return Ok(p.clone());
        }
        let p = Arc::new(profile::Profile::build(store, user_id)?);
        self.profiles
            .lock()
            .expect("profiles")
            .insert(user_id, (Instant::now(), p.clone()));
        Ok(p)
    }

    /// Forgets a user's cached profile (their settings or training changed).
    pub fn changed(&self, user_id: u64) {
        self.profiles.lock().expect("profiles").remove(&user_id);
    }
}

/// Schema 13.
pub fn create_tables(txn: &WriteTransaction) -> std::result::Result<(), redb::Error> {
    settings::create_tables(txn)?;
    model::create_tables(txn)?;
    journal::create_tables(txn)
}

/// The user's settings, training, decisions and waiting mail.
pub fn forget_user(txn: &WriteTransaction, user_id: u64) -> anyhow::Result<()> {
    settings::forget_user(txn, user_id)?;
    model::forget_user(txn, user_id)?;
    lr::forget_user(txn, user_id)?;
    journal::forget_user(txn, user_id)
}

/// The settings backup's section: the settings when the user saved their own. (The training,
/// the Bayes counts and the logistic regression's steps alike, is rebuilt from the examples,
/// which the AI training section carries, and the markings, which live in the mailbox.)
struct Backup;

impl Section for Backup {
    type Data = settings::Settings;

    fn export(state: &AppState, user_id: u64) -> anyhow::Result<Option<settings::Settings>> {
        Ok(settings::own(&state.store, user_id)?)
    }

    /// Restores the settings (the AI's part turned on only with a key for it).
    fn import(state: &AppState, user_id: u64, s: settings::Settings) -> anyhow::Result<Notes> {
        let mut s = s.checked()?;
        if s.use_ai && crate::ai::key::user_endpoint(state, user_id).is_err() {
            s.use_ai = false;
        }
        settings::save(&state.store, user_id, &s)?;
        state.service::<Spam>().changed(user_id);
        Ok(Vec::new())
    }
}

// This feature's part of the wire contract (see `crate::wire`).
crate::wire_types!(
    settings::Settings,
    engine::Verdict,
    journal::Decision,
    routes::Saved,
    routes::Breakdown,
    routes::BreakdownHit,
    routes::Activity,
    classify::Progress,
);
