//! The senders of list and bulk mail each user receives: new inbox mail is followed on the
//! change log (cursor `subscriptions`), and each mailbox's last 90 days of inbox mail are read
//! once, after its first sync (the cursor starts at the end of the log, so mail stored before
//! the feature came, or by a first sync, is counted this way). The `subscriptions` job sleeps
//! until new mail.

use std::collections::HashMap;

use super::headers::{self, ListHeaders};
use super::model::{MAX_SENDERS, Sender, WINDOW};
use super::{SCANNED, SENDERS};
use crate::emails::arrivals::{self, Arrival, Follower, Then};
use crate::error::Result;
use crate::mailstore::{MailRead, MessageMeta};
use crate::messages;
use crate::store::Store;

pub const JOB: &str = "subscriptions";
const CURSOR: &str = "subscriptions";
/// Inbox mail read per user at most by the first scan, newest first.
const SCAN_MAX: usize = 5_000;

pub fn join(store: &Store) -> anyhow::Result<()> {
    arrivals::join(store, CURSOR)
}

fn is_ad(meta: &MessageMeta) -> bool {
    meta.advertisement || meta.status.as_deref() == Some("advertisement")
}

/// Notes one mail of `user_id` when it comes from a list or a bulk sender (or is an ad).
pub fn note(store: &Store, user_id: u64, meta: &MessageMeta, raw: &[u8], now: i64) -> Result<bool> {
    let h: ListHeaders = headers::of(raw);
    if !h.is_list() && !is_ad(meta) {
        return Ok(false);
    }
    let address = meta.summary.from.trim().to_lowercase();
    if address.is_empty() || meta.date < now - WINDOW {
        return Ok(false);
    }
    let body_links = if h.unsubscribe.is_empty() {
        let full = crate::mail::parse::full(raw);
        headers::removal_links(&full.html, &full.text)
    } else {
        Vec::new()
    };
    let methods = headers::methods(&h, body_links);
    let txn = store.begin_write()?;
    let all: Vec<Sender> = SENDERS.list_in(&txn, user_id)?;
    let found = all
        .into_iter()
        .find(|s| s.account == meta.account_id && s.address == address);
    let mut s = match found {
        Some(s) => s,
        None => Sender {
            id: SENDERS.new_id_in(&txn, user_id, MAX_SENDERS, messages::SUBSCRIPTIONS_FULL)?,
            account: meta.account_id,
            address,
            name: String::new(),
            list_id: None,
            methods: Default::default(),
            recent: Vec::new(),
            ads: 0,
            judged: 0,
            last: 0,
            blocked_rule: None,
            unsubscribed: None,
        },
    };
    if meta.date >= s.last {
        s.name = crate::kit::cut(meta.summary.from_name.trim(), 200).to_string();
        if h.list_id.is_some() {
            s.list_id = h.list_id.clone();
        }
        if !methods.is_empty() {
            s.methods = methods;
        }
    }
    s.add(meta.date, meta.id, is_ad(meta), now);
    SENDERS.put_in(&txn, user_id, s.id, &s)?;
    txn.commit()?;
    Ok(true)
}

struct Arrivals {
    now: i64,
}

impl Follower for Arrivals {
    fn cursor(&self) -> &'static str {
        CURSOR
    }
    fn arrived(&mut self, store: &Store, mail: &Arrival<'_>) -> Result<Then> {
        note(store, mail.user_id, &mail.meta, &mail.raw()?, self.now)?;
        Ok(Then::Next)
    }
}

/// Reads a mailbox's inbox mail of the last 90 days (newest first, at most [`SCAN_MAX`]).
pub fn scan_account(store: &Store, user_id: u64, account: u64, now: i64) -> Result<usize> {
    let mut found: Vec<(i64, u64)> = Vec::new();
    {
        let read = MailRead::new(store)?;
        let roles = read.roles(account)?;
        if let Some(inbox) = roles.get("inbox") {
            for row in read.rows(account, inbox)? {
                let row = row?;
                if row.date() >= now - WINDOW {
                    found.push((row.date(), row.id()));
                }
            }
        }
    }
    found.sort_unstable_by(|a, b| b.cmp(a));
    found.truncate(SCAN_MAX);
    let mut noted = 0;
    for (_, id) in found {
        let read = MailRead::new(store)?;
        let Some(meta) = read.meta(id)? else { continue };
        if meta.hidden || meta.draft {
            continue;
        }
        let raw = read.raw(id)?.unwrap_or_default();
        drop(read);
        if note(store, user_id, &meta, &raw, now)? {
            noted += 1;
        }
    }
    Ok(noted)
}

/// While a mailbox's first sync runs, the job looks again this often (then only on new mail).
const FIRST_SYNC_POLL: i64 = 30;

/// One run: new mail, then the mailboxes not read yet whose first sync is done. Returns
/// whether a mailbox still waits for its first sync.
pub fn step(store: &Store, now: i64, synced: &dyn Fn(u64) -> bool) -> Result<bool> {
    arrivals::follow(store, &mut Arrivals { now })?;
    let scanned: HashMap<u64, bool> = SCANNED.everyone::<bool>(store)?.into_iter().collect();
    let mut waiting = false;
    for a in crate::accounts::list_all(store)? {
        if scanned.contains_key(&a.id) {
            continue;
        }
        if !synced(a.id) {
            waiting = true;
            continue;
        }
        let n = scan_account(store, a.user_id, a.id, now)?;
        tracing::info!(account = a.id, mails = n, "subscriptions: inbox read");
        SCANNED.put(store, a.id, &true)?;
    }
    Ok(waiting)
}

/// The job: sleeps until new mail (or a trigger).
pub async fn run(state: crate::state::AppState) -> anyhow::Result<Option<i64>> {
    let now = crate::kit::now();
    let mailboxes = state.mailboxes.clone();
    let synced = move |account: u64| {
        mailboxes
            .status(account)
            .is_some_and(|s| s.initial_sync_done)
    };
    let waiting = state
        .store_blocking(move |store| step(store, now, &synced))
        .await?;
    Ok(waiting.then(|| (now + FIRST_SYNC_POLL) * 1000))
}
