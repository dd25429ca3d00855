//! Counts from the store's counters: per folder, how many messages carry each combination of
//! index bits, and how many threads have each set of member bits. A listing's total, the
//! folder badges and the sidebar's folder list are sums over a few dozen of these, whatever the
//! size of the mailbox.

use serde::Serialize;

use super::account_ids;
use super::listing::{ListOptions, Selector, is_unread_status, waits_for_user};
use super::walk::Source;
use crate::error::Result;
use crate::mailstore::{MailRead, flags, signature_bits};
use crate::store::Store;

/// What a listing's total counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Counted {
    /// The messages the listing keeps.
    Mail,
    /// The threads that have mail the listing keeps (a thread with kept mail in two of the
    /// sources counts in each).
    Threads,
}

/// The listing's total over the sources, from the counters alone.
pub fn kept_total(
    mail: &MailRead,
    sources: &[Source],
    sel: &Selector,
    opts: &ListOptions,
    counted: Counted,
) -> Result<usize> {
    let keeps = |role: &str, bits: u16| sel.row_matches(role, bits) && opts.keeps(bits);
    let mut total = 0;
    for s in sources {
        let (account, folder, role) = (s.account, &s.folder.name, &s.folder.role);
        total += match counted {
            Counted::Mail => sum_kept(mail.counts(account, folder)?, |bits| keeps(role, *bits)),
            Counted::Threads => sum_kept(mail.thread_signatures(account, folder)?, |sig| {
                signature_bits(sig).any(|b| keeps(role, b))
            }),
        };
    }
    Ok(total)
}

/// The sum of the counters (a key, and how many have it) whose key `keeps`.
fn sum_kept<K>(counters: Vec<(K, u64)>, keeps: impl Fn(&K) -> bool) -> usize {
    counters
        .into_iter()
        .filter(|(key, _)| keeps(key))
        .map(|(_, n)| n as usize)
        .sum()
}

/// Calls `f(role, bits, n)` for every counter of the user's folders.
pub(super) fn for_each_count(
    store: &Store,
    user_id: u64,
    mut f: impl FnMut(&str, u16, usize),
) -> Result<()> {
    let accounts = account_ids(store, user_id)?;
    let mail = MailRead::new(store)?;
    for account in accounts {
        // A Gmail label folder's mail is counted under its home folder.
        for folder in mail.folders(account)?.into_iter().filter(|f| !f.labels) {
            for (bits, n) in mail.counts(account, &folder.name)? {
                f(&folder.role, bits, n as usize);
            }
        }
    }
    Ok(())
}

/// The spec's folder counts (000 §3), plus `unread` and `urgent`. The badges count what the
/// listings show: `processed`, `spam`, `advertisements` and `info` are the sizes of the
/// virtual folders; `unread` counts inbox mail that is unread and untriaged, so the inbox
/// badge `needsReply + unread` counts no mail twice.
#[derive(Debug, Default, Serialize, PartialEq, Clone, ts_rs::TS)]
#[serde(rename_all = "camelCase")]
#[ts(rename = "EmailCountsResponse")]
pub struct Counts {
    pub inbox: usize,
    pub unread: usize,
    pub starred: usize,
    pub needs_reply: usize,
    pub urgent: usize,
    pub processed: usize,
    pub spam: usize,
    pub advertisements: usize,
    pub info: usize,
    pub sent: usize,
    /// Sent since midnight in the user's time zone (the settings page's quick stats).
    pub sent_today: usize,
    pub drafts: usize,
    pub trash: usize,
}

pub fn counts(store: &Store, user_id: u64) -> Result<Counts> {
    let mut c = Counts::default();
    let spam = Selector::for_virtual("spam").expect("virtual");
    let archive = Selector::for_virtual("archive").expect("virtual");
    for_each_count(store, user_id, |role, bits, n| {
        if bits & flags::HIDDEN != 0 {
            return;
        }
        // Whether the real folder's listing shows it (its status may send it elsewhere).
        let listed = Selector::Role("inbox").row_matches(role, bits);
        match role {
            "inbox" if listed => {
                c.inbox += n;
                if is_unread_status(bits) {
                    c.unread += n;
                }
            }
            "sent" if listed => c.sent += n,
            "drafts" if listed => c.drafts += n,
            "trash" if listed => c.trash += n,
            _ => {}
        }
        if bits & flags::FLAGGED != 0 {
            c.starred += n;
        }
        let waits = waits_for_user(role);
        if waits && bits & flags::PRIORITY_URGENT != 0 {
            c.urgent += n;
        }
        match flags::status_of(bits) {
            Some("needs_reply") if waits => c.needs_reply += n,
            Some("advertisement") => c.advertisements += n,
            Some("info") => c.info += n,
            _ => {}
        }
        if spam.row_matches(role, bits) {
            c.spam += n;
        }
        if archive.row_matches(role, bits) {
            c.processed += n;
        }
    })?;
    c.sent_today = sent_since(store, user_id, today_start(store, user_id)?)?;
    Ok(c)
}

/// When the user's day began, in their time zone.
fn today_start(store: &Store, user_id: u64) -> Result<i64> {
    let tz = crate::settings::load(store, user_id)?.tz();
    let now = crate::kit::now();
    Ok(crate::settings::prefs::day_start(tz, now))
}

/// Mail in the Sent folders dated `since` or later: the rows of today only are read.
fn sent_since(store: &Store, user_id: u64, since: i64) -> Result<usize> {
    let mail = MailRead::new(store)?;
    let mut n = 0;
    for account in account_ids(store, user_id)? {
        for folder in mail.folders(account)?.iter().filter(|f| f.role == "sent") {
            for row in mail.rows_from(account, &folder.name, since)? {
                if row?.view().bits() & flags::HIDDEN == 0 {
                    n += 1;
                }
            }
        }
    }
    Ok(n)
}

/// The user's folders with their roles and counts, for the sidebar's own-folders list.
#[derive(Debug, Serialize, ts_rs::TS)]
#[serde(rename_all = "camelCase")]
pub struct FolderInfo {
    pub account_id: u64,
    pub name: String,
    pub display_name: String,
    pub role: String,
    pub total: usize,
    pub unread: usize,
}

pub fn folders(store: &Store, user_id: u64) -> Result<Vec<FolderInfo>> {
    let accounts = account_ids(store, user_id)?;
    let mail = MailRead::new(store)?;
    let mut out = Vec::new();
    for account in accounts {
        for f in mail.folders(account)? {
            let (mut total, mut unread) = (0, 0);
            for (bits, n) in mail.counts(account, &f.name)? {
                if bits & flags::HIDDEN == 0 {
                    total += n as usize;
                    if bits & flags::SEEN == 0 {
                        unread += n as usize;
                    }
                }
            }
            out.push(FolderInfo {
                account_id: account,
                display_name: f.display_name,
                name: f.name,
                role: f.role,
                total,
                unread,
            });
        }
    }
    Ok(out)
}
