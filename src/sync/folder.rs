//! Syncing one folder over a selected IMAP session: new mail by UID, the newest-first backfill
//! of the initial sync (resumable), flag changes by CONDSTORE, expunges, UIDVALIDITY changes.

use std::collections::HashSet;

use async_imap::types::{Fetch, Flag};
use futures_util::TryStreamExt;

use super::worker::{Ctx, deadline};
use crate::mail::imap::ImapSession;
use crate::mailstore::{Fetched, FolderState, ServerFlags};

/// UIDs per FETCH during the initial sync. Large enough that Dovecot streams, small enough
/// that the inbox fills within a second or two and memory stays flat.
pub const BACKFILL_CHUNK: u32 = 500;

const BODY_QUERY: &str = "(UID FLAGS INTERNALDATE RFC822.SIZE BODY.PEEK[])";

pub struct FolderOutcome {
    pub new_messages: usize,
    pub flag_changes: usize,
    pub expunged: usize,
}

pub async fn sync_folder(
    ctx: &Ctx,
    session: &mut ImapSession,
    mut state: FolderState,
    condstore: bool,
) -> anyhow::Result<FolderOutcome> {
    let limit = ctx.limit();
    let mailbox = if condstore {
        deadline(limit, "SELECT", session.select_condstore(&state.name)).await?
    } else {
        deadline(limit, "SELECT", session.select(&state.name)).await?
    };
    let uidvalidity = mailbox.uid_validity.unwrap_or(0);
    let server_modseq = mailbox.highest_modseq.unwrap_or(0);
    let mut outcome = FolderOutcome {
        new_messages: 0,
        flag_changes: 0,
        expunged: 0,
    };

    if state.uidvalidity != 0 && state.uidvalidity != uidvalidity {
        // The server renumbered the folder: our UIDs mean nothing now.
        tracing::info!(account = ctx.account_id, folder = %state.name, "UIDVALIDITY changed; re-syncing the folder");
        let name = state.name.clone();
        let account = ctx.account_id;
        let removed = ctx.write(move |w| w.clear_folder(account, &name)).await?;
        outcome.expunged += removed;
        state = FolderState {
            name: state.name,
            display_name: state.display_name,
            role: state.role,
            ..FolderState::default()
        };
    }
    state.uidvalidity = uidvalidity;
    state.exists = mailbox.exists;
    state.keywords_ok = mailbox
        .permanent_flags
        .iter()
        .any(|f| matches!(f, Flag::MayCreate));

    let uid_next = match mailbox.uid_next {
        Some(n) => n,
        None => deadline(limit, "SEARCH", max_uid(session)).await? + 1,
    };

    if state.top == 0 {
        // First sync of this folder: start at the top and walk down.
        state.top = uid_next;
        state.down_to = uid_next;
        state.highest_modseq = server_modseq;
        ctx.save_folder(&state).await?;
    } else if uid_next > state.top && mailbox.exists > 0 {
        // New mail since the last sync, oldest first, in chunks so a big move into the folder
        // never sits in memory at once; each chunk commits with the new `top`.
        while state.top < uid_next {
            let hi = state
                .top
                .saturating_add(BACKFILL_CHUNK - 1)
                .min(uid_next - 1);
            let batch = fetch_bodies(ctx, session, state.top, hi).await?;
            state.top = hi + 1;
            outcome.new_messages += ctx.store_batch(&state, batch).await?;
        }
    } else if uid_next > state.top {
        state.top = uid_next;
    }

    // The initial sync, newest first, resumable: each chunk commits with the new `down_to`.
    let mut pending: Option<tokio::task::JoinHandle<anyhow::Result<usize>>> = None;
    while state.down_to > 1 {
        let lo = state.down_to.saturating_sub(BACKFILL_CHUNK).max(1);
        let hi = state.down_to - 1;
        let batch = fetch_bodies(ctx, session, lo, hi).await?;
        state.down_to = lo;
        // Parse and store this chunk while the next one streams in.
        if let Some(prev) = pending.take() {
            outcome.new_messages += prev.await??;
        }
        pending = Some(ctx.spawn_store_batch(state.clone(), batch));
    }
    if let Some(prev) = pending.take() {
        outcome.new_messages += prev.await??;
    }

    // Flag changes.
    let flag_query = if condstore && state.highest_modseq > 0 {
        (server_modseq > state.highest_modseq)
            .then(|| format!("(UID FLAGS) (CHANGEDSINCE {})", state.highest_modseq))
    } else {
        Some("(UID FLAGS)".to_string())
    };
    if let Some(query) = flag_query
        && mailbox.exists > 0
    {
        let updates = fetch_flags(session, &query, limit).await?;
        let name = state.name.clone();
        let account = ctx.account_id;
        let keywords_decide = state.keywords_ok;
        outcome.flag_changes += ctx
            .write(move |w| w.update_flags(account, &name, &updates, keywords_decide))
            .await?;
    }
    if condstore {
        state.highest_modseq = server_modseq;
    }

    // Expunges: cheap count check first, the UID list only on a mismatch.
    let account = ctx.account_id;
    let name = state.name.clone();
    let stored = ctx.read(move |r| r.stored_count(account, &name)).await?;
    if stored as u32 != mailbox.exists {
        let keep: HashSet<u32> = if mailbox.exists == 0 {
            HashSet::new()
        } else {
            deadline(limit, "SEARCH", session.uid_search("ALL")).await?
        };
        let name = state.name.clone();
        outcome.expunged += ctx
            .write(move |w| w.remove_missing(account, &name, &keep))
            .await?;
    }

    state.last_sync = time::OffsetDateTime::now_utc().unix_timestamp();
    ctx.save_folder(&state).await?;
    Ok(outcome)
}

async fn max_uid(session: &mut ImapSession) -> anyhow::Result<u32> {
    let uids = session.uid_search("ALL").await?;
    Ok(uids.into_iter().max().unwrap_or(0))
}

/// Fetches the messages with UIDs in `lo..=hi`. Each server response must arrive within the
/// timeout.
async fn fetch_bodies(
    ctx: &Ctx,
    session: &mut ImapSession,
    lo: u32,
    hi: u32,
) -> anyhow::Result<Vec<Fetched>> {
    let limit = ctx.limit();
    let mut out = Vec::new();
    let range = format!("{lo}:{hi}");
    let mut stream = deadline(limit, "FETCH", session.uid_fetch(&range, BODY_QUERY)).await?;
    while let Some(fetch) = deadline(limit, "FETCH", stream.try_next()).await? {
        let Some(uid) = fetch.uid else { continue };
        // Only what was asked for: an unsolicited FETCH (another client changing flags) has
        // no body and must not be stored as an empty message.
        if uid < lo || uid > hi {
            continue;
        }
        let Some(body) = fetch.body() else { continue };
        let raw = body.to_vec();
        ctx.count_fetched(raw.len());
        out.push(Fetched {
            uid,
            flags: server_flags(&fetch),
            internal_date: fetch.internal_date().map(|d| d.timestamp()),
            raw,
        });
    }
    Ok(out)
}

async fn fetch_flags(
    session: &mut ImapSession,
    query: &str,
    limit: std::time::Duration,
) -> anyhow::Result<Vec<(u32, ServerFlags)>> {
    let mut out = Vec::new();
    let mut stream = deadline(limit, "FETCH", session.uid_fetch("1:*", query)).await?;
    while let Some(fetch) = deadline(limit, "FETCH", stream.try_next()).await? {
        if let Some(uid) = fetch.uid {
            out.push((uid, server_flags(&fetch)));
        }
    }
    Ok(out)
}

pub fn server_flags(fetch: &Fetch) -> ServerFlags {
    let mut f = ServerFlags::default();
    for flag in fetch.flags() {
        match flag {
            Flag::Seen => f.seen = true,
            Flag::Flagged => f.flagged = true,
            Flag::Answered => f.answered = true,
            Flag::Draft => f.draft = true,
            Flag::Custom(k) => f.keywords.push(k.to_string()),
            _ => {}
        }
    }
    f.keywords.sort();
    f
}
