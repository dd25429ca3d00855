//! Changing stored mail inside the caller's write transaction. Every change to a message
//! appends to the change log in that same transaction (see `changes.rs`).

use std::collections::{HashMap, HashSet};

use redb::{ReadableTable, WriteTransaction};

use super::changes::{self, Kind, Reason};
use super::derived::{Derived, Entry};
use super::index::IndexView;
use super::keywords;
use super::model::{
    Carried, Detection, Fetched, FolderState, MessageMeta, PendingFlags, ServerFlags,
};
use super::model::{hidden_key, roles};
use super::raw::{Packed, get_raw, remove_raw};
use super::read::{account_folders, pending_of, read_meta};
use super::tables::{
    CARRIED, FOLDERS, HIDDEN_KEYS, INDEX, MESSAGES, MSGIDS, PENDING, RAW_Z, SUBJECTS, UIDS,
};
use super::uids::Uids;
use crate::store::record;

/// The mail tables in a write transaction, for changes made for `reason`.
#[derive(Clone, Copy)]
pub struct MailWrite<'t> {
    pub(super) txn: &'t WriteTransaction,
    pub(super) reason: Reason,
}

impl<'t> MailWrite<'t> {
    pub fn new(txn: &'t WriteTransaction, reason: Reason) -> Self {
        Self { txn, reason }
    }

    /// The transaction, for a feature's own tables changed with the mail (spam training with
    /// the user's marking).
    pub fn txn(&self) -> &'t WriteTransaction {
        self.txn
    }

    pub(super) fn log(&self, meta: &MessageMeta, kind: Kind) -> Result<(), redb::Error> {
        changes::append(
            self.txn,
            meta.account_id,
            meta.id,
            &meta.folder,
            kind,
            self.reason,
        )
    }

    // ---- folders

    pub fn folders(&self, account: u64) -> anyhow::Result<Vec<FolderState>> {
        account_folders(&self.txn.open_table(FOLDERS)?, account)
    }

    pub fn roles(&self, account: u64) -> anyhow::Result<HashMap<String, String>> {
        Ok(roles(&self.folders(account)?))
    }

    pub fn folder(&self, account: u64, name: &str) -> anyhow::Result<Option<FolderState>> {
        let t = self.txn.open_table(FOLDERS)?;
        let v = t.get((account, name))?;
        Ok(match v {
            Some(v) => Some(record::decode(v.value())?),
            None => None,
        })
    }

    pub fn save_folder(&self, account: u64, state: &FolderState) -> anyhow::Result<()> {
        self.txn.open_table(FOLDERS)?.insert(
            (account, state.name.as_str()),
            record::encode(state).as_slice(),
        )?;
        Ok(())
    }

    // ---- messages

    /// The members of a thread (account, thread hash) in every folder: (date, id, folder),
    /// oldest first.
    pub fn members(&self, account: u64, thread: u64) -> anyhow::Result<Vec<(i64, u64, String)>> {
        Ok(super::derived::members_in(
            &self.txn.open_table(super::tables::MEMBERS)?,
            account,
            thread,
        )?)
    }

    pub fn meta(&self, id: u64) -> anyhow::Result<Option<MessageMeta>> {
        read_meta(&self.txn.open_table(MESSAGES)?, id)
    }

    pub fn raw(&self, id: u64) -> anyhow::Result<Option<Vec<u8>>> {
        get_raw(&self.txn.open_table(RAW_Z)?, id)
    }

    pub fn id_of_uid(&self, account: u64, folder: &str, uid: u32) -> anyhow::Result<Option<u64>> {
        Ok(self
            .txn
            .open_table(UIDS)?
            .get((account, folder, uid))?
            .map(|v| v.value()))
    }

    /// Rewrites a message's record and its index row after a change.
    pub fn write_meta(&self, meta: &MessageMeta) -> anyhow::Result<()> {
        self.txn
            .open_table(MESSAGES)?
            .insert(meta.id, record::encode(meta).as_slice())?;
        {
            let mut index = self.txn.open_table(INDEX)?;
            let mut derived = Derived::open(self.txn)?;
            super::places::put_row(&mut index, &mut derived, meta, &meta.entry())?;
        }
        self.index_places(meta)?;
        self.log(meta, Kind::Updated)?;
        Ok(())
    }

    /// Removes a message's index row and what the derived tables hold for it (as the stored
    /// row says: the caller's record may already carry its next state).
    pub(super) fn unindex(&self, meta: &MessageMeta) -> anyhow::Result<()> {
        let key = (meta.account_id, meta.folder.as_str(), meta.date, meta.id);
        let old = self.txn.open_table(INDEX)?.remove(key)?.map(|v| {
            let row = IndexView(v.value());
            (row.bits(), row.thread())
        });
        if let Some((bits, thread)) = old {
            let old = Entry {
                bits,
                thread,
                ..meta.entry()
            };
            Derived::open(self.txn)?.apply(Some(&old), None)?;
        }
        self.unindex_places(meta)
    }

    /// Stores fetched messages (skipping UIDs already stored). Returns how many were new.
    pub fn insert_messages(
        &self,
        account: u64,
        folder: &str,
        batch: &[Fetched],
    ) -> anyhow::Result<usize> {
        let summaries = batch
            .iter()
            .map(|f| crate::mail::parse::summary(&f.raw))
            .collect();
        self.insert_parsed(account, folder, batch, summaries)
    }

    /// Stores fetched messages whose summaries the caller parsed (`summaries[i]` of
    /// `batch[i]`), skipping UIDs already stored. Returns how many were new.
    pub fn insert_parsed(
        &self,
        account: u64,
        folder: &str,
        batch: &[Fetched],
        summaries: Vec<crate::mail::parse::Summary>,
    ) -> anyhow::Result<usize> {
        let detections = vec![None; batch.len()];
        Ok(self
            .insert_screened(account, folder, batch, summaries, detections, Vec::new())?
            .len())
    }

    /// As `insert_parsed`, with spam detection's verdict on each (`detections[i]` of
    /// `batch[i]`) and, when the caller packed them ([`super::pack`]), the raw bytes compressed
    /// (`packed[i]`; empty: compressed here). Returns the new records.
    pub fn insert_screened(
        &self,
        account: u64,
        folder: &str,
        batch: &[Fetched],
        summaries: Vec<crate::mail::parse::Summary>,
        detections: Vec<Option<Detection>>,
        packed: Vec<Packed>,
    ) -> anyhow::Result<Vec<MessageMeta>> {
        let (listed, home_over) = self.place_kind(account, folder)?;
        let mut inserter = self.inserter()?;
        let mut new = Vec::new();
        let mut packed = packed.into_iter();
        for ((f, summary), d) in batch.iter().zip(summaries).zip(detections) {
            let p = packed.next();
            if inserter.has_uid(account, folder, f.uid)? {
                continue;
            }
            // A copy of a mail stored meanwhile (Gmail: the same mail in another folder).
            if let Some(key) = f.identity.as_deref()
                && let Some(id) = inserter.known(account, key)?
                && inserter.add_place(account, (folder, f.uid), id, listed, home_over.as_deref())?
            {
                continue;
            }
            new.push(inserter.insert_detected(account, folder, f, summary, d.as_ref(), p)?);
        }
        Ok(new)
    }

    /// Applies server flags to stored messages by UID; skips messages with local changes still
    /// pending (they win until written to the server). With `keywords_decide`, the keywords
    /// also set the triage status. Returns how many changed.
    pub fn update_flags(
        &self,
        account: u64,
        folder: &str,
        updates: &[(u32, ServerFlags)],
        keywords_decide: bool,
    ) -> anyhow::Result<usize> {
        let uids = self.txn.open_table(UIDS)?;
        let pending = self.txn.open_table(PENDING)?;
        let mut changed = 0;
        for (uid, f) in updates {
            let Some(id) = uids.get((account, folder, *uid))?.map(|v| v.value()) else {
                continue;
            };
            // An unreadable record must not stop the folder's sync.
            let Ok(Some(mut meta)) = self.meta(id) else {
                continue;
            };
            // A mail's flags are its home copy's (Gmail keeps them alike; a server shaped like
            // it may not, and two copies must not take turns).
            if (meta.folder.as_str(), meta.uid) != (folder, *uid) {
                continue;
            }
            let labels = f.labels.as_ref().unwrap_or(&meta.gm_labels);
            // Local changes not yet pushed win over the server's flags; Gmail's labels are
            // never changed here, so the server's stand.
            if pending.get((account, id))?.is_some() {
                if &meta.gm_labels != labels {
                    meta.gm_labels = labels.clone();
                    self.write_meta(&meta)?;
                    changed += 1;
                }
                continue;
            }
            if meta.seen == f.seen
                && meta.flagged == f.flagged
                && meta.answered == f.answered
                && meta.draft == f.draft
                && meta.keywords == f.keywords
                && &meta.gm_labels == labels
            {
                continue;
            }
            meta.gm_labels = labels.clone();
            meta.seen = f.seen;
            meta.flagged = f.flagged;
            meta.answered = f.answered;
            meta.draft = f.draft;
            meta.keywords = f.keywords.clone();
            if keywords_decide {
                let before = (meta.status.clone(), meta.priority.clone());
                meta.take_triage_from_keywords();
                if before != (meta.status.clone(), meta.priority.clone()) {
                    meta.last_activity = Some(crate::kit::now());
                }
            }
            self.write_meta(&meta)?;
            changed += 1;
        }
        Ok(changed)
    }

    /// Deletes one stored message everywhere.
    pub fn delete_message(&self, id: u64) -> anyhow::Result<()> {
        let Some(meta) = self.meta(id)? else {
            return Ok(());
        };
        self.txn.open_table(MESSAGES)?.remove(id)?;
        remove_raw(&mut self.txn.open_table(RAW_Z)?, id)?;
        Uids::open(self.txn)?.remove(meta.account_id, &meta.folder, meta.uid)?;
        self.unindex(&meta)?;
        self.forget_places(&meta)?;
        self.txn
            .open_table(PENDING)?
            .remove((meta.account_id, id))?;
        self.log(&meta, Kind::Removed)?;
        Ok(())
    }

    /// The UIDs stored for a folder, with their message ids.
    pub(super) fn stored_uids(
        &self,
        account: u64,
        folder: &str,
    ) -> anyhow::Result<Vec<(u32, u64)>> {
        Ok(Uids::open(self.txn)?.in_range(account, folder, 0, u32::MAX)?)
    }

    /// Removes the stored messages of `folder` whose UIDs are not in `keep` (expunged on the
    /// server). Returns how many went.
    pub fn remove_missing(
        &self,
        account: u64,
        folder: &str,
        keep: &HashSet<u32>,
    ) -> anyhow::Result<usize> {
        let gone: Vec<(u32, u64)> = self
            .stored_uids(account, folder)?
            .into_iter()
            .filter(|(uid, _)| !keep.contains(uid))
            .collect();
        for (uid, id) in &gone {
            self.remove_place(account, folder, *uid, *id)?;
        }
        Ok(gone.len())
    }

    /// Removes the stored messages of `folder` whose UIDs fall in `ranges` (inclusive; a
    /// QRESYNC server's VANISHED, which may name UIDs never stored here: only stored ones are
    /// looked at). Returns how many went.
    pub fn remove_uids(
        &self,
        account: u64,
        folder: &str,
        ranges: &[(u32, u32)],
    ) -> anyhow::Result<usize> {
        let mut gone = Vec::new();
        {
            let uids = Uids::open(self.txn)?;
            for &(lo, hi) in ranges {
                gone.extend(uids.in_range(account, folder, lo, hi)?);
            }
        }
        // A Gmail-shaped mailbox's copy may be one place of a mail held by others.
        for (uid, id) in &gone {
            self.remove_place(account, folder, *uid, *id)?;
        }
        Ok(gone.len())
    }

    /// Forgets a folder's messages (UIDVALIDITY changed, or the folder is gone).
    pub fn clear_folder(&self, account: u64, folder: &str) -> anyhow::Result<usize> {
        self.remove_missing(account, folder, &Default::default())
    }

    /// Forgets everything stored for an account: its folders, messages, hidden keys, threads
    /// and queued changes.
    pub fn clear_account(&self, account: u64) -> anyhow::Result<()> {
        for f in &self.folders(account)? {
            self.clear_folder(account, &f.name)?;
            self.txn
                .open_table(FOLDERS)?
                .remove((account, f.name.as_str()))?;
        }
        self.txn
            .open_table(HIDDEN_KEYS)?
            .retain_in((account, "", "")..(account + 1, "", ""), |_, _| false)?;
        let whole = (account, "")..(account + 1, "");
        self.txn
            .open_table(CARRIED)?
            .retain_in(whole.clone(), |_, _| false)?;
        for table in [MSGIDS, SUBJECTS] {
            self.txn
                .open_table(table)?
                .retain_in(whole.clone(), |_, _| false)?;
        }
        self.txn
            .open_table(PENDING)?
            .retain_in((account, 0)..=(account, u64::MAX), |_, _| false)?;
        self.clear_identities(account)
    }

    // ---- hidden mail

    /// The key a stored message is hidden by (its bytes are read only when it has no
    /// Message-ID).
    pub(super) fn hidden_key_of(&self, meta: &MessageMeta) -> anyhow::Result<String> {
        let raw = match meta.summary.message_id.as_deref() {
            Some(id) if !id.is_empty() => Vec::new(),
            _ => self.raw(meta.id)?.unwrap_or_default(),
        };
        Ok(hidden_key(meta.summary.message_id.as_deref(), &raw))
    }

    /// Hides a message from this site only; remembered by Message-ID so a re-sync keeps it
    /// hidden. A queued move is dropped: it would bring it back as a new copy elsewhere.
    pub fn hide(&self, mut meta: MessageMeta, now: i64) -> anyhow::Result<MessageMeta> {
        let key = self.hidden_key_of(&meta)?;
        self.txn
            .open_table(HIDDEN_KEYS)?
            .insert((meta.account_id, "", key.as_str()), now)?;
        meta.hidden = true;
        self.write_meta(&meta)?;
        let mut pending = self.txn.open_table(PENDING)?;
        let queued: Option<PendingFlags> = match pending.get((meta.account_id, meta.id))? {
            Some(v) => Some(record::decode(v.value())?),
            None => None,
        };
        if let Some(mut op) = queued
            && op.move_to.is_some()
        {
            op.move_to = None;
            op.create_target = false;
            pending.insert((meta.account_id, meta.id), record::encode(&op).as_slice())?;
        }
        Ok(meta)
    }

    /// Shows again a message hidden while its move was pending, when the server refused the
    /// move (unless the user deleted it from this site).
    pub fn unhide(&self, id: u64) -> anyhow::Result<()> {
        let Some(mut meta) = self.meta(id)? else {
            return Ok(());
        };
        if !meta.hidden {
            return Ok(());
        }
        let key = self.hidden_key_of(&meta)?;
        if self
            .txn
            .open_table(HIDDEN_KEYS)?
            .get((meta.account_id, "", key.as_str()))?
            .is_some()
        {
            return Ok(());
        }
        meta.hidden = false;
        self.write_meta(&meta)
    }

    /// Remembers the triage of a mail whose move is queued, for the copy the move yields.
    pub fn carry(&self, account: u64, message_id: &str, carried: &Carried) -> anyhow::Result<()> {
        self.txn
            .open_table(CARRIED)?
            .insert((account, message_id), record::encode(carried).as_slice())?;
        Ok(())
    }

    // ---- spam detection

    /// Spam detection's verdict on a stored message (a folder classified after the fact, the AI
    /// review): stored and, when it set the status, queued for the mailbox. Returns the record.
    pub fn detect(&self, mut meta: MessageMeta, d: &Detection) -> anyhow::Result<MessageMeta> {
        let changed = meta.take_detection(d);
        self.write_meta(&meta)?;
        if changed
            && let Some(carried) = self.queue_detected(&meta, d)?
            && let Some(mid) = meta.summary.message_id.as_deref()
        {
            self.carry(meta.account_id, mid, &carried)?;
        }
        Ok(meta)
    }

    /// Queues the keywords of a detected status and, for spam that detection may move, the
    /// move to Junk (when the mailbox has one). Returns the triage the moved copy must carry
    /// (the caller stores it: the inserter holds that table open).
    pub(super) fn queue_detected(
        &self,
        meta: &MessageMeta,
        d: &Detection,
    ) -> anyhow::Result<Option<Carried>> {
        let wanted = keywords::for_triage(meta.status.as_deref(), meta.priority.as_deref());
        let moving = d.move_to_junk
            && self
                .roles(meta.account_id)?
                .get("junk")
                .is_some_and(|name| *name != meta.folder);
        self.queue_change(meta, |op| {
            op.keywords = Some(wanted);
            if moving {
                op.move_to = Some("junk".into());
            }
        })?;
        Ok(moving.then(|| Carried {
            status: meta.status.clone(),
            priority: meta.priority.clone(),
            last_activity: meta.last_activity,
            spam_score: meta.spam_score,
            advertisement: meta.advertisement,
            date: None,
        }))
    }

    // ---- changes for the mailbox

    /// Merges a change into the message's queued server change (creating it), so the sync
    /// task writes it to the mailbox.
    pub fn queue_change(
        &self,
        meta: &MessageMeta,
        change: impl FnOnce(&mut PendingFlags),
    ) -> anyhow::Result<()> {
        let uidvalidity = self
            .folder(meta.account_id, &meta.folder)?
            .map_or(0, |f| f.uidvalidity);
        let mut pending = self.txn.open_table(PENDING)?;
        let mut op: PendingFlags = match pending.get((meta.account_id, meta.id))? {
            Some(v) => record::decode(v.value())?,
            None => PendingFlags {
                folder: meta.folder.clone(),
                uid: meta.uid,
                uidvalidity,
                ..PendingFlags::default()
            },
        };
        change(&mut op);
        pending.insert((meta.account_id, meta.id), record::encode(&op).as_slice())?;
        Ok(())
    }

    /// The account's queued changes, by message id.
    pub fn pending(&self, account: u64) -> anyhow::Result<Vec<(u64, PendingFlags)>> {
        pending_of(&self.txn.open_table(PENDING)?, account)
    }

    /// Forgets queued changes that were written to the mailbox, each only if it is still the
    /// one written (a newer one made meanwhile goes out next time).
    pub fn forget_pushed(&self, account: u64, done: &[(u64, PendingFlags)]) -> anyhow::Result<()> {
        let mut t = self.txn.open_table(PENDING)?;
        for (id, op) in done {
            let current: Option<PendingFlags> = match t.get((account, *id))? {
                Some(v) => Some(record::decode(v.value())?),
                None => None,
            };
            if current.as_ref() == Some(op) {
                t.remove((account, *id))?;
            }
        }
        Ok(())
    }

    /// Forgets one queued change whatever it is.
    pub fn forget_pending(&self, account: u64, id: u64) -> anyhow::Result<()> {
        self.txn.open_table(PENDING)?.remove((account, id))?;
        Ok(())
    }

    /// Moves a message of a local account (no server) to `target` here: it takes the next UID
    /// of the target folder, whose state is saved.
    pub fn move_local(
        &self,
        mut meta: MessageMeta,
        target: &mut FolderState,
    ) -> anyhow::Result<MessageMeta> {
        let account = meta.account_id;
        // The date a copy would be listed under (a woken snooze): this message takes it.
        let carried_date = match meta.summary.message_id.as_deref() {
            Some(mid) => match self.txn.open_table(CARRIED)?.get((account, mid))? {
                Some(v) => record::decode::<Carried>(v.value())
                    .ok()
                    .and_then(|c| c.date),
                None => None,
            },
            None => None,
        };
        if target.name != meta.folder {
            self.log(&meta, Kind::Removed)?;
            Uids::open(self.txn)?.remove(account, &meta.folder, meta.uid)?;
            self.unindex(&meta)?;
            let uid = target.top.max(1);
            target.top = uid + 1;
            target.exists += 1;
            meta.folder = target.name.clone();
            meta.uid = uid;
            if let Some(date) = carried_date {
                meta.date = date;
            }
            Uids::open(self.txn)?.insert(account, &meta.folder, uid, meta.id)?;
            self.save_folder(account, target)?;
        }
        // The copy a server would have made is this message: nothing to carry over.
        if let Some(mid) = meta.summary.message_id.as_deref() {
            self.txn.open_table(CARRIED)?.remove((account, mid))?;
        }
        self.write_meta(&meta)?;
        Ok(meta)
    }
}
