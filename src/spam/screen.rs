//! Detection in the sync (the `hooks::Screen` seam): every new mail of an inbox is judged on the
//! parse threads and stored with its verdict in the same transaction. An account's first sync
//! (its history) is not judged, and mail dated more than 3 days before it arrived is scored,
//! never moved; 'load and classify' acts on both when asked.

use std::sync::Arc;

use mail_parser::Message;
use redb::WriteTransaction;

use super::Spam;
use super::engine::{self, Verdict};
use super::journal::{self, Decision};
use super::mail::Mail;
use super::profile::Profile;
use crate::hooks::{Batch, Judge, Screen};
use crate::mail::parse::Summary;
use crate::mailstore::{Detection, MessageMeta};
use crate::notices::{Notice, SpamDetected};
use crate::store::Store;

/// New mail dated this long before it is stored is history (a re-sync), not news: scored, not
/// moved.
const NEWS_SECS: i64 = 3 * 86_400;

impl Screen for Spam {
    fn judge_for(&self, store: &Store, batch: &Batch<'_>) -> Option<Arc<dyn Judge>> {
        // A first sync's history is left as it is (judging it doubled the cost of connecting a
        // big mailbox: docs/BENCHMARKS.md); 'load and classify' judges it when asked.
        if batch.role != "inbox" || batch.first_sync {
            return None;
        }
        let profile = match self.profile(store, batch.user_id) {
            Ok(p) => p,
            Err(e) => {
                tracing::warn!(error = %e.user_message(), "spam detection: no profile");
                return None;
            }
        };
        if !profile.settings.enabled {
            return None;
        }
        Some(Arc::new(BatchJudge {
            spam: self.clone(),
            profile,
            user_id: batch.user_id,
        }))
    }
}

struct BatchJudge {
    spam: Spam,
    profile: Arc<Profile>,
    user_id: u64,
}

impl Judge for BatchJudge {
    fn judge(&self, msg: Option<&Message<'_>>, raw: &[u8], summary: &Summary) -> Option<Detection> {
        let mail = Mail::of(msg, raw, Some(summary));
        let report = engine::judge(&mail, &self.profile);
        let now = crate::kit::now();
        let news = summary.date.is_none_or(|d| d >= now - NEWS_SECS);
        Some(engine::detection(&report, &self.profile.settings, news))
    }

    fn stored(&self, txn: &WriteTransaction, stored: &[MessageMeta]) -> anyhow::Result<()> {
        let decided: Vec<&MessageMeta> = stored
            .iter()
            .filter(|m| m.spam_score.is_some() && Decision::verdict_of(m).is_some())
            .collect();
        if self.profile.settings.log_activity {
            let log: Vec<Decision> = decided
                .iter()
                .map(|m| Decision::of(m, m.status.as_deref().unwrap_or(""), "sync"))
                .collect();
            journal::log(txn, self.user_id, &log)?;
        }
        if self.profile.settings.use_ai {
            let unsure: Vec<u64> = decided
                .iter()
                .filter(|m| Decision::verdict_of(m) == Some(Verdict::Suspicious))
                .map(|m| m.id)
                .collect();
            journal::queue_review(txn, self.user_id, &unsure)?;
        }
        Ok(())
    }

    fn committed(&self, stored: &[MessageMeta]) {
        if !self.profile.settings.notify_on_spam {
            return;
        }
        for m in stored
            .iter()
            .filter(|m| m.status.as_deref() == Some("spam") && m.spam_score.is_some())
        {
            self.spam.notify(self.user_id, m);
        }
    }
}

impl Spam {
    /// Tells the user's sessions that a mail was found to be spam (`notifyOnSpam`).
    pub fn notify(&self, user_id: u64, m: &MessageMeta) {
        let notice = SpamDetected {
            id: m.id,
            from: m.summary.from.clone(),
            from_name: m.summary.from_name.clone(),
            subject: m.summary.subject.clone(),
            score: m.spam_score,
            message: crate::messages::SPAM_NOTICE.into(),
        };
        self.notices.send(user_id, Notice::SpamDetected(notice));
    }
}
