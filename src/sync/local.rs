//! The task of a local account (mail imported with `mailclient import`, no mail server):
//! changes the API queues for the server are applied here instead. Flags and keywords are
//! already on the stored message; a move (spam to Junk, archive, trash, back to the inbox)
//! moves the stored message to the folder of that role, created when the account has none.

use std::sync::Arc;

use tokio::sync::Notify;

use super::ctx::Ctx;
use crate::mailstore::{FolderState, MailWrite};

/// Folder names for roles a local account may lack.
fn name_for(role: &str) -> &'static str {
    match role {
        "inbox" => "INBOX",
        "junk" => "Junk",
        "trash" => "Trash",
        "archive" => "Archive",
        "sent" => "Sent",
        "drafts" => "Drafts",
        "snoozed" => "Snoozed",
        _ => "Archive",
    }
}

pub async fn run(ctx: Ctx, wake: Arc<Notify>) {
    {
        let mut s = ctx.status.lock().expect("status");
        s.state = "idle".into();
        s.initial_sync_done = true;
        s.last_sync = Some(crate::kit::now());
    }
    loop {
        let account = ctx.account_id;
        // The moves are logged as the mailbox's changes: the live channel tells the user.
        if let Err(e) = ctx.write(move |w| apply_pending(w, account)).await {
            tracing::error!(account, error = %format!("{e:#}"), "local account: cannot apply changes")
        }
        wake.notified().await;
    }
}

/// Applies and forgets the account's queued changes. Returns how many messages moved.
pub fn apply_pending(w: MailWrite, account: u64) -> anyhow::Result<usize> {
    let mut moved = 0;
    for (id, op) in w.pending(account)? {
        w.forget_pending(account, id)?;
        let Some(role) = op.move_to else { continue };
        let Some(meta) = w.meta(id)? else {
            continue;
        };
        let mut target = match w.folders(account)?.into_iter().find(|f| f.role == role) {
            Some(f) => f,
            None => FolderState::local(name_for(&role)),
        };
        if target.name != meta.folder {
            moved += 1;
        }
        w.move_local(meta, &mut target)?;
        w.unhide(id)?;
    }
    Ok(moved)
}
