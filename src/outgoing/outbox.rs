//! The outbox: every mail waiting to go out (undo delay, scheduled time, retry after a
//! failure) and every draft the mailbox has not taken yet, kept in the store so a restart or a
//! mailbox outage loses nothing.

use std::collections::HashSet;

use redb::{ReadableDatabase, ReadableTable, TableDefinition, WriteTransaction};
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use super::uploads::{self, UploadedAttachment};
use super::{Composed, iso};
use crate::error::{AppError, Result};
use crate::messages;
use crate::store::{Store, record};

/// item id → JSON [`Item`].
pub const OUTBOX: TableDefinition<u64, &[u8]> = TableDefinition::new("outbox");

pub fn create_tables(txn: &WriteTransaction) -> Result<(), redb::Error> {
    txn.open_table(OUTBOX)?;
    Ok(())
}

/// Forgets the mail waiting to go from one account (queued, scheduled, failed, drafts).
pub fn forget_account(txn: &WriteTransaction, account: u64) -> anyhow::Result<()> {
    forget_where(txn, |item| item.account_id == account)
}

/// Forgets everything a removed user had waiting: nothing of theirs is sent after.
pub fn forget_user(txn: &WriteTransaction, user: u64) -> anyhow::Result<()> {
    forget_where(txn, |item| item.user_id == user)
}

fn forget_where(txn: &WriteTransaction, gone: impl Fn(&Item) -> bool) -> anyhow::Result<()> {
    // An item this binary cannot read is kept: it is no one's to decide about.
    txn.open_table(OUTBOX)?
        .retain(|_, v| record::decode::<Item>(v).map_or(true, |item| !gone(&item)))?;
    Ok(())
}

#[derive(Debug, Clone, Copy, Serialize, Deserialize, PartialEq, Eq, TS)]
#[serde(rename_all = "snake_case")]
#[ts(rename = "OutboxKind")]
pub enum Kind {
    /// Goes out through SMTP, then into Sent.
    Send,
    /// Goes into Drafts (the mailbox was unreachable when it was saved).
    Draft,
}

/// How far a send got, so a retry never sends twice what the server already accepted.
#[derive(Debug, Clone, Copy, Serialize, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum Stage {
    Deliver,
    /// SMTP accepted it; the copy in Sent (and the cleanup of its draft) is what is left.
    CopyToSent,
}

/// A message in the mailbox, by place and, when the place changed, by Message-ID.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct MailboxRef {
    pub folder: String,
    pub uidvalidity: u32,
    pub uid: u32,
    pub message_id: Option<String>,
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct Item {
    pub id: u64,
    pub user_id: u64,
    pub account_id: u64,
    pub kind: Kind,
    pub mail: Composed,
    /// When it may go (end of the undo delay, or the scheduled time).
    pub send_at: i64,
    pub scheduled: bool,
    pub created_at: i64,
    pub stage: Stage,
    pub attempts: u32,
    /// After a failure: not before this.
    pub next_try: Option<i64>,
    pub last_error: Option<String>,
    /// False after a permanent refusal: the user edits or retries.
    pub retry: bool,
    /// Claimed by the scheduler right now.
    pub sending: bool,
    /// A copy in Drafts (a scheduled mail, a sent draft) removed once the mail is sent, or the
    /// older version a queued draft replaces.
    pub draft_copy: Option<MailboxRef>,
    /// When SMTP accepted it: the Date of the copy filed in Sent.
    #[serde(default)]
    pub sent_at: Option<i64>,
}

impl Item {
    pub fn new(user_id: u64, account_id: u64, kind: Kind, mail: Composed, send_at: i64) -> Self {
        Self {
            id: 0,
            user_id,
            account_id,
            kind,
            mail,
            send_at,
            scheduled: false,
            created_at: super::now(),
            stage: Stage::Deliver,
            attempts: 0,
            next_try: None,
            last_error: None,
            retry: true,
            sending: false,
            draft_copy: None,
            sent_at: None,
        }
    }

    pub fn due_at(&self) -> Option<i64> {
        (!self.sending && self.retry).then(|| self.send_at.max(self.next_try.unwrap_or(0)))
    }

    pub fn state(&self) -> State {
        if self.sending {
            State::Sending
        } else if self.last_error.is_some() {
            State::Failed
        } else if self.scheduled {
            State::Scheduled
        } else {
            State::Waiting
        }
    }

    /// The API shape (docs/API.md `OutboxItem`).
    pub fn view(&self, store: &Store) -> OutboxItem {
        OutboxItem {
            id: self.id.to_string(),
            kind: self.kind,
            state: self.state(),
            send_at: iso(self.send_at),
            attempts: self.attempts,
            next_try: self.next_try.map(iso),
            last_error: self.last_error.clone(),
            retry: self.retry,
            created_at: iso(self.created_at),
            mail: mail_view(
                store,
                self.user_id,
                &self.mail,
                self.scheduled.then_some(self.send_at),
            ),
        }
    }
}

/// Where an item is, as the outbox list shows it (derived from its fields by [`Item::state`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "lowercase")]
#[ts(rename = "OutboxState")]
pub enum State {
    Waiting,
    Scheduled,
    Sending,
    Failed,
}

/// An outbox item as the outbox list shows it.
#[derive(Debug, Clone, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct OutboxItem {
    pub id: String,
    pub kind: Kind,
    pub state: State,
    /// RFC 3339: when it goes out (end of the undo delay, or the scheduled time).
    pub send_at: String,
    pub attempts: u32,
    /// RFC 3339, after a failure.
    pub next_try: Option<String>,
    pub last_error: Option<String>,
    /// False after a permanent refusal: waits for the user.
    pub retry: bool,
    pub created_at: String,
    pub mail: OutboxMail,
}

/// A composed mail as the compose page reads it back (undo, edit): the fields compose sends
/// (`OutgoingMail`), its attachments described.
#[derive(Debug, Clone, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct OutboxMail {
    /// Addresses, `"Name" <address>` when there is a name.
    pub to: Vec<String>,
    pub cc: Vec<String>,
    pub bcc: Vec<String>,
    pub subject: String,
    /// HTML.
    pub body: String,
    pub priority: String,
    #[serde(rename = "from_name")]
    pub from_name: String,
    pub in_reply_to: Option<String>,
    /// The same as `inReplyTo`: compose sends it back under this name.
    pub original_message_id: Option<String>,
    pub references: Vec<String>,
    pub original_id: Option<String>,
    pub attachments: Vec<UploadedAttachment>,
    /// RFC 3339: the scheduled time of a scheduled mail.
    #[serde(rename = "snoozed_until")]
    pub snoozed_until: Option<String>,
}

/// A composed mail as the compose page reads it back (undo, edit).
pub fn mail_view(store: &Store, user_id: u64, m: &Composed, scheduled: Option<i64>) -> OutboxMail {
    let list = |l: &[super::Mailbox]| -> Vec<String> {
        l.iter()
            .map(|m| {
                if m.name.is_empty() {
                    m.email.clone()
                } else {
                    format!("\"{}\" <{}>", m.name, m.email)
                }
            })
            .collect()
    };
    OutboxMail {
        to: list(&m.to),
        cc: list(&m.cc),
        bcc: list(&m.bcc),
        subject: m.subject.clone(),
        body: m.html.clone(),
        priority: m.priority.clone(),
        from_name: m.from.name.clone(),
        in_reply_to: m.in_reply_to.clone(),
        original_message_id: m.in_reply_to.clone(),
        references: m.references.clone(),
        original_id: m.original_id.map(|i| i.to_string()),
        attachments: uploads::describe(store, user_id, &m.attachments),
        snoozed_until: scheduled.map(iso),
    }
}

fn read(t: &impl ReadableTable<u64, &'static [u8]>, id: u64) -> Result<Option<Item>> {
    Ok(match t.get(id)? {
        Some(v) => Some(record::decode(v.value())?),
        None => None,
    })
}

pub fn put(txn: &WriteTransaction, item: &Item) -> Result<()> {
    txn.open_table(OUTBOX)?
        .insert(item.id, record::encode(item).as_slice())?;
    Ok(())
}

/// Stores a new item, giving it its id.
pub fn add(store: &Store, mut item: Item) -> Result<Item> {
    let txn = store.begin_write()?;
    item.id = crate::store::next_id(&txn, "outbox")?;
    put(&txn, &item)?;
    txn.commit()?;
    Ok(item)
}

pub fn get(store: &Store, user_id: u64, id: u64) -> Result<Item> {
    let txn = store.db().begin_read()?;
    read(&txn.open_table(OUTBOX)?, id)?
        .filter(|i| i.user_id == user_id)
        .ok_or_else(|| AppError::NotFound(messages::OUTBOX_NOT_FOUND.into()))
}

pub fn all(store: &Store) -> Result<Vec<Item>> {
    let txn = store.db().begin_read()?;
    let t = txn.open_table(OUTBOX)?;
    let mut out = Vec::new();
    for e in t.iter()? {
        let (_, v) = e?;
        out.push(record::decode::<Item>(v.value())?);
    }
    Ok(out)
}

/// The user's items, newest first.
pub fn list(store: &Store, user_id: u64) -> Result<Vec<Item>> {
    let mut items: Vec<Item> = all(store)?
        .into_iter()
        .filter(|i| i.user_id == user_id)
        .collect();
    items.sort_by_key(|i| std::cmp::Reverse(i.id));
    Ok(items)
}

/// Changes an item of the user's that is not being sent right now.
pub fn update(
    store: &Store,
    user_id: u64,
    id: u64,
    change: impl FnOnce(&mut Item) -> Result<()>,
) -> Result<Item> {
    let txn = store.begin_write()?;
    let mut item = read(&txn.open_table(OUTBOX)?, id)?
        .filter(|i| i.user_id == user_id)
        .ok_or_else(|| AppError::NotFound(messages::OUTBOX_NOT_FOUND.into()))?;
    if item.sending {
        return Err(AppError::Conflict(messages::SENDING_NOW.into()));
    }
    change(&mut item)?;
    put(&txn, &item)?;
    txn.commit()?;
    Ok(item)
}

/// Takes a send back before it started: the item is gone and its mail is returned.
pub fn undo(store: &Store, user_id: u64, id: u64) -> Result<Item> {
    let txn = store.begin_write()?;
    let item = read(&txn.open_table(OUTBOX)?, id)?.filter(|i| i.user_id == user_id);
    let Some(item) = item else {
        // Gone from the outbox: it went out (or was cancelled elsewhere).
        return Err(AppError::Conflict(messages::ALREADY_SENT.into()));
    };
    if item.sending || item.stage != Stage::Deliver {
        return Err(AppError::Conflict(messages::ALREADY_SENT.into()));
    }
    txn.open_table(OUTBOX)?.remove(id)?;
    txn.commit()?;
    Ok(item)
}

/// Removes an item of the user's (cancel). Its uploads stay a day for a reopened compose.
pub fn remove(store: &Store, user_id: u64, id: u64) -> Result<Item> {
    let txn = store.begin_write()?;
    let item = read(&txn.open_table(OUTBOX)?, id)?
        .filter(|i| i.user_id == user_id)
        .ok_or_else(|| AppError::NotFound(messages::OUTBOX_NOT_FOUND.into()))?;
    if item.sending {
        return Err(AppError::Conflict(messages::SENDING_NOW.into()));
    }
    txn.open_table(OUTBOX)?.remove(id)?;
    txn.commit()?;
    Ok(item)
}

/// Marks a due item as being sent; `None` when it is gone, already claimed or not due.
pub fn claim(store: &Store, id: u64, now: i64) -> Result<Option<Item>> {
    let txn = store.begin_write()?;
    let Some(mut item) = read(&txn.open_table(OUTBOX)?, id)? else {
        return Ok(None);
    };
    if item.due_at().is_none_or(|t| t > now) {
        return Ok(None);
    }
    item.sending = true;
    put(&txn, &item)?;
    txn.commit()?;
    Ok(Some(item))
}

/// Writes an item as it is (a claimed item's progress keeps its claim).
pub fn record(store: &Store, item: &Item) -> Result<()> {
    let txn = store.begin_write()?;
    put(&txn, item)?;
    txn.commit()?;
    Ok(())
}

/// Writes back a claimed item (progress or failure), releasing the claim.
pub fn release(store: &Store, mut item: Item) -> Result<()> {
    item.sending = false;
    record(store, &item)
}

/// Removes a finished item and the uploads only it carried.
pub fn finish(store: &Store, item: &Item) -> Result<()> {
    let txn = store.begin_write()?;
    txn.open_table(OUTBOX)?.remove(item.id)?;
    let still_used = referenced(&txn)?;
    let done: Vec<u64> = item
        .mail
        .attachments
        .iter()
        .copied()
        .filter(|id| !still_used.contains(id))
        .collect();
    uploads::remove_in(&txn, &done)?;
    txn.commit()?;
    Ok(())
}

/// After a restart: claims left by a process that died mid-send are released. A mail whose
/// SMTP transaction was cut may then go out twice; losing it would be worse.
pub fn release_stale_claims(store: &Store) -> Result<usize> {
    let txn = store.begin_write()?;
    let mut stale = Vec::new();
    for e in txn.open_table(OUTBOX)?.iter()? {
        let (_, v) = e?;
        let item: Item = record::decode(v.value())?;
        if item.sending {
            stale.push(item);
        }
    }
    for mut item in stale.clone() {
        item.sending = false;
        put(&txn, &item)?;
    }
    txn.commit()?;
    Ok(stale.len())
}

/// Upload ids any item carries.
pub fn referenced(txn: &WriteTransaction) -> Result<HashSet<u64>> {
    let mut used = HashSet::new();
    for e in txn.open_table(OUTBOX)?.iter()? {
        let (_, v) = e?;
        let item: Item = record::decode(v.value())?;
        used.extend(item.mail.attachments);
    }
    Ok(used)
}

/// Retry delay after `attempts` failures: 30 s doubling, at most 30 min.
pub fn backoff_secs(attempts: u32) -> i64 {
    (30i64 << attempts.saturating_sub(1).min(6)).min(1800)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn backoff_doubles_to_half_an_hour() {
        let v: Vec<i64> = (1..=8).map(backoff_secs).collect();
        assert_eq!(v, [30, 60, 120, 240, 480, 960, 1800, 1800]);
    }

    #[test]
    fn states_follow_the_fields() {
        let mut item = Item::new(1, 1, Kind::Send, Composed::default(), 100);
        assert_eq!(item.state(), State::Waiting);
        assert_eq!(item.due_at(), Some(100));
        item.scheduled = true;
        assert_eq!(item.state(), State::Scheduled);
        item.last_error = Some("x".into());
        item.next_try = Some(200);
        assert_eq!((item.state(), item.due_at()), (State::Failed, Some(200)));
        item.retry = false;
        assert_eq!(item.due_at(), None);
        item.sending = true;
        assert_eq!(item.state(), State::Sending);
    }
}
