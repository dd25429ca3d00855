//! The IMAP side of a folder change: a short session beside the account's sync task (through
//! the sync's TLS, host policy, timeout and OAuth, as the outbox writes Sent), one command, then
//! the mail store follows in one transaction and the sync is woken to list and sync again.

use crate::accounts::AccountRecord;
use crate::error::{AppError, Result};
use crate::mail::imap::ImapSession;
use crate::mail::imap_ops::{deadline, refused};
use crate::mailstore::{self as mstore, FolderState, Reason};
use crate::messages;
use crate::state::AppState;
use crate::sync::SyncManager;

/// A folder change the server is asked to make, with what the store keeps after it.
pub enum Change {
    Create {
        /// The folder as the store keeps it (its `name` is the server path).
        folder: FolderState,
    },
    Rename {
        from: String,
        to: String,
        /// The folder and each one under it: old path, new path, new plain name.
        renamed: Vec<(String, String, String)>,
    },
    /// Deepest first (children before their parent).
    Delete { paths: Vec<String> },
}

/// Runs `change` on the account's server. A refusal is told in Hebrew; a connection failure
/// as the mailbox being unavailable.
pub async fn run(state: &AppState, account: &AccountRecord, change: &Change) -> Result<()> {
    if account.is_local() {
        return Err(AppError::BadRequest(messages::FOLDER_LOCAL_ACCOUNT.into()));
    }
    let sync = state.service::<SyncManager>();
    let shared = sync.shared();
    let endpoint = account.imap_endpoint(shared.timeout, &shared.hosts);
    let mut session = shared
        .oauth
        .imap(&shared.tls, &endpoint, account)
        .await
        .map_err(|e| {
            tracing::warn!(account = account.id, error = %format!("{e:#}"), "folder change: cannot connect");
            AppError::MailboxUnavailable(messages::FOLDER_SERVER_UNREACHABLE.into())
        })?;
    let outcome = commands(&mut session, change, shared.timeout).await;
    let _ = tokio::time::timeout(std::time::Duration::from_secs(5), session.logout()).await;
    outcome.map_err(|e| {
        tracing::warn!(account = account.id, error = %format!("{e:#}"), "folder change refused");
        if refused(&e) {
            AppError::BadRequest(messages::FOLDER_SERVER_REFUSED.into())
        } else {
            AppError::MailboxUnavailable(messages::FOLDER_SERVER_UNREACHABLE.into())
        }
    })
}

async fn commands(
    session: &mut ImapSession,
    change: &Change,
    limit: std::time::Duration,
) -> anyhow::Result<()> {
    match change {
        Change::Create { folder } => {
            let path = &folder.name;
            deadline(limit, "CREATE", session.create(path)).await?;
            let _ = deadline(limit, "SUBSCRIBE", session.subscribe(path)).await;
        }
        Change::Rename { from, to, .. } => {
            deadline(limit, "RENAME", session.rename(from, to)).await?;
            let _ = deadline(limit, "UNSUBSCRIBE", session.unsubscribe(from)).await;
            let _ = deadline(limit, "SUBSCRIBE", session.subscribe(to)).await;
        }
        Change::Delete { paths } => {
            for path in paths {
                let _ = deadline(limit, "UNSUBSCRIBE", session.unsubscribe(path)).await;
                delete(session, path, limit).await?;
            }
        }
    }
    Ok(())
}

/// How many times a DELETE is tried while the folder is still there after it.
const DELETE_TRIES: u32 = 3;

/// DELETE, then a look (STATUS) that the folder is gone. Another session that had it selected
/// (our own sync's pass, woken by the last change) can bring a Maildir folder back by writing
/// its index files after the DELETE; the folder is then deleted again.
async fn delete(
    session: &mut ImapSession,
    path: &str,
    limit: std::time::Duration,
) -> anyhow::Result<()> {
    for attempt in 1..=DELETE_TRIES {
        deadline(limit, "DELETE", session.delete(path)).await?;
        let still_there = deadline(limit, "STATUS", session.status(path, "(MESSAGES)"))
            .await
            .is_ok();
        if !still_there {
            return Ok(());
        }
        tracing::info!(folder = %path, attempt, "folder back after DELETE; deleting again");
        tokio::time::sleep(std::time::Duration::from_millis(300)).await;
    }
    anyhow::bail!("the folder {path} is still there after {DELETE_TRIES} DELETEs")
}

/// The store after the server made `change`: the new folder, the renamed folders (and the
/// rules that name them, in the same transaction) or the deleted ones.
pub async fn follow(state: &AppState, account: &AccountRecord, change: Change) -> Result<()> {
    let (user_id, account) = (account.user_id, account.id);
    let followers = state.hooks.folders.clone();
    mstore::write(&state.store, Reason::Sync, move |w| {
        match change {
            Change::Create { folder } => w.add_folder(account, &folder)?,
            Change::Rename { renamed, .. } => {
                for (old, new, shown) in &renamed {
                    w.rename_folder(account, old, new, shown)?;
                }
                let pairs: Vec<(String, String)> = renamed
                    .into_iter()
                    .map(|(old, new, _)| (old, new))
                    .collect();
                followers.renamed(w.txn(), user_id, &pairs)?;
            }
            Change::Delete { paths } => {
                for p in &paths {
                    w.forget_folder(account, p)?;
                }
            }
        }
        Ok(())
    })
    .await?;
    state.mailboxes.wake(account);
    Ok(())
}
