//! A folder made, renamed or removed on the server by the user (the `folders` feature), or
//! found deleted or renamed by another client (the sync's `gone`): the store follows at once,
//! so the sidebar and the lists show the new shape before the next sync. A forgotten folder's
//! messages go through `delete_message` (the change log, the index, the counters).
//! A rename keeps each message (its id, bytes, statuses, UID): only its folder changes, as the
//! server's RENAME keeps UIDs and UIDVALIDITY; a server that renumbers is caught by the sync's
//! UIDVALIDITY check as with any folder.

use super::changes::Kind;
use super::model::{FolderState, PendingFlags};
use super::tables::{FOLDERS, PENDING};
use super::uids::Uids;
use super::write::MailWrite;
use crate::store::record;
use redb::ReadableTable;

impl MailWrite<'_> {
    /// Records a folder the user just made on the server (empty, no role).
    pub fn add_folder(&self, account: u64, state: &FolderState) -> anyhow::Result<()> {
        if self.folder(account, &state.name)?.is_none() {
            self.save_folder(account, state)?;
        }
        Ok(())
    }

    /// Forgets a folder deleted on the server: its messages and its record. Returns how many
    /// messages went.
    pub fn forget_folder(&self, account: u64, name: &str) -> anyhow::Result<usize> {
        let n = self.clear_folder(account, name)?;
        self.txn.open_table(FOLDERS)?.remove((account, name))?;
        Ok(n)
    }

    /// Moves a folder's record and messages from `old` to `new` (`display_name` the new one's),
    /// with the changes queued for them. Returns how many messages moved.
    pub fn rename_folder(
        &self,
        account: u64,
        old: &str,
        new: &str,
        display_name: &str,
    ) -> anyhow::Result<usize> {
        let Some(mut state) = self.folder(account, old)? else {
            return Ok(0);
        };
        let stored = self.stored_uids(account, old)?;
        for (uid, id) in &stored {
            let Some(mut meta) = self.meta(*id)? else {
                continue;
            };
            // The folder may hold the mail's home or another place of it (a Gmail label:
            // the mail stays where it is, only its label is renamed).
            let place = meta
                .places
                .iter()
                .position(|p| p.folder == old && p.uid == *uid);
            if place.is_none() {
                self.log(&meta, Kind::Removed)?;
            }
            self.unindex(&meta)?;
            let mut uids = Uids::open(self.txn)?;
            uids.remove(account, old, *uid)?;
            match place {
                Some(at) => meta.places[at].folder = new.to_string(),
                None => meta.folder = new.to_string(),
            }
            uids.insert(account, new, *uid, *id)?;
            drop(uids);
            self.write_meta(&meta)?;
        }
        // Queued changes name the folder their UIDs are in.
        let mut pending = self.txn.open_table(PENDING)?;
        let queued: Vec<(u64, PendingFlags)> = pending
            .range((account, 0)..=(account, u64::MAX))?
            .filter_map(|e| e.ok())
            .filter_map(|(k, v)| Some((k.value().1, record::decode(v.value()).ok()?)))
            .filter(|(_, op): &(u64, PendingFlags)| op.folder == old)
            .collect();
        for (id, mut op) in queued {
            op.folder = new.to_string();
            pending.insert((account, id), record::encode(&op).as_slice())?;
        }
        drop(pending);
        self.txn.open_table(FOLDERS)?.remove((account, old))?;
        state.name = new.to_string();
        state.display_name = display_name.to_string();
        self.save_folder(account, &state)?;
        Ok(stored.len())
    }
}
