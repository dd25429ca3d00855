//! Folders LIST no longer shows: deleted or renamed on the server by another client (a second
//! mail program, `doveadm`, the provider's webmail). The store follows in the LIST's own
//! transaction, through the mail store's API, so every message, index entry and count goes
//! with its folder and the change log tells search and the live lists.
//!
//! A rename is told from a delete by UIDVALIDITY: a newly listed folder with the UIDVALIDITY of
//! exactly one vanished folder (and a UIDNEXT not below what was fetched there) is that folder
//! under its new name; IMAP's RENAME keeps both, so its mail keeps its ids, statuses and UIDs
//! and is not downloaded again, and the rules that name it follow it. Anything else (a server
//! that renumbers, two vanished folders sharing a UIDVALIDITY) is a delete and a new folder:
//! the mail is fetched once more under the new name, never kept twice.

use std::collections::HashMap;
use std::sync::Arc;

use super::ctx::Ctx;
use crate::hooks::FolderFollower;
use crate::mail::imap::ImapSession;
use crate::mail::imap_ops::{deadline, refused};
use crate::mailstore::{FolderState, MailWrite};

/// At most this many newly listed folders are asked their UIDVALIDITY (a STATUS each) in one
/// pass; more new folders at once are taken as new (their mail fetched once).
const MAX_STATUS: usize = 50;

/// (old path, new path) for each vanished folder found again under a new name among `new`.
pub(super) async fn renames(
    ctx: &Ctx,
    session: &mut ImapSession,
    gone: &[FolderState],
    new: &[String],
) -> anyhow::Result<Vec<(String, String)>> {
    if new.is_empty() || gone.iter().all(|f| f.uidvalidity == 0) {
        return Ok(Vec::new());
    }
    let limit = ctx.limit();
    // UIDVALIDITY → the new folders that have it, with their UIDNEXT.
    let mut by_validity: HashMap<u32, Vec<(String, u32)>> = HashMap::new();
    for name in new.iter().take(MAX_STATUS) {
        let status = session.status(name, "(UIDVALIDITY UIDNEXT)");
        match deadline(limit, "STATUS", status).await {
            Ok(m) => {
                if let Some(v) = m.uid_validity {
                    by_validity
                        .entry(v)
                        .or_default()
                        .push((name.clone(), m.uid_next.unwrap_or(0)));
                }
            }
            // Gone again, or not ours to read: a new folder like any other.
            Err(e) if refused(&e) => {}
            Err(e) => return Err(e),
        }
    }
    let mut out = Vec::new();
    for f in gone.iter().filter(|f| f.uidvalidity != 0) {
        let twins = gone
            .iter()
            .filter(|g| g.uidvalidity == f.uidvalidity)
            .count();
        if let Some([(name, next)]) = by_validity.get(&f.uidvalidity).map(Vec::as_slice)
            && twins == 1
            && *next >= f.top
        {
            out.push((f.name.clone(), name.clone()));
        }
    }
    Ok(out)
}

/// The store after LIST, inside its transaction: each renamed folder moved with its mail (and
/// followed by `followers`), every other vanished folder forgotten with its mail. A folder the
/// store no longer holds (the user renamed or deleted it here while LIST ran) is left alone.
/// Returns whether any folder changed.
pub(super) fn follow(
    w: &MailWrite<'_>,
    (account, user_id): (u64, u64),
    gone: &[FolderState],
    renames: &[(String, String)],
    followers: Option<&Arc<dyn FolderFollower>>,
) -> anyhow::Result<bool> {
    let mut changed = false;
    let mut followed = Vec::new();
    for f in gone {
        if w.folder(account, &f.name)?.is_none() {
            continue;
        }
        changed = true;
        let renamed_to = renames.iter().find(|(old, _)| *old == f.name);
        match renamed_to {
            // The new name's record, role and plain name are written by LIST right after.
            Some((old, new)) if w.folder(account, new)?.is_none() => {
                let moved = w.rename_folder(account, old, new, new)?;
                tracing::info!(account, from = %old, to = %new, moved, "folder renamed on the server");
                followed.push((old.clone(), new.clone()));
            }
            _ => {
                let n = w.forget_folder(account, &f.name)?;
                tracing::info!(account, folder = %f.name, messages = n, "folder deleted on the server");
            }
        }
    }
    if !followed.is_empty()
        && let Some(followers) = followers
    {
        followers.renamed(w.txn(), user_id, &followed)?;
    }
    Ok(changed)
}
