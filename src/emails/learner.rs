//! Who learns from the user's triage: a status change in or out of spam is training (as with
//! `sa-learn`), made in the same transaction as the change, while the mail is still where the
//! user saw it (a move to or from Junk gives it a new id moments later). Spam detection, a
//! feature above this one, registers itself when the application is built.

use std::sync::{Arc, OnceLock};

use crate::mailstore::{MailWrite, MessageMeta};

pub trait Learner: Send + Sync {
    /// The user changed `before` into `after` (same message) inside `w`'s transaction.
    fn marked(
        &self,
        w: MailWrite<'_>,
        user_id: u64,
        before: &MessageMeta,
        after: &MessageMeta,
    ) -> anyhow::Result<()>;
}

static LEARNER: OnceLock<Arc<dyn Learner>> = OnceLock::new();

/// Registers the learner (once per process: every app in it shares the one store layout).
pub fn register(l: Arc<dyn Learner>) {
    let _ = LEARNER.set(l);
}

pub(super) fn marked(
    w: MailWrite<'_>,
    user_id: u64,
    before: &MessageMeta,
    after: &MessageMeta,
) -> anyhow::Result<()> {
    match LEARNER.get() {
        Some(l) if before.status != after.status => l.marked(w, user_id, before, after),
        _ => Ok(()),
    }
}
