//! 'Load and classify' (the Spam and Promotions folders' button): the engine over the mail
//! already in the user's inboxes, the newest [`MAX_MAIL`] first, in steps of [`STEP`] mails a
//! transaction, with its progress for the page's bar. A status the user set is never changed.

use serde::Serialize;
use ts_rs::TS;

use super::engine;
use super::journal::{self, Decision};
use super::{Spam, engine::Verdict};
use super::{learn, model};
use crate::error::{AppError, Result};
use crate::mailstore::{MailRead, MailWrite, Reason};
use crate::messages;
use crate::state::AppState;

pub const MAX_MAIL: usize = 20_000;
const STEP: usize = 200;

/// `GET/POST /api/spam/classify`.
#[derive(Debug, Clone, Default, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(rename = "SpamClassifyProgress")]
pub struct Progress {
    pub running: bool,
    pub done: usize,
    pub total: usize,
    pub spam: usize,
    pub suspicious: usize,
    pub advertisements: usize,
    /// Unix seconds, once finished.
    pub finished_at: Option<i64>,
    pub error: Option<String>,
}

pub fn progress(spam: &Spam, user_id: u64) -> Progress {
    spam.progress
        .lock()
        .expect("progress")
        .get(&user_id)
        .cloned()
        .unwrap_or_default()
}

fn set(spam: &Spam, user_id: u64, f: impl FnOnce(&mut Progress)) {
    f(spam
        .progress
        .lock()
        .expect("progress")
        .entry(user_id)
        .or_default());
}

/// Starts a run for the user (one at a time).
pub fn start(state: &AppState, user_id: u64) -> Result<Progress> {
    let spam = state.service::<Spam>();
    {
        let mut all = spam.progress.lock().expect("progress");
        let p = all.entry(user_id).or_default();
        if p.running {
            return Err(AppError::Conflict(messages::SPAM_CLASSIFY_RUNNING.into()));
        }
        *p = Progress {
            running: true,
            ..Progress::default()
        };
    }
    let st = state.clone();
    tokio::task::spawn_blocking(move || {
        let spam = st.service::<Spam>();
        let outcome =
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| run(&st, &spam, user_id)));
        let error = match outcome {
            Ok(Ok(())) => None,
            Ok(Err(e)) => Some(e.user_message()),
            Err(_) => Some(messages::SERVER_ERROR.to_string()),
        };
        set(&spam, user_id, |p| {
            p.running = false;
            p.finished_at = Some(crate::kit::now());
            p.error = error;
        });
    });
    Ok(progress(&spam, user_id))
}

fn run(state: &AppState, spam: &Spam, user_id: u64) -> Result<()> {
    let store = &state.store;
    let profile = spam.profile(store, user_id)?;
    if !profile.settings.enabled {
        return Err(AppError::bad_request(messages::SPAM_DETECTION_OFF));
    }
    let mut ids: Vec<u64> = Vec::new();
    {
        let read = MailRead::new(store)?;
        for account in crate::accounts::list_for_user(store, user_id)? {
            let roles = read.roles(account.id)?;
            let Some(inbox) = roles.get("inbox") else {
                continue;
            };
            for row in read.rows(account.id, inbox)? {
                ids.push(row?.id());
            }
        }
    }
    // Newest first: rows come oldest first per folder.
    ids.reverse();
    ids.truncate(MAX_MAIL);
    set(spam, user_id, |p| p.total = ids.len());
    for chunk in ids.chunks(STEP) {
        let judged: Vec<(u64, engine::Report)> = {
            let read = MailRead::new(store)?;
            let mut out = Vec::with_capacity(chunk.len());
            for id in chunk {
                let Some(raw) = read.raw(*id)? else { continue };
                let report = engine::judge_raw(&raw, &profile);
                out.push((*id, report));
            }
            out
        };
        let txn = store.begin_write()?;
        let w = MailWrite::new(&txn, Reason::Detection);
        let mut log = Vec::new();
        let (mut s, mut sus, mut ads) = (0, 0, 0);
        for (id, report) in &judged {
            let Some(meta) = w.meta(*id)? else { continue };
            // Hidden, or marked by the user ("not spam" leaves no status): never judged again.
            if meta.hidden || model::trained_as(&txn, user_id, &learn::key_of(&meta))?.is_some() {
                continue;
            }
            let had = meta.status.clone();
            let d = engine::detection(report, &profile.settings, true);
            let meta = w.detect(meta, &d)?;
            if had.is_none() && meta.status.is_some() {
                match report.verdict {
                    Verdict::Spam => s += 1,
                    Verdict::Suspicious => sus += 1,
                    Verdict::Advertisement => ads += 1,
                    Verdict::Clean => {}
                }
                log.push(Decision::of(
                    &meta,
                    meta.status.as_deref().unwrap_or(""),
                    "classify",
                ));
            }
        }
        if profile.settings.log_activity {
            journal::log(&txn, user_id, &log)?;
        }
        txn.commit()?;
        set(spam, user_id, |p| {
            p.done += chunk.len();
            p.spam += s;
            p.suspicious += sus;
            p.advertisements += ads;
        });
    }
    Ok(())
}
