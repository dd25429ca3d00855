//! Stateless IMAP commands shared by the sync (`crate::sync`) and the writers of mail
//! (`crate::outgoing::mailbox`): every exchange under a deadline, STORE of flags, expunging
//! chosen UIDs, UID lists, and telling a server's refusal (NO/BAD) from a broken connection,
//! from a provider slowing the client down (`NO [THROTTLED]`, Outlook.com / Microsoft 365) and
//! from a connection the server ended (`* BYE`, a socket closed under a session).

use std::collections::HashSet;
use std::time::Duration;

use futures_util::TryStreamExt;

use super::imap::ImapSession;

/// Runs one IMAP exchange under the configured timeout: a connection that silently died (NAT
/// dropping an idle socket) must fail and reconnect, never hang the account's task.
pub async fn deadline<T, E>(
    limit: Duration,
    what: &str,
    fut: impl std::future::Future<Output = Result<T, E>>,
) -> anyhow::Result<T>
where
    E: Into<anyhow::Error>,
{
    match tokio::time::timeout(limit, fut).await {
        Ok(r) => r.map_err(Into::into),
        Err(_) => anyhow::bail!("the mail server did not answer {what} in {limit:?}"),
    }
}

/// `UID STORE <uids> <command>` (`+FLAGS.SILENT (\Seen)`, ...), the answer read and dropped;
/// a NO or BAD (a refusal, a throttling) is an error.
pub async fn store_flags(
    session: &mut ImapSession,
    uids: &str,
    command: &str,
    limit: Duration,
) -> anyhow::Result<()> {
    begin(session);
    deadline(limit, "STORE", async {
        session
            .uid_store(uids, command)
            .await?
            .try_collect::<Vec<_>>()
            .await
    })
    .await?;
    completed(session)?;
    Ok(())
}

/// `UID SEARCH <criteria>`; a NO (a throttled SEARCH) is an error, never "nothing matches":
/// the sync would take a folder's stored mail for expunged, a writer a filed copy for missing.
pub async fn uid_search(
    session: &mut ImapSession,
    limit: Duration,
    criteria: &str,
) -> anyhow::Result<HashSet<u32>> {
    begin(session);
    let uids = deadline(limit, "SEARCH", session.uid_search(criteria)).await?;
    completed(session)?;
    Ok(uids)
}

/// A tagged status as async-imap's result: OK, or its `No`/`Bad` with the server's `text`.
pub fn tagged_result(
    status: &async_imap::imap_proto::Status,
    text: String,
) -> Result<(), async_imap::error::Error> {
    use async_imap::error::Error;
    use async_imap::imap_proto::Status;
    match status {
        Status::Ok => Ok(()),
        Status::No => Err(Error::No(text)),
        _ => Err(Error::Bad(text)),
    }
}

/// Reads the responses to the command tagged `tag` (a command sent by hand, whose answers
/// async-imap would not hand out: QRESYNC's SELECT, IDLE's DONE) up to its tagged status, each
/// within `limit`, handing every other response to `each`. NO and BAD are async-imap's errors;
/// a BYE or a closed connection is a lost connection.
pub async fn read_to_done(
    session: &mut ImapSession,
    limit: Duration,
    what: &str,
    tag: &str,
    mut each: impl FnMut(&async_imap::imap_proto::Response<'_>),
) -> anyhow::Result<()> {
    use async_imap::error::Error;
    use async_imap::imap_proto::{Response, Status};
    loop {
        let Some(response) = deadline(limit, what, session.read_response()).await? else {
            return Err(Error::ConnectionLost.into());
        };
        match response.parsed() {
            Response::Done {
                tag: done,
                status,
                outcome,
            } if done.0 == tag => {
                let text = format!(
                    "{:?} {}",
                    outcome.code,
                    outcome.information.as_deref().unwrap_or("")
                );
                return Ok(tagged_result(status, text)?);
            }
            Response::Data {
                status: Status::Bye,
                ..
            } => return Err(Error::ConnectionLost.into()),
            other => each(other),
        }
    }
}

/// Before a command async-imap answers as a stream (FETCH, STORE, SEARCH, LIST, EXPUNGE):
/// forgets the completion of the one before.
pub fn begin(session: &mut ImapSession) {
    session.get_mut().take_done();
}

/// After such a command's answer was read to its end: its tagged completion as async-imap's
/// errors. async-imap drops it for these commands, so a NO or BAD (a throttled SEARCH, a
/// refused STORE) would otherwise read as an empty answer: a folder with no mail, a change
/// made.
pub fn completed(session: &mut ImapSession) -> Result<(), async_imap::error::Error> {
    match session.get_mut().take_done() {
        Some(line) => completion(&line),
        None => Ok(()),
    }
}

/// A tagged completion line as a result.
fn completion(line: &str) -> Result<(), async_imap::error::Error> {
    let mut words = line.splitn(3, ' ');
    let _tag = words.next();
    let status = words.next().unwrap_or("").to_ascii_uppercase();
    let text = words.next().unwrap_or("").to_string();
    match status.as_str() {
        "NO" => Err(async_imap::error::Error::No(text)),
        "BAD" => Err(async_imap::error::Error::Bad(text)),
        _ => Ok(()),
    }
}

/// Marks `uids` of the selected folder \Deleted and expunges them (UID EXPUNGE with UIDPLUS;
/// otherwise a plain EXPUNGE, only when the folder's \Deleted mail is exactly ours: another
/// client may have marked mail it has not expunged).
pub async fn expunge_uids(
    session: &mut ImapSession,
    uids: &[u32],
    uidplus: bool,
    limit: Duration,
) -> anyhow::Result<()> {
    let set = uid_list(uids);
    store_flags(session, &set, "+FLAGS.SILENT (\\Deleted)", limit).await?;
    begin(session);
    if uidplus {
        deadline(limit, "EXPUNGE", async {
            session
                .uid_expunge(&set)
                .await?
                .try_collect::<Vec<_>>()
                .await
        })
        .await?;
    } else {
        let deleted = deadline(limit, "SEARCH", session.uid_search("DELETED")).await?;
        completed(session)?;
        if deleted.iter().all(|u| uids.contains(u)) {
            deadline(limit, "EXPUNGE", async {
                session.expunge().await?.try_collect::<Vec<_>>().await
            })
            .await?;
        }
    }
    completed(session)?;
    Ok(())
}

/// UIDs as an IMAP sequence set, one by one: `3,17,18`.
pub fn uid_list(uids: &[u32]) -> String {
    uids.iter()
        .map(u32::to_string)
        .collect::<Vec<_>>()
        .join(",")
}

/// A NO or BAD from the server: the command was understood and refused. A throttling NO is not
/// a refusal: the same command goes through later, so nothing may be dropped for it.
pub fn refused(e: &anyhow::Error) -> bool {
    match imap_error(e) {
        Some(async_imap::error::Error::No(text)) => throttle_of(text).is_none(),
        Some(async_imap::error::Error::Bad(_)) => true,
        _ => false,
    }
}

/// A provider slowing the client down.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Throttle {
    /// The wait the server asked for, when it named one (Outlook: "Suggested Backoff Time:
    /// 1500 milliseconds").
    pub suggested: Option<Duration>,
}

/// The longest wait a server's suggestion is taken for (a larger number is read as this).
const MAX_SUGGESTED: Duration = Duration::from_secs(3600);

/// Whether a NO's text is a throttling answer: the `[THROTTLED]` response code (Outlook.com,
/// Microsoft 365) or, as some servers word it, "throttled"/"rate limit" in the text.
pub fn throttle_of(text: &str) -> Option<Throttle> {
    let lower = text.to_ascii_lowercase();
    if !(lower.contains("throttled") || lower.contains("rate limit")) {
        return None;
    }
    Some(Throttle {
        suggested: suggested_wait(&lower),
    })
}

/// "suggested backoff time: 1500 milliseconds" (or seconds), bounded.
fn suggested_wait(lower: &str) -> Option<Duration> {
    let at = lower.find("backoff time")?;
    let rest = &lower[at + "backoff time".len()..];
    let rest = rest.trim_start_matches([':', ' ', '=']);
    let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
    let n: u64 = digits.get(..digits.len().min(12))?.parse().ok()?;
    let unit = rest[digits.len()..].trim_start();
    let wait = if unit.starts_with("ms") || unit.starts_with("milli") {
        Duration::from_millis(n)
    } else {
        Duration::from_secs(n)
    };
    Some(wait.min(MAX_SUGGESTED))
}

/// A throttling answer anywhere in the error's chain.
pub fn throttled(e: &anyhow::Error) -> Option<Throttle> {
    match imap_error(e) {
        Some(async_imap::error::Error::No(text)) => throttle_of(text),
        _ => None,
    }
}

/// The server ended the connection under an open session: a `* BYE` (Outlook under load, an
/// IDLE cut after ~30 minutes), the socket closed or reset. Not a timeout: a server that stops
/// answering is a failure the user hears about.
pub fn cut(e: &anyhow::Error) -> bool {
    use std::io::ErrorKind as K;
    let io_cut = |io: &std::io::Error| {
        matches!(
            io.kind(),
            K::UnexpectedEof | K::ConnectionReset | K::ConnectionAborted | K::BrokenPipe
        ) || (io.kind() == K::ConnectionRefused && io.to_string().is_empty())
    };
    e.chain().any(|cause| {
        match cause.downcast_ref::<async_imap::error::Error>() {
            Some(async_imap::error::Error::ConnectionLost) => return true,
            Some(async_imap::error::Error::Io(io)) => return io_cut(io),
            _ => {}
        }
        cause.downcast_ref::<std::io::Error>().is_some_and(io_cut)
    })
}

/// The first IMAP library error in the chain.
fn imap_error(e: &anyhow::Error) -> Option<&async_imap::error::Error> {
    e.chain()
        .find_map(|cause| cause.downcast_ref::<async_imap::error::Error>())
}

#[cfg(test)]
mod tests {
    use super::*;
    use async_imap::error::Error;

    #[test]
    fn outlooks_throttling_is_told_from_a_refusal() {
        // async-imap words a NO as "code: ..., info: ..."; Outlook's own text.
        let outlook = anyhow::Error::from(Error::No(
            "code: None, info: Some(\"[THROTTLED] Request is throttled. Suggested Backoff Time: 1500 milliseconds\")".into(),
        ));
        assert_eq!(
            throttled(&outlook),
            Some(Throttle {
                suggested: Some(Duration::from_millis(1500))
            })
        );
        assert!(!refused(&outlook), "a throttled change must not be dropped");
        let plain = anyhow::Error::from(Error::No("[THROTTLED] try later".into()));
        assert_eq!(throttled(&plain), Some(Throttle { suggested: None }));
        let seconds = throttle_of("NO [THROTTLED] Suggested Backoff Time: 99999999999999999 s");
        assert_eq!(seconds.unwrap().suggested, Some(MAX_SUGGESTED));

        let refusal = anyhow::Error::from(Error::No("[NONEXISTENT] no such mailbox".into()));
        assert!(refused(&refusal));
        assert_eq!(throttled(&refusal), None);
        assert!(!cut(&refusal));
        assert!(refused(&anyhow::Error::from(Error::Bad("syntax".into()))));
    }

    #[test]
    fn a_tagged_completion_reads_as_its_status() {
        assert!(completion("A1 OK done").is_ok());
        let no = completion("A2 NO [THROTTLED] Request is throttled.").unwrap_err();
        assert!(throttled(&anyhow::Error::from(no)).is_some());
        assert!(matches!(completion("A3 bad nonsense"), Err(Error::Bad(t)) if t == "nonsense"));
    }

    #[test]
    fn a_connection_the_server_ended_is_a_cut_and_a_timeout_is_not() {
        assert!(cut(&anyhow::Error::from(Error::ConnectionLost)));
        let eof = std::io::Error::new(std::io::ErrorKind::UnexpectedEof, "eof");
        assert!(cut(&anyhow::Error::from(Error::Io(eof))));
        let reset = std::io::Error::new(std::io::ErrorKind::ConnectionReset, "reset");
        assert!(cut(&anyhow::Error::from(reset).context("SELECT")));
        // async-imap's IDLE start on a stream that ended.
        let idle = std::io::Error::new(std::io::ErrorKind::ConnectionRefused, "");
        assert!(cut(&anyhow::Error::from(Error::Io(idle))));
        assert!(!cut(&anyhow::anyhow!(
            "the mail server did not answer IDLE in 5s"
        )));
        assert!(!cut(&anyhow::Error::from(Error::No("[THROTTLED]".into()))));
        assert_eq!(throttled(&anyhow::Error::from(Error::ConnectionLost)), None);
    }
}
