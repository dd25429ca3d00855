//! Gmail's model in the store: one mail, several places. Gmail shows each label as a folder
//! and every mail again in `[Gmail]/All Mail`; a mail is stored once, under its home (the
//! folder it was first synced in: INBOX, Sent, Drafts, Spam, Trash, else All Mail), and each
//! other copy the server holds is a [`Place`] of it: its UID maps to the same message id in
//! `UIDS`, and the record lists it. A place in a label folder is `listed`: it has an index row
//! there and counts in that folder (and its threads), but never in the tables of mail (tags,
//! thread members, idle mail), so the views across folders count mails and not copies.
//!
//! Copies are recognised by their key ([`super::Identity`]) in `IDENTITIES` before their bodies
//! are downloaded (the sync asks `place_known` first), and again when a chunk is stored (a copy
//! whose key a mail stored meanwhile holds becomes its place). An expunge removes one place;
//! the mail goes only with its last one, and when its home goes, another place becomes the home
//! (a folder that is not a label first: archived Gmail mail moves home from INBOX to All Mail).

use redb::ReadableTable;

use super::changes::{self, Kind};
use super::derived::{Derived, Entry};
use super::index::IndexView;
use super::insert::Inserter;
use super::model::{MessageMeta, Place};
use super::read::read_meta;
use super::tables::{HIDDEN_KEYS, IDENTITIES, INDEX};
use super::uids::Uids;
use super::write::MailWrite;
use crate::store::record;

impl Inserter<'_> {
    /// The mail stored under `key` in `account`, if any.
    pub fn known(&self, account: u64, key: &str) -> anyhow::Result<Option<u64>> {
        Ok(self.identities.get((account, key))?.map(|v| v.value()))
    }

    /// Records `(folder, uid)` as another place of mail `id` (`listed` in a label folder).
    /// A copy in `folder` becomes the home instead when the mail's home is All Mail and `folder`
    /// is a better one (`home_over`: All Mail's name, given for INBOX, Sent, Drafts: mail moved
    /// back to the inbox is listed there). Returns false when the mail is not stored (the copy
    /// must then be stored itself).
    pub fn add_place(
        &mut self,
        account: u64,
        (folder, uid): (&str, u32),
        id: u64,
        listed: bool,
        home_over: Option<&str>,
    ) -> anyhow::Result<bool> {
        let Some(mut meta) = read_meta(&self.messages, id)? else {
            return Ok(false);
        };
        let here = |f: &str, u: u32| f == folder && u == uid;
        if here(&meta.folder, meta.uid) || meta.places.iter().any(|p| here(&p.folder, p.uid)) {
            return Ok(true);
        }
        self.uids.insert(account, folder, uid, id)?;
        if home_over == Some(meta.folder.as_str()) {
            return self.become_home(meta, folder, uid).map(|()| true);
        }
        meta.places.push(Place {
            folder: folder.to_string(),
            uid,
            listed,
        });
        if listed {
            self.index.insert(
                (account, folder, meta.date, id),
                meta.index_row().encode().as_slice(),
            )?;
            self.derived.apply(None, Some(&meta.place_entry(folder)))?;
        }
        self.messages.insert(id, record::encode(&meta).as_slice())?;
        changes::append(
            self.w.txn,
            account,
            id,
            &meta.folder,
            Kind::Updated,
            self.w.reason,
        )?;
        Ok(true)
    }

    /// The copy `(folder, uid)` becomes the mail's home; the old home (All Mail) one of its
    /// places. The mail shows again (it was hidden while its move back was pending) unless the
    /// user deleted it from this site.
    fn become_home(&mut self, mut meta: MessageMeta, folder: &str, uid: u32) -> anyhow::Result<()> {
        let account = meta.account_id;
        let old = meta.clone();
        self.index
            .remove((account, old.folder.as_str(), old.date, old.id))?;
        meta.places.push(Place {
            folder: std::mem::take(&mut meta.folder),
            uid: meta.uid,
            listed: false,
        });
        meta.folder = folder.to_string();
        meta.uid = uid;
        if let Some(mid) = meta.summary.message_id.clone() {
            self.carried.remove((account, mid.as_str()))?;
            meta.hidden = self.hidden.get((account, "", mid.as_str()))?.is_some();
        }
        self.index.insert(
            (account, folder, meta.date, meta.id),
            meta.index_row().encode().as_slice(),
        )?;
        self.derived
            .apply(Some(&old.entry()), Some(&meta.entry()))?;
        self.messages
            .insert(meta.id, record::encode(&meta).as_slice())?;
        changes::append(
            self.w.txn,
            account,
            meta.id,
            folder,
            Kind::Updated,
            self.w.reason,
        )?;
        Ok(())
    }

    /// Remembers the key of a mail just stored.
    pub(super) fn remember_identity(&mut self, meta: &MessageMeta) -> anyhow::Result<()> {
        if let Some(key) = meta.identity.as_deref() {
            self.identities.insert((meta.account_id, key), meta.id)?;
        }
        Ok(())
    }
}

impl MailWrite<'_> {
    /// The copies of `folder` (UID, key) whose mail is stored already become its places, so
    /// their bodies are never downloaded. Returns the UIDs placed.
    pub fn place_known(
        &self,
        account: u64,
        folder: &str,
        copies: &[(u32, String)],
    ) -> anyhow::Result<Vec<u32>> {
        let (listed, home_over) = self.place_kind(account, folder)?;
        let mut inserter = self.inserter()?;
        let mut placed = Vec::new();
        for (uid, key) in copies {
            if inserter.has_uid(account, folder, *uid)? {
                placed.push(*uid);
                continue;
            }
            if let Some(id) = inserter.known(account, key)?
                && inserter.add_place(account, (folder, *uid), id, listed, home_over.as_deref())?
            {
                placed.push(*uid);
            }
        }
        Ok(placed)
    }

    /// How a copy in `folder` of a stored mail is kept: (listed: a label folder, the All Mail
    /// home it replaces: INBOX, Sent, Drafts). Copies in Trash and Spam are never places: Gmail
    /// takes a mail there out of every other folder, so they are mail of their own (`None`
    /// identity at the caller).
    pub(super) fn place_kind(
        &self,
        account: u64,
        folder: &str,
    ) -> anyhow::Result<(bool, Option<String>)> {
        let folders = self.folders(account)?;
        let Some(state) = folders.iter().find(|f| f.name == folder) else {
            return Ok((false, None));
        };
        let better = matches!(state.role.as_str(), "inbox" | "sent" | "drafts");
        let all_mail = folders.iter().find(|f| f.all_mail).map(|f| f.name.clone());
        Ok((state.labels, all_mail.filter(|_| better)))
    }

    /// Writes the index rows of a mail's places in label folders (and what the derived tables
    /// hold for them), as `write_meta` does for its home.
    pub(super) fn index_places(&self, meta: &MessageMeta) -> anyhow::Result<()> {
        if !meta.places.iter().any(|p| p.listed) {
            return Ok(());
        }
        let mut index = self.txn.open_table(INDEX)?;
        let mut derived = Derived::open(self.txn)?;
        for p in meta.places.iter().filter(|p| p.listed) {
            put_row(&mut index, &mut derived, meta, &meta.place_entry(&p.folder))?;
        }
        Ok(())
    }

    /// Removes the index rows of a mail's places in label folders.
    pub(super) fn unindex_places(&self, meta: &MessageMeta) -> anyhow::Result<()> {
        if !meta.places.iter().any(|p| p.listed) {
            return Ok(());
        }
        let mut index = self.txn.open_table(INDEX)?;
        let mut derived = Derived::open(self.txn)?;
        for p in meta.places.iter().filter(|p| p.listed) {
            let key = (meta.account_id, p.folder.as_str(), meta.date, meta.id);
            if let Some(v) = index.remove(key)? {
                let row = IndexView(v.value());
                let old = Entry {
                    bits: row.bits(),
                    thread: row.thread(),
                    ..meta.place_entry(&p.folder)
                };
                derived.apply(Some(&old), None)?;
            }
        }
        Ok(())
    }

    /// The copy `(folder, uid)` of mail `id` is gone from the server: a place goes, the mail
    /// only with its last place. When its home goes, another place becomes the home (one that
    /// is not a label first).
    pub fn remove_place(
        &self,
        account: u64,
        folder: &str,
        uid: u32,
        id: u64,
    ) -> anyhow::Result<()> {
        let Some(mut meta) = self.meta(id)? else {
            Uids::open(self.txn)?.remove(account, folder, uid)?;
            return Ok(());
        };
        let home = meta.folder == folder && meta.uid == uid;
        if home && meta.places.is_empty() {
            return self.delete_message(id);
        }
        let at = meta
            .places
            .iter()
            .position(|p| p.folder == folder && p.uid == uid);
        if !home && at.is_none() {
            // A UID that maps here without being a place (never written so): forgotten alone.
            Uids::open(self.txn)?.remove(account, folder, uid)?;
            return Ok(());
        }
        self.unindex(&meta)?;
        if home {
            let next = meta.places.iter().position(|p| !p.listed).unwrap_or(0);
            let p = meta.places.remove(next);
            meta.folder = p.folder;
            meta.uid = p.uid;
            // Hidden while its move was pending (Gmail's archive leaves INBOX, and no new copy
            // arrives to show): shown again unless the user deleted it from this site.
            meta.hidden = self.is_hidden_here(&meta)?;
        } else if let Some(at) = at {
            meta.places.remove(at);
        }
        Uids::open(self.txn)?.remove(account, folder, uid)?;
        self.write_meta(&meta)
    }

    /// Whether the user deleted this mail from this site (`hide`).
    fn is_hidden_here(&self, meta: &MessageMeta) -> anyhow::Result<bool> {
        let key = self.hidden_key_of(meta)?;
        Ok(self
            .txn
            .open_table(HIDDEN_KEYS)?
            .get((meta.account_id, "", key.as_str()))?
            .is_some())
    }

    /// Forgets the keys of an account's mail (the account is forgotten).
    pub(super) fn clear_identities(&self, account: u64) -> anyhow::Result<()> {
        self.txn
            .open_table(IDENTITIES)?
            .retain_in((account, "")..(account + 1, ""), |_, _| false)?;
        Ok(())
    }

    /// Forgets a deleted mail's places and key.
    pub(super) fn forget_places(&self, meta: &MessageMeta) -> anyhow::Result<()> {
        let mut uids = Uids::open(self.txn)?;
        for p in &meta.places {
            uids.remove(meta.account_id, &p.folder, p.uid)?;
        }
        if let Some(key) = meta.identity.as_deref() {
            let mut identities = self.txn.open_table(IDENTITIES)?;
            // Only when the key still names this mail.
            if identities
                .get((meta.account_id, key))?
                .is_some_and(|v| v.value() == meta.id)
            {
                identities.remove((meta.account_id, key))?;
            }
        }
        Ok(())
    }
}

/// Writes `meta`'s index row in `new.folder` and moves what the derived tables hold from the
/// row as it was (its bits and thread; its sender never changes after the insert) to `new`.
pub(super) fn put_row(
    index: &mut redb::Table<(u64, &'static str, i64, u64), &'static [u8]>,
    derived: &mut Derived,
    meta: &MessageMeta,
    new: &Entry,
) -> anyhow::Result<()> {
    let old = index
        .insert(
            (meta.account_id, new.folder, meta.date, meta.id),
            meta.index_row().encode().as_slice(),
        )?
        .map(|v| {
            let row = IndexView(v.value());
            (row.bits(), row.thread())
        });
    let old = old.map(|(bits, thread)| Entry {
        bits,
        thread,
        ..new.clone()
    });
    derived.apply(old.as_ref(), Some(new))?;
    Ok(())
}
