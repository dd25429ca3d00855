//! The task of a local account (mail imported with `mailclient import`, no mail server):
//! changes the API queues for the server are applied here instead. Flags and keywords are
//! already on the stored message; a move (spam to Junk, archive, trash, back to the inbox)
//! moves the stored message to the folder of that role, created when the account has none.

use std::sync::Arc;

use redb::ReadableTable;
use tokio::sync::Notify;

use super::SyncEvent;
use super::store::{self as mstore, FolderState, PendingFlags};
use super::worker::Ctx;
use crate::store::record;

/// Folder names for roles a local account may lack.
fn name_for(role: &str) -> &'static str {
    match role {
        "inbox" => "INBOX",
        "junk" => "Junk",
        "trash" => "Trash",
        "archive" => "Archive",
        "sent" => "Sent",
        "drafts" => "Drafts",
        _ => "Archive",
    }
}

pub async fn run(ctx: Ctx, wake: Arc<Notify>) {
    {
        let mut s = ctx.status.lock().expect("status");
        s.state = "idle".into();
        s.initial_sync_done = true;
        s.last_sync = Some(time::OffsetDateTime::now_utc().unix_timestamp());
    }
    loop {
        let account = ctx.account_id;
        match ctx.write(move |txn| apply_pending(txn, account)).await {
            Ok(0) => {}
            Ok(_) => {
                let _ = ctx.shared.events.send(SyncEvent::Changed {
                    user_id: ctx.user_id,
                    account_id: account,
                    reason: "sync",
                });
            }
            Err(e) => {
                tracing::error!(account, error = %format!("{e:#}"), "local account: cannot apply changes")
            }
        }
        wake.notified().await;
    }
}

/// Applies and forgets the account's queued changes. Returns how many messages moved.
pub fn apply_pending(txn: &redb::WriteTransaction, account: u64) -> anyhow::Result<usize> {
    let ops: Vec<(u64, PendingFlags)> = {
        let t = txn.open_table(mstore::PENDING)?;
        let mut ops = Vec::new();
        for e in t.range((account, 0)..=(account, u64::MAX))? {
            let (k, v) = e?;
            ops.push((k.value().1, record::decode::<PendingFlags>(v.value())?));
        }
        ops
    };
    let mut moved = 0;
    for (id, op) in ops {
        txn.open_table(mstore::PENDING)?.remove((account, id))?;
        let Some(role) = op.move_to else { continue };
        let Some(mut meta) = mstore::read_meta(&txn.open_table(mstore::MESSAGES)?, id)? else {
            continue;
        };
        let folders = mstore::account_folders(&txn.open_table(mstore::FOLDERS)?, account)?;
        let mut target = match folders.iter().find(|f| f.role == role) {
            Some(f) => f.clone(),
            None => FolderState::local(name_for(&role)),
        };
        if target.name != meta.folder {
            txn.open_table(mstore::UIDS)?
                .remove((account, meta.folder.as_str(), meta.uid))?;
            txn.open_table(mstore::INDEX)?.remove((
                account,
                meta.folder.as_str(),
                meta.date,
                id,
            ))?;
            let uid = target.top.max(1);
            target.top = uid + 1;
            target.exists += 1;
            meta.folder = target.name.clone();
            meta.uid = uid;
            txn.open_table(mstore::UIDS)?
                .insert((account, meta.folder.as_str(), uid), id)?;
            mstore::save_folder(txn, account, &target)?;
            moved += 1;
        }
        // The copy a server would have made is this message: nothing to carry over.
        if let Some(mid) = meta.summary.message_id.as_deref() {
            txn.open_table(mstore::CARRIED)?.remove((account, mid))?;
        }
        mstore::write_meta(txn, &meta)?;
        mstore::unhide(txn, id)?;
    }
    Ok(moved)
}
