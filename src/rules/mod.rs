//! Rules and filters (spec 001 §2 Rules page, §3 Rule, §4 switch, §5 name required), made to
//! run: conditions (from, to/cc, subject, body, sender domain, attachment, list mail, size, a
//! header) matched all or any, and actions (status, move to a folder, label as an IMAP keyword,
//! read, starred, forward, Trash), applied on the server to each new INBOX mail, in order, with
//! or without a browser open; every action recorded in the rule's activity.
//!
//! - `model`: rules, their parts and checks.
//! - `matching`: a mail against the conditions (folded Hebrew, like search).
//! - `actions`: carrying out the actions through triage, flags and the outbox.
//! - `forwarding`: what keeps forwards from looping and amplifying (marks, own mail, a daily
//!   cap, confirmed addresses).
//! - `folders`: a rule's folder follows its renames; a deleted one is shown as missing.
//! - `runner`: the job on the change log, and "run now" on existing mail.
//! - `routes`: `/api/rules/*`.
//!
//! A rule's move or delete goes last (the other actions change the mail where it is); a rule
//! with `stop` ends the rules after it for that mail. A mail is forwarded at most once, and the
//! change log is acked past it at once so a restart does not forward it again. The last 1,000
//! matches a user's rules made are kept as activity; "run now" previews its count over the
//! newest 5,000 inbox mails, then applies.

pub mod actions;
pub mod folders;
pub mod forwarding;
pub mod matching;
pub mod model;
pub mod routes;
pub mod runner;

use redb::WriteTransaction;
use serde::{Deserialize, Serialize};

pub use model::{Rule, RuleInput};
pub use routes::router;

/// Rules: routes, forget step, backup section, and the runner on the scheduler (its place in
/// the change log taken before any sync).
pub static FEATURE: Feature = Feature {
    routes: Some(router),
    wire_types,
    forget: &[Step {
        name: "rules",
        account: forget::nothing,
        user: forget_user,
    }],
    backup: &[BackupSection::of::<Backup>("rules")],
    jobs: |_| vec![Spec::due(runner::JOB, runner::run).on(Event::NewMail)],
    init: |setup| {
        setup.provide::<dyn crate::hooks::FolderFollower>(std::sync::Arc::new(folders::Follow))
    },
    prepare: |state| runner::join(&state.store),
    needs: &[need::<crate::outgoing::Outbox>],
    ..Feature::named("rules")
};

use crate::feature::{BackupSection, Feature, Notes, Section, need, unless_empty};
use crate::forget::{self, Step};
use crate::jobs::{Event, Spec};
use crate::state::AppState;
use crate::store::per_user::UserRecords;

pub(crate) static RULES: UserRecords = UserRecords::new("rules", "rules");
pub(crate) static ACTIVITY: UserRecords = UserRecords::new("rule_activity", "rule_activity");

/// What a rule did to one mail.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Activity {
    pub seq: u64,
    pub rule_id: u64,
    /// Unix seconds.
    pub at: i64,
    pub message: u64,
    pub subject: String,
    pub from: String,
    pub outcomes: Vec<actions::Outcome>,
}

pub fn create_tables(txn: &WriteTransaction) -> Result<(), redb::Error> {
    RULES.create(txn)?;
    ACTIVITY.create(txn)
}

pub fn forget_user(txn: &WriteTransaction, user_id: u64) -> anyhow::Result<()> {
    RULES.forget(txn, user_id)?;
    forwarding::forget_user(txn, user_id)?;
    ACTIVITY.forget(txn, user_id)
}

/// The settings backup's section: the rules, in order.
struct Backup;

impl Section for Backup {
    type Data = Vec<model::StoredRule>;

    fn export(state: &AppState, user_id: u64) -> anyhow::Result<Option<Self::Data>> {
        let mut rules: Vec<model::Stored> = RULES.list(&state.store, user_id)?;
        rules.sort_by_key(|r| (r.position, r.id));
        let list: Vec<model::StoredRule> = rules.into_iter().map(|r| r.rule).collect();
        Ok(unless_empty(list))
    }

    /// Restores the rules after the user's own (checked as when saved); a rule whose name the user
    /// already has is not added twice. A forward comes back waiting for the user to confirm its
    /// address (a backup file may be anyone's), and the restore says so.
    fn import(
        state: &AppState,
        user_id: u64,
        list: Vec<model::StoredRule>,
    ) -> anyhow::Result<Notes> {
        let have: Vec<model::Stored> = RULES.list(&state.store, user_id)?;
        let mut notes = Vec::new();
        for r in list {
            if have.iter().any(|h| h.rule.name == r.name) {
                continue;
            }
            let input = RuleInput {
                name: r.name,
                is_active: r.is_active,
                match_all: r.match_all,
                conditions: r.conditions,
                actions: r.actions,
                stop: r.stop,
                confirm_forward: None,
            };
            let made = routes::create_rule(&state.store, user_id, input, routes::Forward::MayWait)?;
            if made.rule.forward_pending() {
                let to = made.rule.forward_to().unwrap_or_default();
                notes.push(crate::messages::restored_rule_forward_waits(
                    &made.rule.name,
                    &to,
                ));
            }
        }
        Ok(notes)
    }
}

// This feature's part of the wire contract (see `crate::wire`).
crate::wire_types!(
    model::Field,
    model::Condition,
    model::ActionKind,
    model::Action,
    RuleInput,
    Rule,
    actions::Outcome,
    routes::RulesResponse,
    routes::RuleDeleted,
    routes::ActiveRequest,
    routes::OrderRequest,
    routes::Preview,
    routes::PreviewMail,
    routes::RunResult,
    routes::ActivityItem,
    routes::ActivityResponse,
);
