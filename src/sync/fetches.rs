//! The FETCH commands of a folder's sync: the newest mails' UIDs by sequence number, the sizes
//! of a window of UIDs, a chunk's bodies, every flag. Each reads its answer to the end and then
//! the tagged completion, so a refused FETCH is an error, never an empty folder.

use futures_util::TryStreamExt;

use super::ctx::Ctx;
use super::folder::{FIRST_CHUNK, server_flags};
use super::plan::UidSet;
use crate::mail::imap::ImapSession;
use crate::mail::imap_ops::{begin, completed, deadline};
use crate::mailstore::{Fetched, ServerFlags};

const BODY_QUERY: &str = "(UID FLAGS INTERNALDATE RFC822.SIZE BODY.PEEK[])";

/// The UIDs below `below` of the folder's newest [`FIRST_CHUNK`] messages (of `exists`), asked
/// by sequence number: the server answers from its index, with no listing of the folder.
pub(super) async fn newest_uids(
    ctx: &Ctx,
    session: &mut ImapSession,
    exists: u32,
    below: u32,
) -> anyhow::Result<UidSet> {
    let limit = ctx.limit();
    let mut out = Vec::new();
    ctx.count_fetch_command(false);
    let first = exists - FIRST_CHUNK + 1;
    begin(session);
    let range = format!("{first}:{exists}");
    let mut stream = deadline(limit, "FETCH", session.fetch(&range, "(UID)")).await?;
    while let Some(fetch) = deadline(limit, "FETCH", stream.try_next()).await? {
        // Only what was asked: an unsolicited FETCH (another client flagging an older mail)
        // carries a UID too, and taken for one of the newest it would move the walk's floor
        // below mail never fetched.
        if !(first..=exists).contains(&fetch.message) {
            continue;
        }
        if let Some(uid) = fetch.uid.filter(|&u| u < below) {
            out.push(uid);
        }
    }
    drop(stream);
    completed(session)?;
    Ok(UidSet::from_uids(out))
}

/// (UID, RFC822.SIZE) of the messages with UIDs in `lo..=hi`.
pub(super) async fn fetch_sizes(
    ctx: &Ctx,
    session: &mut ImapSession,
    lo: u32,
    hi: u32,
) -> anyhow::Result<Vec<(u32, u32)>> {
    let limit = ctx.limit();
    let mut out = Vec::new();
    ctx.count_fetch_command(false);
    let range = format!("{lo}:{hi}");
    begin(session);
    let mut stream = deadline(
        limit,
        "FETCH",
        session.uid_fetch(&range, "(UID RFC822.SIZE)"),
    )
    .await?;
    while let Some(fetch) = deadline(limit, "FETCH", stream.try_next()).await? {
        // An unsolicited FETCH (another client changing flags) has no size.
        if let (Some(uid), Some(size)) = (fetch.uid, fetch.size)
            && (lo..=hi).contains(&uid)
        {
            out.push((uid, size));
        }
    }
    drop(stream);
    // A throttled FETCH is no answer, not a range without mail.
    completed(session)?;
    Ok(out)
}

/// Fetches the messages with UIDs in `lo..=hi`. Each server response must arrive within the
/// timeout.
pub(super) async fn fetch_bodies(
    ctx: &Ctx,
    session: &mut ImapSession,
    set: &str,
    lo: u32,
    hi: u32,
) -> anyhow::Result<Vec<Fetched>> {
    let limit = ctx.limit();
    let mut out = Vec::new();
    ctx.count_fetch_command(true);
    begin(session);
    let mut stream = deadline(limit, "FETCH", session.uid_fetch(set, BODY_QUERY)).await?;
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
            identity: None,
            thread: None,
        });
    }
    drop(stream);
    completed(session)?;
    Ok(out)
}

pub(super) async fn fetch_flags(
    ctx: &Ctx,
    session: &mut ImapSession,
    query: &str,
) -> anyhow::Result<Vec<(u32, ServerFlags)>> {
    let limit = ctx.limit();
    let mut out = Vec::new();
    ctx.count_fetch_command(false);
    begin(session);
    let mut stream = deadline(limit, "FETCH", session.uid_fetch("1:*", query)).await?;
    while let Some(fetch) = deadline(limit, "FETCH", stream.try_next()).await? {
        if let Some(uid) = fetch.uid {
            out.push((uid, server_flags(&fetch)));
        }
    }
    drop(stream);
    completed(session)?;
    Ok(out)
}
