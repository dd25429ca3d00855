//! Compose's people: the 5 most recent recipients of sent mail (spec 000 §2, §9), and an address
//! book of everyone the user has written to or heard from, most used first.

use std::collections::HashMap;

use serde::Serialize;
use ts_rs::TS;

use crate::accounts;
use crate::error::Result;
use crate::mail::parse;
use crate::mailstore::MailRead;
use crate::store::Store;

pub const RECENT: usize = 5;
/// Mail read per folder to build the address book: enough for the people who matter, bounded
/// however large the mailbox.
const SCAN: usize = 3000;
/// The most people the compose address book lists.
pub const BOOK_MAX: usize = 50;
/// Newest sent mails whose recipients' names are read from the raw bytes.
const NAMED: usize = 50;

#[derive(Default)]
struct Person {
    name: String,
    email: String,
    count: usize,
    last: i64,
}

/// (name, address) pairs of the recipients of a sent mail, names included (the stored summary
/// keeps only addresses): read from the raw bytes, for the few mails that need names.
fn recipients_named(raw: &[u8]) -> Vec<(String, String)> {
    let Some(msg) = parse::parse_guarded(raw) else {
        return Vec::new();
    };
    [msg.to(), msg.cc()]
        .into_iter()
        .flatten()
        .flat_map(|a| a.iter())
        .filter_map(|a| {
            let email = a.address()?.trim().to_ascii_lowercase();
            super::mime::valid_address(&email)
                .then(|| (a.name().unwrap_or_default().trim().to_string(), email))
        })
        .collect()
}

/// Walks the user's folders of `roles`, newest first, at most [`SCAN`] mails each.
fn collect(store: &Store, user_id: u64, roles: &[&str], own: &[String]) -> Result<Vec<Person>> {
    let mail = MailRead::new(store)?;
    let mut by_email: HashMap<String, Person> = HashMap::new();
    for account in accounts::list_for_user(store, user_id)? {
        let folders = mail.folders(account.id)?;
        for folder in folders.iter().filter(|f| roles.contains(&f.role.as_str())) {
            let sent = folder.role == "sent";
            let mut named = NAMED;
            for row in mail.rows(account.id, &folder.name)?.rev().take(SCAN) {
                let id = row?.id();
                let Some(meta) = mail.meta(id)? else {
                    continue;
                };
                if meta.hidden {
                    continue;
                }
                // Names of sent mail's recipients come from the raw bytes, only for the newest
                // mails (the recent-contacts panel); counting needs the summary alone.
                let found: Vec<(String, String)> = if sent && named > 0 {
                    named -= 1;
                    match mail.raw(id)? {
                        Some(raw) => recipients_named(&raw),
                        None => Vec::new(),
                    }
                } else if sent {
                    meta.summary
                        .to
                        .iter()
                        .chain(&meta.summary.cc)
                        .map(|e| (String::new(), e.to_ascii_lowercase()))
                        .collect()
                } else {
                    vec![(
                        meta.summary.from_name.clone(),
                        meta.summary.from.to_ascii_lowercase(),
                    )]
                };
                for (name, email) in found {
                    if email.is_empty() || own.contains(&email) {
                        continue;
                    }
                    let p = by_email.entry(email.clone()).or_insert_with(|| Person {
                        email,
                        ..Default::default()
                    });
                    p.count += 1;
                    if meta.date >= p.last {
                        p.last = meta.date;
                        if !name.is_empty() {
                            p.name = name;
                        }
                    } else if p.name.is_empty() {
                        p.name = name;
                    }
                }
            }
        }
    }
    Ok(by_email.into_values().collect())
}

fn own_addresses(store: &Store, user_id: u64) -> Result<Vec<String>> {
    Ok(accounts::list_for_user(store, user_id)?
        .into_iter()
        .map(|a| a.email.to_ascii_lowercase())
        .collect())
}

/// A person compose offers (recent contacts, address book); the address is the id.
#[derive(Debug, Clone, Serialize, TS)]
pub struct ComposeContact {
    pub id: String,
    pub name: String,
    pub email: String,
    /// Mails to or from them among those read.
    pub count: usize,
    /// One of the user's contacts.
    pub saved: bool,
}

fn contact(p: &Person) -> ComposeContact {
    ComposeContact {
        id: p.email.clone(),
        name: p.name.clone(),
        email: p.email.clone(),
        count: p.count,
        saved: false,
    }
}

/// The 5 people most recently written to.
pub fn recent(store: &Store, user_id: u64) -> Result<Vec<ComposeContact>> {
    let own = own_addresses(store, user_id)?;
    let mut people = collect(store, user_id, &["sent"], &own)?;
    people.sort_by(|a, b| b.last.cmp(&a.last).then_with(|| a.email.cmp(&b.email)));
    Ok(people.iter().take(RECENT).map(contact).collect())
}

/// Everyone the user wrote to (the newest sent mail of each Sent folder, bounded): spam
/// detection lets them through.
pub fn written_to(store: &Store, user_id: u64) -> Result<Vec<String>> {
    let own = own_addresses(store, user_id)?;
    Ok(collect(store, user_id, &["sent"], &own)?
        .into_iter()
        .map(|p| p.email)
        .collect())
}

/// Everyone written to or heard from, most used first.
pub fn people(store: &Store, user_id: u64) -> Result<Vec<ComposeContact>> {
    let own = own_addresses(store, user_id)?;
    let mut people = collect(store, user_id, &["sent", "inbox", "archive"], &own)?;
    people.sort_by(|a, b| b.count.cmp(&a.count).then_with(|| b.last.cmp(&a.last)));
    Ok(people.iter().map(contact).collect())
}
