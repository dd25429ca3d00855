//! The seams through which a lower room calls a higher one, in one typed registry built once per
//! application ([`Hooks`], in `AppState::hooks`): the sync asks spam detection about new mail
//! before storing it ([`Screen`]); a user's triage trains spam detection in the marking's own
//! transaction ([`Learner`]); a folder renamed (by the user here, or seen renamed by the sync)
//! is followed by whatever names it, in the rename's own transaction ([`FolderFollower`]: the
//! rules' "move to folder"). The traits live here, below every feature, so the rooms that call
//! them name no feature above them; a feature provides its implementation in its `init`
//! (`feature::Setup::provide`), and an application without one fails at start-up.
//!
//! (Notices to a user's live sessions are not a seam: `crate::notices` sits below every feature
//! that sends one.)

use std::sync::Arc;

use mail_parser::Message;
use redb::WriteTransaction;

use crate::mail::parse::Summary;
use crate::mailstore::{Detection, MailWrite, MessageMeta};
use crate::registry::Registry;
use crate::store::Store;

/// The new mail of one batch, for one account's folder.
pub struct Batch<'a> {
    pub account: u64,
    pub user_id: u64,
    /// The folder's role (inbox, junk, …; "" for the user's own folders).
    pub role: &'a str,
    /// The account's first sync is still running: its history is scored, never moved.
    pub first_sync: bool,
}

/// What the sync asks before it stores new mail: the mail of an inbox is stored with its
/// verdict in the same transaction, so no listing ever shows it unjudged.
pub trait Screen: Send + Sync {
    /// The judge of a batch, or None when detection does not look at this folder or user.
    fn judge_for(&self, store: &Store, batch: &Batch<'_>) -> Option<Arc<dyn Judge>>;
}

/// The judge of one batch (see [`Screen`]).
pub trait Judge: Send + Sync {
    /// One new mail's verdict (called on the parse threads, before the write transaction,
    /// with the message its summary was parsed from; None when it did not parse as mail).
    fn judge(&self, msg: Option<&Message<'_>>, raw: &[u8], summary: &Summary) -> Option<Detection>;
    /// The stored mail with its verdicts, inside the batch's write transaction (the
    /// feature's own records: its activity list).
    fn stored(&self, txn: &WriteTransaction, stored: &[MessageMeta]) -> anyhow::Result<()>;
    /// After the commit (notifications).
    fn committed(&self, stored: &[MessageMeta]);
}

/// Who learns from the user's triage: a status change in or out of spam is training (as with
/// `sa-learn`), made in the same transaction as the change, while the mail is still where the
/// user saw it (a move to or from Junk gives it a new id moments later).
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

/// Who follows a folder of the user's mailbox to its new name (the rules' "move to folder"),
/// inside the transaction that renamed it in the mail store: a folder later made under the old
/// name is then never taken for the renamed one.
pub trait FolderFollower: Send + Sync {
    /// `renamed` holds (old path, new path) of one account of `user_id`, the folder and each
    /// one under it.
    fn renamed(
        &self,
        txn: &WriteTransaction,
        user_id: u64,
        renamed: &[(String, String)],
    ) -> anyhow::Result<()>;
}

/// Every seam, each with the one implementation the application was built with.
#[derive(Clone)]
pub struct Hooks {
    /// New mail judged before it is stored (spam detection).
    pub screen: Arc<dyn Screen>,
    /// Triage learned from (spam detection).
    pub learner: Arc<dyn Learner>,
    /// Folder renames followed (the rules).
    pub folders: Arc<dyn FolderFollower>,
}

impl Hooks {
    /// The seams from what the features provided: an error names a seam nobody provides.
    pub fn from_registry(r: &Registry) -> anyhow::Result<Self> {
        Ok(Self {
            screen: r.get::<dyn Screen>()?,
            learner: r.get::<dyn Learner>()?,
            folders: r.get::<dyn FolderFollower>()?,
        })
    }

    /// A status change learned from, when it is one (`before` and `after` differ in status).
    pub fn marked(
        &self,
        w: MailWrite<'_>,
        user_id: u64,
        before: &MessageMeta,
        after: &MessageMeta,
    ) -> anyhow::Result<()> {
        if before.status == after.status {
            return Ok(());
        }
        self.learner.marked(w, user_id, before, after)
    }
}
