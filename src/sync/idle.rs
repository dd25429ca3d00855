//! One IDLE command (RFC 2177) on the selected INBOX, read here rather than by async-imap's
//! IDLE handle: a server may end an IDLE itself with a plain tagged OK (a server restarting its
//! IDLE, a proxy's limit). async-imap's handle then keeps waiting (the tagged reply goes to its
//! unsolicited channel) and its DONE is answered BAD, losing the session; here the end is seen,
//! the session kept, and the caller syncs INBOX and idles again.

use std::future::Future;
use std::time::Duration;

use async_imap::error::Error;
use async_imap::imap_proto::{Response, Status};

use crate::mail::imap::ImapSession;
use crate::mail::imap_ops::{deadline, read_to_done, tagged_result};

/// How an IDLE ended.
#[derive(Debug, PartialEq, Eq)]
pub enum Idled<S> {
    /// The server said something (new mail, an expunge, a flag changed elsewhere).
    Changed,
    /// The server ended the IDLE itself (its tagged OK) without a word about the mailbox.
    EndedByServer,
    /// The renewal time passed.
    Renew,
    /// `stop` fired first, with `by`; `changed` when the server said something about the
    /// mailbox before the IDLE was over.
    Stopped { by: S, changed: bool },
}

/// Idles until the server says something, ends the IDLE, `renew` passes or `stop` fires; then
/// `DONE` (unless the server ended it) and its tagged answer. Every read but the wait itself
/// is under `limit`.
pub async fn idle<S>(
    session: &mut ImapSession,
    limit: Duration,
    renew: Duration,
    stop: impl Future<Output = S>,
) -> anyhow::Result<Idled<S>> {
    let tag = deadline(limit, "IDLE", session.run_command("IDLE"))
        .await?
        .0;
    // The continuation, or the server's refusal (or its immediate end).
    loop {
        match read(session, limit).await? {
            Read::Continue => break,
            Read::Done(done, r) if done == tag => {
                r?;
                return Ok(Idled::EndedByServer);
            }
            _ => {}
        }
    }
    tokio::pin!(stop);
    let mut changed = false;
    let ended = tokio::select! {
        r = wait(session, &tag) => match r? {
            true => return Ok(Idled::EndedByServer),
            false => {
                changed = true;
                Idled::Changed
            }
        },
        () = tokio::time::sleep(renew) => Idled::Renew,
        s = &mut stop => Idled::Stopped { by: s, changed: false },
    };
    deadline(limit, "DONE", session.run_command_untagged("DONE")).await?;
    read_to_done(session, limit, "DONE", &tag, |r| {
        changed |= !matches!(
            r,
            Response::Data { .. } | Response::Continue { .. } | Response::Done { .. }
        );
    })
    .await?;
    // Something said while DONE was on its way is a change too.
    Ok(match ended {
        Idled::Stopped { by, .. } => Idled::Stopped { by, changed },
        _ if changed => Idled::Changed,
        other => other,
    })
}

/// Waits for the server's first word during the IDLE: `Ok(true)` when it ended the IDLE (its
/// tagged OK), `Ok(false)` for news about the mailbox. Keep-alives (`* OK Still here`) are
/// skipped. Cancel-safe: an unfinished response stays in the session's buffer.
async fn wait(session: &mut ImapSession, tag: &str) -> anyhow::Result<bool> {
    loop {
        let Some(response) = session.read_response().await? else {
            return Err(Error::ConnectionLost.into());
        };
        match response.parsed() {
            Response::Data {
                status: Status::Ok, ..
            }
            | Response::Continue { .. } => {}
            Response::Data {
                status: Status::Bye,
                ..
            } => return Err(Error::ConnectionLost.into()),
            Response::Done {
                tag: done, status, ..
            } if done.0 == tag => {
                let text = "IDLE ended by the server".to_string();
                return Ok(tagged_result(status, text).map(|()| true)?);
            }
            _ => return Ok(false),
        }
    }
}

/// One response, in short.
enum Read {
    Continue,
    /// A tagged status: its tag, and the status as a result.
    Done(String, Result<(), Error>),
    /// Anything else (before the continuation, nothing to act on).
    Other,
}

async fn read(session: &mut ImapSession, limit: Duration) -> anyhow::Result<Read> {
    let Some(response) = deadline(limit, "IDLE", session.read_response()).await? else {
        return Err(Error::ConnectionLost.into());
    };
    Ok(match response.parsed() {
        Response::Continue { .. } => Read::Continue,
        Response::Done {
            tag,
            status,
            outcome,
        } => {
            let text = outcome.information.as_deref().unwrap_or("").to_string();
            Read::Done(tag.0.clone(), tagged_result(status, text))
        }
        Response::Data {
            status: Status::Bye,
            ..
        } => return Err(Error::ConnectionLost.into()),
        _ => Read::Other,
    })
}
