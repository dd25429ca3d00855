//! Stateless IMAP commands shared by the sync (`crate::sync`) and the writers of mail
//! (`crate::outgoing::mailbox`): every exchange under a deadline, STORE of flags, expunging
//! chosen UIDs, UID lists, and telling a server's refusal (NO/BAD) from a broken connection.

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

/// `UID STORE <uids> <command>` (`+FLAGS.SILENT (\Seen)`, ...), the answer read and dropped.
pub async fn store_flags(
    session: &mut ImapSession,
    uids: &str,
    command: &str,
    limit: Duration,
) -> anyhow::Result<()> {
    deadline(limit, "STORE", async {
        session
            .uid_store(uids, command)
            .await?
            .try_collect::<Vec<_>>()
            .await
    })
    .await?;
    Ok(())
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
        if deleted.iter().all(|u| uids.contains(u)) {
            deadline(limit, "EXPUNGE", async {
                session.expunge().await?.try_collect::<Vec<_>>().await
            })
            .await?;
        }
    }
    Ok(())
}

/// UIDs as an IMAP sequence set, one by one: `3,17,18`.
pub fn uid_list(uids: &[u32]) -> String {
    uids.iter()
        .map(u32::to_string)
        .collect::<Vec<_>>()
        .join(",")
}

/// A NO or BAD from the server: the command was understood and refused.
pub fn refused(e: &anyhow::Error) -> bool {
    matches!(
        e.downcast_ref::<async_imap::error::Error>(),
        Some(async_imap::error::Error::No(_) | async_imap::error::Error::Bad(_))
    )
}
