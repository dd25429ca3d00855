//! LIST-STATUS (RFC 5819): one LIST that also answers each folder's STATUS, so a pass skips the
//! SELECT of every folder nothing happened to. Without it a pass costs a round trip per folder
//! even with QRESYNC: 80 ms each on a phone's link, and a Gmail-shaped or a well-filed mailbox
//! has dozens of folders. Only with CONDSTORE, whose HIGHESTMODSEQ changes with every flag
//! change and expunge; a server without it says nothing STATUS can compare flags by. A server
//! that refuses the RETURN options is asked the plain LIST at once; one whose reply cannot be
//! read (`unreadable`) is listed plainly from the account's next session (`session.rs`).
//!
//! A server with CONDSTORE but no LIST-STATUS (or one that refused or garbled it) is asked the
//! same by STATUS commands sent together (`pipelined`): one round trip for all of them instead
//! of a SELECT per folder (and, without QRESYNC, a flag FETCH per folder too).

use std::collections::{HashMap, HashSet};

use async_imap::imap_proto::{MailboxDatum, Response, Status, StatusAttribute};
use async_imap::types::{Name, UnsolicitedResponse};
use futures_util::TryStreamExt;

use crate::mail::imap::ImapSession;
use crate::mail::imap_ops::{begin, completed, deadline};
use crate::mail::imap_quoted::{quoted, unescaped};
use crate::mailstore::FolderState;

/// What the server said of one folder in the LIST's STATUS.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ListedStatus {
    pub messages: Option<u32>,
    pub uid_next: Option<u32>,
    pub uid_validity: Option<u32>,
    pub highest_modseq: Option<u64>,
}

/// What a pass compares of each folder, asked in the LIST's STATUS or by STATUS itself.
const ITEMS: &str = "(MESSAGES UIDNEXT UIDVALIDITY HIGHESTMODSEQ)";

/// The LIST pattern (after the reference name): every folder, with their STATUS when the server
/// offers LIST-STATUS and CONDSTORE, and the SPECIAL-USE attributes asked for by name then (a
/// LIST with RETURN options is LIST-EXTENDED, which returns only what it is asked).
pub fn pattern(list_status: bool, condstore: bool, special_use: bool) -> Option<String> {
    (list_status && condstore).then(|| {
        let special = if special_use { "SPECIAL-USE " } else { "" };
        format!("\"*\" RETURN ({special}STATUS {ITEMS})")
    })
}

/// The pattern of a pass no STATUS can help (no folder has a last pass to compare one with, see
/// [`comparable`]), for a server `pattern` asks with RETURN: the SPECIAL-USE attributes still
/// asked for by name, so each folder's role reads the same on every pass.
pub fn pattern_without_status(special_use: bool) -> Option<String> {
    special_use.then(|| "\"*\" RETURN (SPECIAL-USE)".to_string())
}

/// LIST with `pattern` (`None`: plain `"*"`), its names and, into `statuses`, the STATUS answers
/// that came with them; a NO or BAD is an error (`imap_ops::completed`: a throttled LIST is no
/// answer, not a mailbox without folders). async-imap hands STATUS lines to the unsolicited channel, which holds
/// 100 and drops the rest: it is drained as each name arrives, so a mailbox of thousands of
/// folders loses none. Other unsolicited lines met there are dropped; one that announces a
/// change to the selected folder (an EXISTS: new mail) sets `selected_changed`, since the server
/// will not announce it again.
pub async fn list(
    session: &mut ImapSession,
    pattern: Option<&str>,
    statuses: &mut HashMap<String, ListedStatus>,
    selected_changed: &mut bool,
) -> Result<Vec<Name>, async_imap::error::Error> {
    let unsolicited = session.unsolicited_responses.clone();
    let drain = |statuses: &mut HashMap<String, ListedStatus>, changed: &mut bool| {
        while let Ok(r) = unsolicited.try_recv() {
            match r {
                UnsolicitedResponse::Status {
                    mailbox,
                    attributes,
                } => {
                    statuses.insert(unescaped(&mailbox).into_owned(), of(&attributes));
                }
                other => *changed |= announces_change(&other),
            }
        }
    };
    let mut names = Vec::new();
    begin(session);
    let mut stream = session
        .list(Some(""), Some(pattern.unwrap_or("\"*\"")))
        .await?;
    while let Some(name) = stream.try_next().await? {
        names.push(name);
        drain(statuses, selected_changed);
    }
    drain(statuses, selected_changed);
    drop(stream);
    completed(session)?;
    Ok(names)
}

/// Whether a response the server sent unasked announces a change to the selected folder: new
/// mail, or mail expunged (`EXPUNGE`, or QRESYNC's `VANISHED`).
pub fn announces_change(r: &UnsolicitedResponse) -> bool {
    match r {
        UnsolicitedResponse::Exists(_)
        | UnsolicitedResponse::Recent(_)
        | UnsolicitedResponse::Expunge(_) => true,
        UnsolicitedResponse::Other(data) => changes_selected(data.parsed()),
        _ => false,
    }
}

/// The same of a response as read off the stream: an EXISTS, RECENT, EXPUNGE or VANISHED.
fn changes_selected(r: &Response) -> bool {
    matches!(
        r,
        Response::MailboxData(MailboxDatum::Exists(_) | MailboxDatum::Recent(_))
            | Response::Expunge(_)
            | Response::Vanished { .. }
    )
}

/// Whether a LIST failed because its reply could not be parsed (async-imap reports a line
/// imap-proto cannot read, such as RFC 5258's extended data items, as an I/O error "... during
/// parsing of ...", the source of its `Error::Io`). The connection cannot go on after it.
pub fn unreadable(e: &anyhow::Error) -> bool {
    e.chain().any(|cause| {
        cause
            .downcast_ref::<std::io::Error>()
            .is_some_and(|io| io.to_string().contains("during parsing of"))
    })
}

/// How many STATUS commands go out before their answers are read: a mailbox of thousands of
/// folders costs a round trip per this many, and the server never holds more than these.
const PIPELINED: usize = 64;

/// STATUS (MESSAGES UIDNEXT UIDVALIDITY HIGHESTMODSEQ) of each of `names`, the commands sent
/// together and their answers read after (RFC 3501 §5.5: STATUS may be pipelined), into
/// `statuses`. A folder the server refuses (a NO: gone, no rights, throttled) gets no answer and
/// is then selected as before. The selected folder is not to be among `names` (RFC 3501 says a
/// STATUS of it may be stale). Each command and each answer has `limit`, as a SELECT has; a
/// BYE or a closed connection is a lost connection. An answer that announces a change to the
/// selected folder sets `selected_changed` (as in [`list`]).
pub async fn pipelined(
    session: &mut ImapSession,
    limit: std::time::Duration,
    names: &[String],
    statuses: &mut HashMap<String, ListedStatus>,
    selected_changed: &mut bool,
) -> anyhow::Result<()> {
    use async_imap::error::Error;
    for batch in names.chunks(PIPELINED) {
        let mut waiting = HashSet::new();
        for name in batch {
            let command = format!("STATUS {} {ITEMS}", quoted(name)?);
            waiting.insert(
                deadline(limit, "STATUS", session.run_command(command))
                    .await?
                    .0,
            );
        }
        while !waiting.is_empty() {
            let Some(response) = deadline(limit, "STATUS", session.read_response()).await? else {
                return Err(Error::ConnectionLost.into());
            };
            match response.parsed() {
                Response::MailboxData(MailboxDatum::Status { mailbox, status }) => {
                    statuses.insert(unescaped(mailbox).into_owned(), of(status));
                }
                Response::Done { tag, .. } => {
                    waiting.remove(&tag.0);
                }
                Response::Data {
                    status: Status::Bye,
                    ..
                } => return Err(Error::ConnectionLost.into()),
                // A FETCH of the selected folder (a flag changed): its next sync reads it.
                other => *selected_changed |= changes_selected(other),
            }
        }
    }
    Ok(())
}

/// Whether a folder's last pass left what a STATUS can be compared with: synced before, its
/// initial download finished, a MODSEQ kept.
pub fn comparable(state: &FolderState) -> bool {
    state.top != 0 && state.down_to <= 1 && state.highest_modseq > 0
}

fn of(attributes: &[StatusAttribute]) -> ListedStatus {
    let mut s = ListedStatus::default();
    for a in attributes {
        match *a {
            StatusAttribute::Messages(n) => s.messages = Some(n),
            StatusAttribute::UidNext(n) => s.uid_next = Some(n),
            StatusAttribute::UidValidity(n) => s.uid_validity = Some(n),
            StatusAttribute::HighestModSeq(n) => s.highest_modseq = Some(n),
            _ => {}
        }
    }
    s
}

/// Whether a folder synced before is exactly as the last pass left it: the same numbering, no
/// UID given out since (no new mail), no flag change or expunge (the same HIGHESTMODSEQ), the
/// same count, and its initial download finished. Anything unknown counts as a change.
pub fn unchanged(state: &FolderState, status: &ListedStatus) -> bool {
    comparable(state)
        && status.uid_validity == Some(state.uidvalidity)
        && status.uid_next == Some(state.top)
        && status.highest_modseq == Some(state.highest_modseq)
        && status.messages == Some(state.exists)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn synced() -> (FolderState, ListedStatus) {
        let state = FolderState {
            name: "Sent".into(),
            uidvalidity: 7,
            top: 101,
            down_to: 1,
            highest_modseq: 5000,
            exists: 90,
            ..FolderState::default()
        };
        let status = ListedStatus {
            messages: Some(90),
            uid_next: Some(101),
            uid_validity: Some(7),
            highest_modseq: Some(5000),
        };
        (state, status)
    }

    #[test]
    fn only_a_folder_exactly_as_left_is_skipped() {
        let (state, status) = synced();
        assert!(unchanged(&state, &status));
        let changed = [
            ListedStatus {
                uid_next: Some(102),
                ..status
            },
            ListedStatus {
                highest_modseq: Some(5001),
                ..status
            },
            ListedStatus {
                messages: Some(89),
                ..status
            },
            ListedStatus {
                uid_validity: Some(8),
                ..status
            },
            // A server that left an attribute out.
            ListedStatus {
                highest_modseq: None,
                ..status
            },
        ];
        for s in changed {
            assert!(!unchanged(&state, &s), "{s:?}");
        }
        // Never synced, its initial download unfinished, or no MODSEQ kept.
        for st in [
            FolderState {
                top: 0,
                ..state.clone()
            },
            FolderState {
                down_to: 40,
                ..state.clone()
            },
            FolderState {
                highest_modseq: 0,
                ..state.clone()
            },
        ] {
            assert!(!unchanged(&st, &status));
        }
    }

    #[test]
    fn the_pattern_asks_for_status_only_where_it_can_compare() {
        assert_eq!(pattern(true, false, true), None);
        assert_eq!(pattern(false, true, true), None);
        assert_eq!(
            pattern(true, true, true).as_deref(),
            Some("\"*\" RETURN (SPECIAL-USE STATUS (MESSAGES UIDNEXT UIDVALIDITY HIGHESTMODSEQ))")
        );
        assert_eq!(
            pattern(true, true, false).as_deref(),
            Some("\"*\" RETURN (STATUS (MESSAGES UIDNEXT UIDVALIDITY HIGHESTMODSEQ))")
        );
    }
}
