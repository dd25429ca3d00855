//! Body FETCHes pipelined (issue 38): the next chunk's `UID FETCH` is sent before the current
//! chunk's answer is read, so the server goes from one chunk to the next without waiting a
//! round trip for the client's next command. On a phone's link (80 ms) a 60,000-message sync
//! has some 30 such waits. async-imap reads one command's answer while it holds the session,
//! so the commands are sent by hand and their answers read here through the same capped stream
//! (`Session::read_response`), each FETCH taken by its UID into the chunk that asked for it.

use std::collections::VecDeque;

use async_imap::imap_proto::{AttributeValue, Response, Status};
use async_imap::types::Flag;

use super::ctx::Ctx;
use super::folder::flags_from;
use crate::mail::imap::ImapSession;
use crate::mail::imap_ops::{deadline, tagged_result};
use crate::mailstore::Fetched;

/// The query of every body FETCH.
pub const BODY_QUERY: &str = "(UID FLAGS INTERNALDATE RFC822.SIZE BODY.PEEK[])";

/// How a server writes INTERNALDATE (RFC 3501 `date-time`).
const DATE_TIME: &str = "%d-%b-%Y %H:%M:%S %z";

/// One body FETCH sent and not yet wholly read.
struct Sent {
    tag: String,
    lo: u32,
    hi: u32,
    got: Vec<Fetched>,
    /// Its tagged status, once read: Ok, or the NO/BAD as async-imap's error.
    done: Option<Result<(), async_imap::error::Error>>,
}

/// The body FETCHes in flight on one session, oldest first.
#[derive(Default)]
pub struct Ahead {
    sent: VecDeque<Sent>,
}

impl Ahead {
    /// Sends `UID FETCH <set> BODY_QUERY` for the chunk of UIDs `lo..=hi` (the set within it).
    pub async fn send(
        &mut self,
        ctx: &Ctx,
        session: &mut ImapSession,
        set: &str,
        (lo, hi): (u32, u32),
    ) -> anyhow::Result<()> {
        ctx.count_fetch_command(true);
        let command = format!("UID FETCH {set} {BODY_QUERY}");
        let tag = deadline(ctx.limit(), "FETCH", session.run_command(command)).await?;
        self.sent.push_back(Sent {
            tag: tag.0,
            lo,
            hi,
            got: Vec::new(),
            done: None,
        });
        Ok(())
    }

    /// The messages of the oldest FETCH in flight, its answer read to its tagged status (each
    /// response within the timeout). A NO or BAD (a throttled FETCH) is an error, after the
    /// answers of the FETCHes sent behind it are read too, so the session can go on.
    pub async fn next(
        &mut self,
        ctx: &Ctx,
        session: &mut ImapSession,
    ) -> anyhow::Result<Vec<Fetched>> {
        while self.sent.front().is_some_and(|s| s.done.is_none()) {
            self.read_one(ctx, session).await?;
        }
        let Some(first) = self.sent.pop_front() else {
            return Ok(Vec::new());
        };
        if let Some(Err(e)) = first.done {
            while self.sent.iter().any(|s| s.done.is_none()) {
                self.read_one(ctx, session).await?;
            }
            self.sent.clear();
            return Err(e.into());
        }
        Ok(first.got)
    }

    /// Reads one response: a FETCH goes to the chunk whose UIDs hold it (a FETCH without a
    /// body, or of another UID, is another client's flag change: the sync reads flags anyway),
    /// a tagged status ends its FETCH. A BYE or a closed connection is a lost connection.
    async fn read_one(&mut self, ctx: &Ctx, session: &mut ImapSession) -> anyhow::Result<()> {
        use async_imap::error::Error;
        let Some(response) = deadline(ctx.limit(), "FETCH", session.read_response()).await? else {
            return Err(Error::ConnectionLost.into());
        };
        match response.parsed() {
            Response::Fetch(_, attributes) => {
                if let Some(f) = fetched(attributes)
                    && let Some(s) = self
                        .sent
                        .iter_mut()
                        .find(|s| s.done.is_none() && (s.lo..=s.hi).contains(&f.uid))
                {
                    ctx.count_fetched(f.raw.len());
                    s.got.push(f);
                }
            }
            Response::Done {
                tag,
                status,
                outcome,
            } => {
                if let Some(s) = self.sent.iter_mut().find(|s| s.tag == tag.0) {
                    let text = format!(
                        "{:?} {}",
                        outcome.code,
                        outcome.information.as_deref().unwrap_or("")
                    );
                    s.done = Some(tagged_result(status, text));
                }
            }
            Response::Data {
                status: Status::Bye,
                ..
            } => return Err(Error::ConnectionLost.into()),
            _ => {}
        }
        Ok(())
    }
}

/// A message of a body FETCH's answer; None without a UID or a body.
fn fetched(attributes: &[AttributeValue<'_>]) -> Option<Fetched> {
    let (mut uid, mut raw, mut flags, mut internal_date) = (None, None, None, None);
    for a in attributes {
        match a {
            AttributeValue::Uid(u) => uid = Some(*u),
            AttributeValue::Flags(f) => {
                flags = Some(flags_from(f.iter().map(|s| Flag::from(&**s))))
            }
            AttributeValue::InternalDate(d) => {
                internal_date = chrono::DateTime::parse_from_str(d, DATE_TIME)
                    .ok()
                    .map(|d| d.timestamp());
            }
            AttributeValue::BodySection {
                section: None,
                data: Some(data),
                ..
            } => raw = Some(data.to_vec()),
            _ => {}
        }
    }
    Some(Fetched {
        uid: uid?,
        flags: flags.unwrap_or_default(),
        internal_date,
        raw: raw?,
        identity: None,
        thread: None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(line: &[u8]) -> Option<Fetched> {
        let (rest, response) = Response::parse(line).expect("parses");
        assert!(rest.is_empty());
        match response {
            Response::Fetch(_, attributes) => fetched(&attributes),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn a_body_fetch_gives_its_message_and_a_flag_change_none() {
        let f = parse(
            b"* 3 FETCH (UID 17 FLAGS (\\Seen $Urgent) INTERNALDATE \"03-Mar-2025 10:00:00 +0200\" \
              RFC822.SIZE 5 BODY[] {5}\r\nhello)\r\n",
        )
        .expect("a message");
        assert_eq!((f.uid, f.raw.as_slice()), (17, &b"hello"[..]));
        assert!(f.flags.seen && f.flags.keywords == ["$Urgent"]);
        assert_eq!(f.internal_date, Some(1_740_988_800));
        assert!(parse(b"* 3 FETCH (UID 17 FLAGS (\\Seen))\r\n").is_none());
    }
}
