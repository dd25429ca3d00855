//! New inbox mail, as the features that act on it read it (rules, the auto-reply, snooze,
//! follow-ups, subscriptions): each follows the mail store's change log with a durable cursor of
//! its own, and hears of each mail the sync added to an account's INBOX (or the folder of
//! another role: [`Follower::role`]) that is still there, not a draft and not hidden. A copy
//! our own move yields ('not spam' back to the inbox, a snoozed mail woken) is not new mail, nor
//! is mail this client stored itself (a sent copy), unless the follower takes them
//! ([`Follower::takes`]). The cursor is placed at the end of the log when the feature first starts
//! ([`join`]), so a feature never acts on a mailbox's history; it is acknowledged after each
//! batch, after the follower's [`Follower::batch_done`], so a crash repeats at most one batch
//! (a follower's work must be harmless twice, or acknowledged at once with [`Then::AckHere`]).

use std::collections::HashMap;
use std::collections::hash_map::Entry;

use crate::accounts;
use crate::error::Result;
use crate::mailstore::{Kind, MailRead, MessageMeta, changes};
use crate::store::Store;

/// Change-log entries read per round, and rounds per run at most.
const BATCH: usize = 2000;
const ROUNDS: usize = 50;

/// One new mail in an inbox.
pub struct Arrival<'a> {
    pub user_id: u64,
    pub account_id: u64,
    /// Its entry in the change log.
    pub seq: u64,
    pub meta: MessageMeta,
    read: &'a MailRead,
}

impl Arrival<'_> {
    /// The mail's raw bytes (empty when they are gone).
    pub fn raw(&self) -> Result<Vec<u8>> {
        Ok(self.read.raw(self.meta.id)?.unwrap_or_default())
    }
}

/// What the follower did with a mail.
pub enum Then {
    /// Go on; the batch is acknowledged when it is done.
    Next,
    /// The work done is not harmless twice (a forward sent): acknowledge the log up to this
    /// mail at once, so a crash later in the batch does not repeat it.
    AckHere,
}

/// A feature that acts on new inbox mail.
pub trait Follower {
    /// Its cursor's name in the change log.
    fn cursor(&self) -> &'static str;
    /// The role of the folder whose new mail it hears of.
    fn role(&self) -> &'static str {
        "inbox"
    }
    /// Whether it hears of mail stored for this reason: the mailbox's new mail (the sync)
    /// only, unless it says otherwise (the copies our own moves yield; the sent copies this
    /// client stored).
    fn takes(&self, reason: changes::Reason) -> bool {
        reason == changes::Reason::Sync
    }
    /// Whether any user has the feature on: when nobody does, the log is stepped over unread.
    /// By default the feature is every user's.
    fn anyone(&self) -> bool {
        true
    }
    /// Whether this user's new mail is wanted (by default: everyone's).
    fn wants(&mut self, _store: &Store, _user_id: u64) -> Result<bool> {
        Ok(true)
    }
    /// One new mail of a user it wants.
    fn arrived(&mut self, store: &Store, mail: &Arrival<'_>) -> Result<Then>;
    /// A batch is done; its entries are acknowledged right after this.
    fn batch_done(&mut self, _store: &Store) -> Result<()> {
        Ok(())
    }
}

/// Tells the scheduler of new mail (`jobs::Event::NewMail`) whenever the mail store logs some
/// (the change feed), so a follower's due-time job sleeps while nothing arrives instead of
/// polling the log.
pub fn wake_on_new_mail(state: &crate::state::AppState) {
    use crate::jobs::Event;
    if state.jobs().on(Event::NewMail).is_empty() {
        return;
    }
    let state2 = state.clone();
    state.changes.on_batch(move |batch| {
        if batch.is_none_or(|b| b.iter().any(|c| c.kind == Kind::Added)) {
            state2.jobs().happened(&state2, Event::NewMail);
        }
    });
}

/// At start, before any sync: the follower's place in the change log (the first start ever
/// begins at its end, never at its history).
pub fn join(store: &Store, cursor: &str) -> anyhow::Result<()> {
    changes::join(store, cursor).map(|_| ())
}

/// Reads the log since the follower's cursor and hands it each new inbox mail. Returns whether
/// entries are left for another run (a run reads at most `ROUNDS` batches).
pub fn follow(store: &Store, f: &mut impl Follower) -> Result<bool> {
    let cursor = f.cursor();
    let mut from = changes::join(store, cursor)?;
    if !f.anyone() {
        let last = changes::last_seq(store)?;
        if last > from {
            changes::ack(store, cursor, last)?;
        }
        return Ok(false);
    }
    // An account's user and folder of the role, when the user is wanted.
    let role = f.role();
    let mut inbox_of: HashMap<u64, Option<(u64, String)>> = HashMap::new();
    for _ in 0..ROUNDS {
        let batch = changes::after(store, from, BATCH)?;
        let Some(last) = batch.last().map(|c| c.seq) else {
            return Ok(false);
        };
        let read = MailRead::new(store)?;
        for c in &batch {
            if c.kind != Kind::Added || !f.takes(c.reason) {
                continue;
            }
            let account = match inbox_of.entry(c.account) {
                Entry::Occupied(e) => e.into_mut(),
                Entry::Vacant(e) => {
                    let mut found = None;
                    if let Some(a) = accounts::get(store, c.account)?
                        && f.wants(store, a.user_id)?
                    {
                        let folder = read.roles(a.id).ok().and_then(|r| r.get(role).cloned());
                        let folder = match folder {
                            Some(name) => Some(name),
                            None if role == "inbox" => Some("INBOX".to_string()),
                            None => None,
                        };
                        found = folder.map(|name| (a.user_id, name));
                    }
                    e.insert(found)
                }
            };
            let Some((user_id, inbox)) = account else {
                continue;
            };
            if c.folder != *inbox {
                continue;
            }
            let Some(meta) = read.meta(c.message)? else {
                continue;
            };
            if meta.hidden || meta.draft || meta.folder != *inbox {
                continue;
            }
            let mail = Arrival {
                user_id: *user_id,
                account_id: c.account,
                seq: c.seq,
                meta,
                read: &read,
            };
            if let Then::AckHere = f.arrived(store, &mail)? {
                changes::ack(store, cursor, c.seq)?;
            }
        }
        drop(read);
        f.batch_done(store)?;
        changes::ack(store, cursor, last)?;
        from = last;
        if batch.len() < BATCH {
            return Ok(false);
        }
    }
    Ok(true)
}
