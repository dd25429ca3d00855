//! A Gmail-shaped mailbox's copies (issue 38; see `mailstore::places`): before a window's bodies
//! are fetched, each copy's identity (Gmail's `X-GM-MSGID`, else Message-ID and size) is asked
//! for, copies of mail stored already become its places, and only the rest is downloaded, as a
//! UID set rather than a range.

use std::collections::{HashMap, HashSet};

use futures_util::TryStreamExt;

use super::ctx::Ctx;
use super::plan::UidSet;
use crate::mail::imap::{self, ImapSession};
use crate::mail::imap_ops::{begin, completed, deadline};
use crate::mailstore::Identity;

/// A Gmail-shaped mailbox's window (see `mailstore::places`): the copies still to download,
/// with what their bodies are stored with.
#[derive(Default)]
pub(super) struct Copies {
    /// The identity keys of the copies whose bodies are to be fetched.
    pub(super) keys: HashMap<u32, String>,
    /// The UIDs of the window to fetch (a placed copy is never downloaded).
    pub(super) unplaced: Vec<u32>,
    /// Gmail's thread ids of those copies (X-GM-THRID).
    pub(super) threads: HashMap<u32, String>,
    /// Gmail's labels of those copies (X-GM-LABELS), stored with their mail.
    pub(super) labels: HashMap<u32, Vec<String>>,
}

impl Copies {
    /// Asks the window's copies for their ids; those of mail stored already become its places.
    /// Returns the (UID, size) of the rest, to be downloaded.
    pub(super) async fn place(
        &mut self,
        ctx: &Ctx,
        session: &mut ImapSession,
        folder: &str,
        (lo, hi): (u32, u32),
        kind: Identity,
    ) -> anyhow::Result<Vec<(u32, u32)>> {
        let copies = fetch_identities(ctx, session, lo, hi, kind).await?;
        let keyed: Vec<(u32, String)> = copies
            .iter()
            .filter_map(|c| Some((c.uid, c.key.clone()?)))
            .collect();
        self.threads.extend(
            copies
                .iter()
                .filter_map(|c| Some((c.uid, c.thread.clone()?))),
        );
        self.labels.extend(
            copies
                .iter()
                .filter_map(|c| Some((c.uid, c.labels.clone()?))),
        );
        let (account, folder) = (ctx.account_id, folder.to_string());
        let asked = keyed.clone();
        let placed: HashSet<u32> = ctx
            .write(move |w| w.place_known(account, &folder, &asked))
            .await?
            .into_iter()
            .collect();
        self.keys
            .extend(keyed.into_iter().filter(|(uid, _)| !placed.contains(uid)));
        let left: Vec<(u32, u32)> = copies
            .into_iter()
            .filter(|c| !placed.contains(&c.uid))
            .map(|c| (c.uid, c.size))
            .collect();
        self.unplaced = left.iter().map(|(uid, _)| *uid).collect();
        Ok(left)
    }
}

/// The UIDs of `uids` within `lo..=hi` as an IMAP sequence set (runs as `a:b`).
pub(super) fn uid_set_text(uids: &[u32], lo: u32, hi: u32) -> String {
    let set = UidSet::from_uids(uids.iter().copied().filter(|u| (lo..=hi).contains(u)));
    let parts: Vec<String> = set
        .ranges()
        .iter()
        .map(|&(a, b)| {
            if a == b {
                a.to_string()
            } else {
                format!("{a}:{b}")
            }
        })
        .collect();
    if parts.is_empty() {
        // Nothing left (cannot happen: a chunk holds at least one listed UID).
        format!("{lo}")
    } else {
        parts.join(",")
    }
}

/// One copy in a folder of a Gmail-shaped mailbox, before its body is fetched.
struct Copy {
    uid: u32,
    size: u32,
    /// Its key (`Identity::key`): the same in every folder the mail is in.
    key: Option<String>,
    /// Gmail's thread id (X-GM-THRID), as the mail's thread key.
    thread: Option<String>,
    /// Gmail's labels (X-GM-LABELS).
    labels: Option<Vec<String>>,
}

/// The copies (UID, RFC822.SIZE, key, thread) of the messages with UIDs in `lo..=hi` of a Gmail-shaped mailbox:
/// `X-GM-MSGID` where Gmail's extension is offered, else the Message-ID from the ENVELOPE.
async fn fetch_identities(
    ctx: &Ctx,
    session: &mut ImapSession,
    lo: u32,
    hi: u32,
    kind: Identity,
) -> anyhow::Result<Vec<Copy>> {
    let limit = ctx.limit();
    let mut out = Vec::new();
    ctx.count_fetch_command(false);
    let range = format!("{lo}:{hi}");
    if kind == Identity::GmailMsgId {
        let ids = deadline(limit, "FETCH", imap::uid_fetch_gmail_ids(session, &range)).await?;
        return Ok(ids
            .into_iter()
            .filter(|i| (lo..=hi).contains(&i.uid))
            .map(|i| Copy {
                uid: i.uid,
                size: i.size,
                key: kind.key(Some(i.msgid), None, i.size),
                thread: i.thrid.map(|t| format!("gm-thread:{t}")),
                labels: i.labels,
            })
            .collect());
    }
    begin(session);
    let query = "(UID RFC822.SIZE ENVELOPE)";
    let mut stream = deadline(limit, "FETCH", session.uid_fetch(&range, query)).await?;
    while let Some(fetch) = deadline(limit, "FETCH", stream.try_next()).await? {
        if let (Some(uid), Some(size)) = (fetch.uid, fetch.size)
            && (lo..=hi).contains(&uid)
        {
            let message_id = fetch
                .envelope()
                .and_then(|e| e.message_id.as_deref())
                .map(|m| String::from_utf8_lossy(m).into_owned());
            let key = kind.key(None, message_id.as_deref(), size);
            out.push(Copy {
                uid,
                size,
                key,
                thread: None,
                labels: None,
            });
        }
    }
    drop(stream);
    completed(session)?;
    Ok(out)
}
