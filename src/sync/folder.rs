//! Syncing one folder over a selected IMAP session: new mail by UID, the newest-first backfill
//! of the initial sync (resumable), flag changes by CONDSTORE, expunges, UIDVALIDITY changes.

use std::collections::HashSet;
use std::time::{Duration, Instant};

use async_imap::types::{Fetch, Flag};

use super::copies::{Copies, uid_set_text};
use super::ctx::Ctx;
use super::fetches::{fetch_bodies, fetch_flags, fetch_sizes, newest_uids};
use super::plan::{self, Order, UidSet};
use super::{list_status, qresync};
use crate::mail::imap::{self, ImapSession};
use crate::mail::imap_ops::{deadline, uid_search};
use crate::mail::imap_quoted::unescaped;
use crate::mailstore::{FolderState, Identity, ServerFlags};

/// Messages per body FETCH at most, each chunk stored in one transaction. Large enough that
/// Dovecot streams and one commit (an fsync, and every page the chunk touched: the tables keyed
/// by hash touch pages all over) serves many messages; the first chunk is smaller
/// ([`FIRST_CHUNK`]) so the inbox fills at once. 2,500 small mails (5.4 KB on average in the
/// benchmark's corpus) stay under [`CHUNK_BYTES`]. Against 1,000, the 60,000-message first sync
/// ran 5–10% faster for about 30 MiB more memory while it runs (three chunks are in memory);
/// the whole sync's peak, once the index has caught up, stays as it was because the end of a
/// bulk load hands the freed heap back (`store::BulkLoad`).
pub const CHUNK_MESSAGES: u32 = 2_500;

/// Messages in the first window (sized, then fetched in one chunk) of a walk: the first page
/// (50) needs no more.
pub(super) const FIRST_CHUNK: u32 = 50;

/// Bytes per body FETCH at most, by RFC822.SIZE. A chunk's mail is all in memory at once (the
/// FETCH reply, then the batch stored in one transaction), and one chunk is parsed and stored
/// while the next streams in: 16 MiB keeps the two to a few tens of MiB whatever the mail
/// (500 messages of 30 MB would be 15 GB), while a chunk of ordinary mail (tens of KB each)
/// still reaches the count bound. A message bigger than this gets a chunk of its own.
pub const CHUNK_BYTES: u64 = 16 << 20;

/// A walk over more messages than this is a bulk load of the store (`Store::bulk_load`): the
/// search index waits for it rather than compete for the cores and memory.
const BULK_WALK: u64 = 2_000;

/// UIDs whose sizes one `UID FETCH (UID RFC822.SIZE)` asks for: a few chunks' worth, so the
/// first page is not held up by sizing the whole folder.
const SIZE_WINDOW: u32 = 4 * CHUNK_MESSAGES;

pub struct FolderOutcome {
    pub new_messages: usize,
    pub flag_changes: usize,
    pub expunged: usize,
}

/// What the server offers that changes how a folder is synced.
#[derive(Debug, Clone, Copy, Default)]
pub struct FolderCaps {
    /// CONDSTORE: flag changes since a MODSEQ.
    pub condstore: bool,
    /// ESEARCH: `UID SEARCH RETURN (ALL)` lists UIDs as a compact sequence set.
    pub esearch: bool,
    /// QRESYNC enabled for the session: a folder synced before is resynchronised in its
    /// SELECT (`qresync.rs`), expunges from VANISHED.
    pub qresync: bool,
    /// X-GM-EXT-1: Gmail's own message ids (`X-GM-MSGID`).
    pub gmail_ext: bool,
    /// A Gmail-shaped mailbox (a `\All` folder): how its copies of one mail are recognised
    /// (each mail is downloaded once; see `mailstore::places`).
    pub identity: Option<Identity>,
    /// Ask Gmail's labels (`X-GM-LABELS`) with the flags: X-GM-EXT-1, and no earlier session
    /// of the account found the answer unreadable ([`LabelsUnreadable`]).
    pub gmail_labels: bool,
}

impl FolderCaps {
    /// How the copies in `state`'s folder are recognised. Gmail takes mail in Trash and Spam
    /// out of every other folder: a copy there is mail of its own, never another place of a
    /// stored one.
    pub fn identity_in(&self, state: &FolderState) -> Option<Identity> {
        self.identity
            .filter(|_| !matches!(state.role.as_str(), "trash" | "junk"))
    }

    /// Whether Gmail's labels are asked with the flags of `state`'s folder: on Gmail a label
    /// added or taken away moves the mail's MODSEQ too.
    pub fn labels_asked(&self, state: &FolderState) -> bool {
        self.gmail_labels && self.identity_in(state) == Some(Identity::GmailMsgId)
    }

    /// Whether the mail of `state`'s folder is yet to have its labels read once in full (it
    /// was stored before labels were read); a label folder holds no mail's own flags. Such a
    /// folder is looked at however unchanged.
    pub fn labels_due(&self, state: &FolderState) -> bool {
        self.labels_asked(state) && !state.labels && !state.labels_read
    }
}

/// The flags' FETCH with `X-GM-LABELS` came back in a form the parser cannot read (a label
/// sent as a literal): the account's later sessions ask the flags without the labels.
#[derive(Debug)]
pub struct LabelsUnreadable;

impl std::fmt::Display for LabelsUnreadable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("the server's X-GM-LABELS could not be read")
    }
}

pub async fn sync_folder(
    ctx: &Ctx,
    session: &mut ImapSession,
    mut state: FolderState,
    caps: FolderCaps,
) -> anyhow::Result<FolderOutcome> {
    let FolderCaps {
        condstore,
        esearch,
        qresync,
        ..
    } = caps;
    let identity = caps.identity_in(&state);
    let (labels_asked, read_labels) = (caps.labels_asked(&state), caps.labels_due(&state));
    let limit = ctx.limit();
    // With QRESYNC and a state to resume from, the SELECT itself says what changed.
    let mut resynced = None;
    let mailbox = if qresync && state.uidvalidity != 0 && state.highest_modseq > 0 {
        let (validity, modseq) = (state.uidvalidity, state.highest_modseq);
        let mut r = qresync::select(session, limit, &state.name, validity, modseq).await?;
        let mailbox = std::mem::take(&mut r.mailbox);
        resynced = Some(r);
        mailbox
    } else if condstore || qresync {
        deadline(limit, "SELECT", session.select_condstore(&state.name)).await?
    } else {
        deadline(limit, "SELECT", session.select(&state.name)).await?
    };
    let condstore = condstore || qresync;
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
        // Nothing the server said about the old numbering applies.
        resynced = None;
        outcome.expunged += removed;
        state = FolderState {
            name: state.name,
            display_name: state.display_name,
            role: state.role,
            delimiter: state.delimiter,
            ..FolderState::default()
        };
    }
    state.uidvalidity = uidvalidity;
    state.exists = mailbox.exists;
    state.keywords_ok = mailbox
        .permanent_flags
        .iter()
        .any(|f| matches!(f, Flag::MayCreate));
    ctx.note_keywords(&state);

    let uid_next = match mailbox.uid_next {
        Some(n) => n,
        None => max_uid(session, limit).await? + 1,
    };

    if state.top == 0 {
        // First sync of this folder: start at the top and walk down.
        state.top = uid_next;
        state.down_to = uid_next;
        state.highest_modseq = server_modseq;
        ctx.save_folder(&state).await?;
    } else if uid_next > state.top && mailbox.exists > 0 {
        // New mail since the last sync, oldest first, in chunks bounded by count and bytes so
        // a big move into the folder never sits in memory at once; each chunk commits with
        // the new `top`.
        let listed = list_uids(ctx, session, state.top, uid_next - 1, esearch).await?;
        outcome.new_messages += walk(
            ctx,
            session,
            &mut state,
            &listed,
            Order::OldestFirst,
            identity,
            FIRST_CHUNK,
        )
        .await?;
        state.top = uid_next;
    } else if uid_next > state.top {
        state.top = uid_next;
    }

    // The initial sync, newest first, resumable: the UIDs below `down_to` are listed once
    // (however sparse: UIDNEXT may be millions above the message count), then fetched in
    // chunks, each committing with the new `down_to`.
    if state.down_to > 1 {
        // A fresh walk of a folder that needs a listing: its newest mails first, by sequence
        // number, so the first page waits for no listing of the whole folder (`UID SEARCH` of
        // 1,000,000 UIDs took Dovecot 0.15–0.2 s). Then the rest, listed below them.
        // (With the server's UIDNEXT only: without it a SEARCH came between the SELECT and
        // this, and EXISTS may have moved since.)
        let first_page = state.down_to == state.top
            && mailbox.uid_next.is_some()
            && mailbox.exists > FIRST_CHUNK
            && state.down_to - 2 >= SIZE_WINDOW;
        if first_page {
            let newest = newest_uids(ctx, session, mailbox.exists, state.down_to).await?;
            outcome.new_messages += walk(
                ctx,
                session,
                &mut state,
                &newest,
                Order::NewestFirst,
                identity,
                FIRST_CHUNK,
            )
            .await?;
        }
        let listed = if mailbox.exists == 0 {
            UidSet::default()
        } else {
            list_uids(ctx, session, 1, state.down_to - 1, esearch).await?
        };
        outcome.new_messages += walk(
            ctx,
            session,
            &mut state,
            &listed,
            Order::NewestFirst,
            identity,
            // The first page fetched, the windows need not start small.
            if first_page { SIZE_WINDOW } else { FIRST_CHUNK },
        )
        .await?;
        // Nothing is left below the last chunk (or there was nothing at all).
        if state.down_to > 1 {
            state.down_to = 1;
            ctx.save_folder(&state).await?;
        }
    }

    // Flag changes: in the QRESYNC SELECT's answer, or asked for (with Gmail's labels).
    let items = if labels_asked {
        "(UID FLAGS X-GM-LABELS)"
    } else {
        "(UID FLAGS)"
    };
    let flag_query = if read_labels {
        Some(items.to_string())
    } else if resynced.is_some() {
        None
    } else if condstore && state.highest_modseq > 0 {
        (server_modseq > state.highest_modseq)
            .then(|| format!("{items} (CHANGEDSINCE {})", state.highest_modseq))
    } else {
        Some(items.to_string())
    };
    let updates = match (&mut resynced, flag_query) {
        (Some(r), None) => Some(std::mem::take(&mut r.changed)),
        (_, Some(query)) if mailbox.exists > 0 => {
            let fetched = fetch_flags(ctx, session, &query).await;
            Some(
                fetched.map_err(|e| match labels_asked && list_status::unreadable(&e) {
                    true => e.context(LabelsUnreadable),
                    false => e,
                })?,
            )
        }
        _ => None,
    };
    state.labels_read |= read_labels;
    if let Some(updates) = updates.filter(|u| !u.is_empty()) {
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

    // Expunges: QRESYNC's VANISHED; then a cheap count check, the UID list only on a mismatch
    // (with QRESYNC, only when the server's VANISHED missed something).
    let account = ctx.account_id;
    if let Some(r) = resynced.filter(|r| !r.vanished.is_empty()) {
        let name = state.name.clone();
        let ranges = r.vanished.ranges().to_vec();
        outcome.expunged += ctx
            .write(move |w| w.remove_uids(account, &name, &ranges))
            .await?;
    }
    let name = state.name.clone();
    let stored = ctx.read(move |r| r.stored_count(account, &name)).await?;
    if stored as u32 != mailbox.exists {
        let keep: HashSet<u32> = if mailbox.exists == 0 {
            HashSet::new()
        } else {
            uid_search(session, limit, "ALL").await?
        };
        let name = state.name.clone();
        outcome.expunged += ctx
            .write(move |w| w.remove_missing(account, &name, &keep))
            .await?;
    }

    state.last_sync = crate::kit::now();
    ctx.save_folder(&state).await?;
    Ok(outcome)
}

async fn max_uid(session: &mut ImapSession, limit: Duration) -> anyhow::Result<u32> {
    let uids = uid_search(session, limit, "ALL").await?;
    Ok(uids.into_iter().max().unwrap_or(0))
}

/// The UIDs of `lo..=hi` that exist. A range no wider than a size window needs no listing:
/// its size FETCH returns only what exists. Otherwise one ESEARCH (a short line) or SEARCH
/// (every UID), never a walk through empty ranges.
async fn list_uids(
    ctx: &Ctx,
    session: &mut ImapSession,
    lo: u32,
    hi: u32,
    esearch: bool,
) -> anyhow::Result<UidSet> {
    if hi < lo || hi - lo < SIZE_WINDOW {
        return Ok(UidSet::range(lo, hi));
    }
    let limit = ctx.limit();
    let criteria = format!("UID {lo}:{hi}");
    if esearch {
        let set = deadline(
            limit,
            "SEARCH",
            imap::uid_search_compact(session, &criteria),
        )
        .await?;
        return UidSet::parse(&set).ok_or_else(|| {
            anyhow::anyhow!("the mail server's SEARCH reply is not a UID set: {set:.100}")
        });
    }
    let uids = uid_search(session, limit, &criteria).await?;
    Ok(UidSet::from_uids(
        uids.into_iter().filter(|u| (lo..=hi).contains(u)),
    ))
}

/// Fetches the `listed` messages in the walk's order, in chunks bounded by count and bytes:
/// the sizes of a window of UIDs first, then the window's chunks. Each chunk is stored with
/// the folder state that covers it (`down_to` going down, `top` going up) while the next one
/// streams in. Returns how many messages were new.
async fn walk(
    ctx: &Ctx,
    session: &mut ImapSession,
    state: &mut FolderState,
    listed: &UidSet,
    order: Order,
    identity: Option<Identity>,
    first_window: u32,
) -> anyhow::Result<usize> {
    let mut new = 0;
    let mut copies = Copies::default();
    let _bulk = (listed.len() > BULK_WALK).then(|| ctx.store.bulk_load());
    let mut pending: Option<tokio::task::JoinHandle<anyhow::Result<usize>>> = None;
    // Where the time goes (debug log): the server's answers, or waiting for the store.
    let (mut fetching, mut waiting) = (Duration::ZERO, Duration::ZERO);
    // The first window is the first page (`first_window` of FIRST_CHUNK): sized and fetched
    // before a whole window is sized.
    for (lo, hi) in listed.windows_after_first(first_window, SIZE_WINDOW, order) {
        let started = Instant::now();
        // One UID is one chunk whatever its size: no need to ask.
        let sizes = if let Some(kind) = identity {
            // Copies of mail stored already become its places, unfetched.
            copies
                .place(ctx, session, &state.name, (lo, hi), kind)
                .await
        } else if lo == hi {
            Ok(vec![(lo, 0)])
        } else {
            fetch_sizes(ctx, session, lo, hi).await
        };
        let sizes = stored_before(sizes, &mut pending).await?;
        fetching += started.elapsed();
        for chunk in plan::chunks(sizes, order, CHUNK_MESSAGES, CHUNK_BYTES) {
            let started = Instant::now();
            // Only the copies not placed (a Gmail-shaped mailbox), else the whole range.
            let set = match identity {
                Some(_) => uid_set_text(&copies.unplaced, chunk.lo, chunk.hi),
                None => format!("{}:{}", chunk.lo, chunk.hi),
            };
            let batch = fetch_bodies(ctx, session, &set, chunk.lo, chunk.hi).await;
            let mut batch = stored_before(batch, &mut pending).await?;
            for f in &mut batch {
                f.identity = copies.keys.remove(&f.uid);
                f.thread = copies.threads.remove(&f.uid);
                f.flags.labels = copies.labels.remove(&f.uid);
            }
            fetching += started.elapsed();
            match order {
                Order::NewestFirst => state.down_to = chunk.lo,
                Order::OldestFirst => state.top = chunk.hi + 1,
            }
            // Parse this chunk while the previous one is written, and store it while the next
            // one streams in.
            let parsing = ctx.spawn_parse(state, batch);
            if let Some(prev) = pending.take() {
                let started = Instant::now();
                new += prev.await??;
                waiting += started.elapsed();
            }
            pending = Some(ctx.spawn_store_parsed(state.clone(), parsing));
        }
    }
    if let Some(prev) = pending.take() {
        let started = Instant::now();
        new += prev.await??;
        waiting += started.elapsed();
    }
    tracing::debug!(
        folder = %state.name,
        new,
        fetching_secs = fetching.as_secs_f64(),
        waiting_for_store_secs = waiting.as_secs_f64(),
        "folder fetched"
    );
    Ok(new)
}

/// A fetch's result; when it failed (the link dropped mid-FETCH), the chunk already received is
/// stored first, with the folder state that covers it, so the next session resumes after it
/// instead of racing a store still running and fetching it again.
async fn stored_before<T>(
    fetched: anyhow::Result<T>,
    pending: &mut Option<tokio::task::JoinHandle<anyhow::Result<usize>>>,
) -> anyhow::Result<T> {
    if fetched.is_err()
        && let Some(prev) = pending.take()
    {
        match prev.await {
            Ok(Err(e)) => tracing::warn!(error = %format!("{e:#}"), "storing a chunk failed"),
            Err(e) => tracing::warn!(error = %e, "storing a chunk failed"),
            Ok(Ok(_)) => {}
        }
    }
    fetched
}

/// The flags of a FETCH response, with Gmail's labels where it has them.
pub fn server_flags(fetch: &Fetch) -> ServerFlags {
    ServerFlags {
        // imap-proto keeps a quoted label's escapes.
        labels: fetch.gmail_labels().map(|labels| {
            crate::mail::gmail_labels::user_labels(labels.iter().map(|l| unescaped(l)))
        }),
        ..flags_from(fetch.flags())
    }
}

/// Server flags from IMAP flags (keywords sorted).
pub fn flags_from<'a>(flags: impl Iterator<Item = Flag<'a>>) -> ServerFlags {
    let mut f = ServerFlags::default();
    for flag in flags {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_are_due_once_in_folders_that_hold_their_mails_own_flags() {
        let gmail = FolderCaps {
            gmail_labels: true,
            identity: Some(Identity::GmailMsgId),
            ..FolderCaps::default()
        };
        let folder = |role: &str, labels: bool, labels_read: bool| FolderState {
            name: "f".into(),
            role: role.into(),
            labels,
            labels_read,
            ..FolderState::default()
        };
        assert!(gmail.labels_due(&folder("inbox", false, false)));
        assert!(gmail.labels_due(&folder("archive", false, false)));
        // Read once; a label folder; Trash and Spam, whose mail is its own (no labels asked):
        // none is looked at for its labels, or it would be selected on every pass.
        for f in [
            folder("inbox", false, true),
            folder("", true, false),
            folder("trash", false, false),
            folder("junk", false, false),
        ] {
            assert!(!gmail.labels_due(&f), "{f:?}");
        }
        let unreadable = FolderCaps {
            gmail_labels: false,
            ..gmail
        };
        assert!(!unreadable.labels_due(&folder("inbox", false, false)));
        assert!(!unreadable.labels_asked(&folder("inbox", false, false)));
    }
}
