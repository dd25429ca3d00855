//! QRESYNC (RFC 7162): a reconnect resynchronises a folder in its SELECT. `ENABLE QRESYNC` once
//! per session, then `SELECT box (QRESYNC (uidvalidity modseq))` with the stored state: the
//! server answers, before the tagged OK, the UIDs expunged since that MODSEQ
//! (`* VANISHED (EARLIER) 3:7,12`) and the flags of every message changed since then
//! (`* 5 FETCH (UID 10 FLAGS (\Seen) MODSEQ (99))`). An unchanged folder costs that one round
//! trip; a changed one moves only what changed, and no `UID SEARCH ALL` lists the folder to find
//! its expunges.
//!
//! async-imap cannot be used for that SELECT: it hands the FETCH and VANISHED lines of a SELECT
//! to its unsolicited-response channel, which holds 100 and drops the rest (a thousand flag
//! changes would mostly be lost). imap-proto parses them (`Response::Vanished`,
//! `Response::Fetch`), so the SELECT is sent here and its responses read one by one through the
//! session (`Session::read_response`, through the same capped stream) up to its tagged status.

use async_imap::imap_proto::{AttributeValue, MailboxDatum, Response, ResponseCode, Status};
use async_imap::types::{Flag, Mailbox};

use super::folder::flags_from;
use super::plan::UidSet;
use crate::mail::imap::ImapSession;
use crate::mail::imap_ops::{deadline, read_to_done};
use crate::mail::imap_quoted::quoted;
use crate::mailstore::ServerFlags;

/// What a SELECT with QRESYNC told.
#[derive(Debug, Default)]
pub struct Resynced {
    pub mailbox: Mailbox,
    /// UIDs expunged since the given MODSEQ (the server may name UIDs never stored here).
    pub vanished: UidSet,
    /// The flags of the messages changed since the given MODSEQ, by UID.
    pub changed: Vec<(u32, ServerFlags)>,
}

/// `ENABLE QRESYNC` (once per session, after login): whether the server enabled it (its
/// `* ENABLED` line names it). A NO or BAD is an error.
pub async fn enable(session: &mut ImapSession, limit: std::time::Duration) -> anyhow::Result<bool> {
    let tag = deadline(limit, "ENABLE", session.run_command("ENABLE QRESYNC")).await?;
    let mut enabled = false;
    read_to_done(session, limit, "ENABLE", &tag.0, |r| {
        if let Response::Capabilities(caps) = r {
            enabled |= caps.iter().any(|c| {
                matches!(c, async_imap::imap_proto::Capability::Atom(a) if a.eq_ignore_ascii_case("QRESYNC"))
            });
        }
    })
    .await?;
    Ok(enabled)
}

/// `SELECT name (QRESYNC (uidvalidity modseq))`. When the folder's UIDVALIDITY is no longer
/// `uidvalidity` the server sends no VANISHED or FETCH lines, and the caller sees the new value
/// in the mailbox.
pub async fn select(
    session: &mut ImapSession,
    limit: std::time::Duration,
    name: &str,
    uidvalidity: u32,
    modseq: u64,
) -> anyhow::Result<Resynced> {
    let command = format!(
        "SELECT {} (QRESYNC ({uidvalidity} {modseq}))",
        quoted(name)?
    );
    let tag = deadline(limit, "SELECT", session.run_command(command)).await?;
    let mut out = Resynced::default();
    let mut vanished: Vec<(u32, u32)> = Vec::new();
    read_to_done(session, limit, "SELECT", &tag.0, |r| {
        absorb(&mut out, &mut vanished, r);
    })
    .await?;
    out.vanished = UidSet::from_ranges(vanished);
    Ok(out)
}

/// Takes one response of a QRESYNC SELECT into `out` (VANISHED ranges into `vanished`).
fn absorb(out: &mut Resynced, vanished: &mut Vec<(u32, u32)>, response: &Response<'_>) {
    let mailbox = &mut out.mailbox;
    match response {
        Response::MailboxData(MailboxDatum::Exists(n)) => mailbox.exists = *n,
        Response::MailboxData(MailboxDatum::Recent(n)) => mailbox.recent = *n,
        Response::Data {
            status: Status::Ok,
            outcome,
        } => match &outcome.code {
            Some(ResponseCode::UidValidity(v)) => mailbox.uid_validity = Some(*v),
            Some(ResponseCode::UidNext(n)) => mailbox.uid_next = Some(*n),
            Some(ResponseCode::HighestModSeq(m)) => mailbox.highest_modseq = Some(*m),
            Some(ResponseCode::PermanentFlags(flags)) => {
                mailbox.permanent_flags = flags.iter().map(|f| Flag::from(f.to_string())).collect();
            }
            _ => {}
        },
        Response::Vanished { uids, .. } => {
            vanished.extend(uids.iter().map(|r| (*r.start(), *r.end())));
        }
        Response::Fetch(_, attributes) => {
            let mut uid = None;
            let mut flags = None;
            for a in attributes {
                match a {
                    AttributeValue::Uid(u) => uid = Some(*u),
                    AttributeValue::Flags(f) => {
                        flags = Some(flags_from(f.iter().map(|s| Flag::from(&**s))))
                    }
                    _ => {}
                }
            }
            if let (Some(uid), Some(flags)) = (uid, flags) {
                out.changed.push((uid, flags));
            }
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(lines: &[&str]) -> Resynced {
        let mut out = Resynced::default();
        let mut vanished = Vec::new();
        for line in lines {
            let (rest, r) = Response::parse(line.as_bytes()).expect(line);
            assert!(rest.is_empty(), "{line}");
            absorb(&mut out, &mut vanished, &r);
        }
        out.vanished = UidSet::from_ranges(vanished);
        out
    }

    #[test]
    fn a_qresync_select_gives_its_state_expunges_and_changed_flags() {
        let out = read(&[
            "* OK [CLOSED] Previous mailbox closed.\r\n",
            "* FLAGS (\\Answered \\Flagged \\Deleted \\Seen \\Draft $Done)\r\n",
            "* OK [PERMANENTFLAGS (\\Answered \\Flagged \\Deleted \\Seen \\Draft $Done \\*)] Flags permitted.\r\n",
            "* 3000 EXISTS\r\n",
            "* 0 RECENT\r\n",
            "* OK [UIDVALIDITY 1700000000] UIDs valid\r\n",
            "* OK [UIDNEXT 3011] Predicted next UID\r\n",
            "* OK [HIGHESTMODSEQ 4321] Highest\r\n",
            "* VANISHED (EARLIER) 5:7,12,3005\r\n",
            "* 1 FETCH (UID 1 FLAGS (\\Seen $Done) MODSEQ (4300))\r\n",
            "* 2 FETCH (FLAGS (\\Flagged) UID 2 MODSEQ (4301))\r\n",
            "* VANISHED 40\r\n",
        ]);
        let m = &out.mailbox;
        assert_eq!(
            (m.exists, m.uid_validity, m.uid_next, m.highest_modseq),
            (3000, Some(1_700_000_000), Some(3011), Some(4321))
        );
        assert!(m.permanent_flags.contains(&Flag::MayCreate));
        assert_eq!(
            out.vanished.ranges(),
            [(5, 7), (12, 12), (40, 40), (3005, 3005)]
        );
        assert_eq!(out.changed.len(), 2);
        assert_eq!(out.changed[0].0, 1);
        assert!(out.changed[0].1.seen && out.changed[0].1.keywords == ["$Done"]);
        assert!(out.changed[1].1.flagged && !out.changed[1].1.seen);
    }
}
