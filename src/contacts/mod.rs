//! Contacts (spec 001 §2 Contacts page, §3 Contact, §5), kept per user on the server: search that
//! folds Hebrew like the index does, groups, vCard import and export, suggestions of the people
//! the user mails with, and the recent mail with a contact. Compose's address book lists them
//! first (`outgoing::contacts`).
//!
//! - `model`: the fields and their checks.
//! - `vcard`: reading 4.0/3.0/2.1 files, writing 4.0.
//! - `routes`: `/api/contacts/*`.
//!
//! Bounds are in `model.rs` (at most `MAX_CONTACTS` a user, each field bounded) and `vcard.rs` (a
//! file of at most 5 MB). Search folds text as the index does (`search::analyzer::fold_text`:
//! case, niqqud, final letters, geresh), so "כהן", "כהנ" and "כֹּהֵן" find each other. An import
//! merges by address and reports what it added, updated and skipped.

pub mod model;
pub mod routes;
pub mod vcard;

use redb::WriteTransaction;

pub use model::{Contact, ContactInput, Stored};
pub use routes::router;

/// The address book: routes, forget step, backup section.
pub static FEATURE: Feature = Feature {
    routes: Some(router),
    wire_types,
    forget: &[Step {
        name: "contacts",
        account: forget::nothing,
        user: forget_user,
    }],
    backup: &[BackupSection::of::<Backup>("contacts")],
    needs: &[need::<crate::search::Search>],
    ..Feature::named("contacts")
};

use crate::error::Result;
use crate::feature::{BackupSection, Feature, Notes, Section, need, unless_empty};
use crate::forget::{self, Step};
use crate::messages;
use crate::search::analyzer::fold_text as fold;
use crate::state::AppState;
use crate::store::Store;
use crate::store::per_user::{Made, UserRecords};

static CONTACTS: UserRecords = UserRecords::new("contacts", "contacts");

pub fn create_tables(txn: &WriteTransaction) -> Result<(), redb::Error> {
    CONTACTS.create(txn)
}

pub fn forget_user(txn: &WriteTransaction, user_id: u64) -> anyhow::Result<()> {
    CONTACTS.forget(txn, user_id)
}

pub fn all(store: &Store, user_id: u64) -> Result<Vec<Stored>> {
    CONTACTS.list(store, user_id)
}

pub fn get(store: &Store, user_id: u64, id: u64) -> Result<Option<Stored>> {
    CONTACTS.get(store, user_id, id)
}

/// Whether a contact matches a folded, trimmed query (name, email, phone, company, position,
/// notes, groups) and a group.
fn matches(c: &Stored, folded_query: &str, group: Option<&str>) -> bool {
    if let Some(g) = group.filter(|g| !g.is_empty())
        && !c.fields.groups.iter().any(|x| x == g)
    {
        return false;
    }
    if folded_query.is_empty() {
        return true;
    }
    let f = &c.fields;
    [
        &f.name,
        &f.email,
        &f.phone,
        &f.company,
        &f.position,
        &f.notes,
    ]
    .into_iter()
    .chain(f.groups.iter())
    .any(|v| fold(v).contains(folded_query))
}

/// The contacts of `list` matching `query` (folded once), sorted by name.
pub fn filter(list: Vec<Stored>, query: &str, group: Option<&str>) -> Vec<Stored> {
    let q = fold(query.trim());
    let mut out: Vec<Stored> = list.into_iter().filter(|c| matches(c, &q, group)).collect();
    out.sort_by_cached_key(|c| fold(&c.fields.name));
    out
}

/// The user's contacts matching `query`, by name.
pub fn search(
    store: &Store,
    user_id: u64,
    query: &str,
    group: Option<&str>,
) -> Result<Vec<Stored>> {
    Ok(filter(all(store, user_id)?, query, group))
}

pub fn create(store: &Store, user_id: u64, input: ContactInput, now: &str) -> Result<Stored> {
    let fields = input.checked()?;
    let now = now.to_string();
    CONTACTS.insert(
        store,
        user_id,
        model::MAX_CONTACTS,
        messages::CONTACTS_FULL,
        move |id| Stored {
            id,
            fields,
            created_date: now.clone(),
            updated_date: now,
        },
    )
}

pub fn update(
    store: &Store,
    user_id: u64,
    id: u64,
    input: ContactInput,
    now: &str,
) -> Result<Option<Stored>> {
    let fields = input.checked()?;
    CONTACTS.update(store, user_id, id, |c: &mut Stored| {
        c.fields = fields;
        c.updated_date = now.to_string();
        Ok(())
    })
}

pub fn delete(store: &Store, user_id: u64, id: u64) -> Result<bool> {
    CONTACTS.remove(store, user_id, id)
}

/// What an import did.
#[derive(Debug, Default, serde::Serialize, ts_rs::TS)]
#[serde(rename_all = "camelCase")]
#[ts(rename = "ContactsImported")]
pub struct Imported {
    pub added: usize,
    pub updated: usize,
    /// Cards without a name or an email, or malformed.
    pub skipped: usize,
}

/// Imports cards: one with the address of a contact fills that contact's empty fields and adds
/// its groups; the others are added. One transaction: all or nothing.
pub fn import(
    store: &Store,
    user_id: u64,
    cards: Vec<ContactInput>,
    skipped: usize,
    now: &str,
) -> Result<Imported> {
    let mut existing = all(store, user_id)?;
    let mut report = Imported {
        skipped,
        ..Default::default()
    };
    let mut items: Vec<Made<Stored>> = Vec::new();
    let mut fresh: Vec<Stored> = Vec::new();
    for card in cards {
        let Ok(card) = card.checked() else {
            report.skipped += 1;
            continue;
        };
        let key = card.email.to_lowercase();
        if let Some(c) = existing
            .iter_mut()
            .find(|c| c.fields.email.to_lowercase() == key)
        {
            let f = &mut c.fields;
            for (mine, theirs) in [
                (&mut f.phone, &card.phone),
                (&mut f.company, &card.company),
                (&mut f.position, &card.position),
                (&mut f.notes, &card.notes),
            ] {
                if mine.is_empty() {
                    *mine = theirs.clone();
                }
            }
            for g in &card.groups {
                if !f.groups.contains(g) {
                    f.groups.push(g.clone());
                }
            }
            c.updated_date = now.to_string();
            report.updated += 1;
            let rec = c.clone();
            items.push((Some(rec.id), Box::new(move |_| rec)));
        } else if fresh.iter().any(|c| c.fields.email.to_lowercase() == key) {
            // The same address twice in one file: the first card wins.
            report.skipped += 1;
        } else {
            fresh.push(Stored {
                id: 0,
                fields: card,
                created_date: now.to_string(),
                updated_date: now.to_string(),
            });
        }
    }
    report.added = fresh.len();
    for f in fresh {
        items.push((None, Box::new(move |id| Stored { id, ..f })));
    }
    CONTACTS.put_many(
        store,
        user_id,
        model::MAX_CONTACTS,
        messages::CONTACTS_FULL,
        items,
    )?;
    Ok(report)
}

/// Compose's address book: the user's contacts matching `q` first (by name), then the people they
/// mail with, most used first, filtered by `q` on name or address.
pub fn address_book(
    store: &Store,
    user_id: u64,
    q: &str,
) -> Result<Vec<crate::outgoing::contacts::ComposeContact>> {
    let mailed = crate::outgoing::contacts::people(store, user_id)?;
    let count_of = |email: &str| {
        mailed
            .iter()
            .find(|p| p.email.eq_ignore_ascii_case(email))
            .map_or(0, |p| p.count)
    };
    let mut out: Vec<crate::outgoing::contacts::ComposeContact> = search(store, user_id, q, None)?
        .into_iter()
        .map(|c| crate::outgoing::contacts::ComposeContact {
            id: c.fields.email.clone(),
            count: count_of(&c.fields.email),
            name: c.fields.name,
            email: c.fields.email,
            saved: true,
        })
        .collect();
    out.truncate(crate::outgoing::contacts::BOOK_MAX);
    let q = q.trim().to_lowercase();
    for p in mailed {
        if out.len() >= crate::outgoing::contacts::BOOK_MAX {
            break;
        }
        let matches = q.is_empty() || p.email.contains(&q) || p.name.to_lowercase().contains(&q);
        if matches && !out.iter().any(|c| c.email.eq_ignore_ascii_case(&p.email)) {
            out.push(p);
        }
    }
    Ok(out)
}

/// The settings backup's section: every contact.
struct Backup;

impl Section for Backup {
    type Data = Vec<ContactInput>;

    fn export(state: &AppState, user_id: u64) -> anyhow::Result<Option<Self::Data>> {
        let list: Vec<ContactInput> = all(&state.store, user_id)?
            .into_iter()
            .map(|c| c.fields)
            .collect();
        Ok(unless_empty(list))
    }

    fn import(state: &AppState, user_id: u64, list: Vec<ContactInput>) -> anyhow::Result<Notes> {
        import(&state.store, user_id, list, 0, &crate::kit::now_rfc3339())?;
        Ok(Vec::new())
    }
}

// This feature's part of the wire contract (see `crate::wire`).
crate::wire_types!(
    ContactInput,
    Contact,
    Imported,
    routes::ContactsResponse,
    routes::Suggestion,
    routes::SuggestionsResponse,
    routes::ContactMailResponse,
    routes::Deleted,
);
