//! Snooze (issue 40): a thread leaves the inbox until a time the user chose (presets in their
//! time zone and the Israeli week), and comes back at the top, unread, with a notice; a reply
//! in the thread brings it back at once.
//!
//! The mailbox keeps it: the mail moves to a `Snoozed` folder (created when missing; Fastmail's
//! model, and Gmail's Snoozed label) carrying `$Snoozed` and the time as a keyword, so other
//! clients see it out of the inbox and a reinstall takes it up again. The store keeps a record
//! per snoozed thread for the list and the scheduler.
//!
//! - `model`: the record, the keywords.
//! - `times`: the presets and chosen times.
//! - `mailbox`: what snoozing, waking and a new time do to the mail (queued moves and keywords).
//! - `wake`: the due-time job (wake-ups, replies, snoozes found in the mailbox).
//! - `routes`: `/api/snooze/*`.

pub mod mailbox;
pub mod model;
pub mod routes;
pub mod times;
pub mod wake;

use redb::WriteTransaction;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::accounts::by_mailbox::{Mailboxes, Restore};
use crate::feature::{BackupSection, Feature, need};
use crate::forget::Step;
use crate::jobs::{Event, Spec};
use crate::state::AppState;
use crate::store::per_user::UserRecords;
use model::Snooze;

/// Snooze: routes, forget steps, backup section, and the due-time job (its places in the change
/// log taken before any sync; woken by new mail).
pub static FEATURE: Feature = Feature {
    routes: Some(routes::router),
    wire_types,
    forget: &[Step {
        name: "snoozes",
        account: forget_account,
        user: forget_user,
    }],
    backup: &[BackupSection {
        name: "snoozes",
        export: backup_export,
        import: backup_import,
    }],
    jobs: |_| vec![Spec::due(wake::JOB, wake::run).on(Event::NewMail)],
    prepare: |state| wake::join(&state.store),
    needs: &[need::<crate::notices::Notices>],
    ..Feature::named("snooze")
};

pub(crate) static SNOOZES: UserRecords = UserRecords::new("snoozes", "snoozes");

pub fn create_tables(txn: &WriteTransaction) -> Result<(), redb::Error> {
    SNOOZES.create(txn)
}

pub fn forget_user(txn: &WriteTransaction, user_id: u64) -> anyhow::Result<()> {
    SNOOZES.forget(txn, user_id)
}

pub fn forget_account(txn: &WriteTransaction, account: u64) -> anyhow::Result<()> {
    SNOOZES.retain_in(txn, |_, s: &Snooze| s.account != account)
}

/// A sleeping snooze in a backup: its mailbox by address (account ids are this install's).
#[derive(Debug, Serialize, Deserialize)]
struct Saved {
    mailbox: String,
    thread_id: String,
    until: i64,
    created: i64,
    subject: String,
    from: String,
    message_ids: Vec<String>,
}

/// The settings backup's section: the sleeping snoozes. (The mailbox keeps them too: a restore
/// on a new install finds them in the Snoozed folder when the mailbox syncs.)
pub fn backup_export(state: &AppState, user_id: u64) -> anyhow::Result<Option<Value>> {
    let all: Vec<Snooze> = SNOOZES.list(&state.store, user_id)?;
    let mailboxes = Mailboxes::of(&state.store, user_id)?;
    let saved: Vec<Saved> = all
        .into_iter()
        .filter(Snooze::active)
        .filter_map(|s| {
            Some(Saved {
                mailbox: mailboxes.address(s.account)?,
                thread_id: s.thread_id,
                until: s.until,
                created: s.created,
                subject: s.subject,
                from: s.from,
                message_ids: s.message_ids,
            })
        })
        .collect();
    if saved.is_empty() {
        return Ok(None);
    }
    Ok(Some(serde_json::to_value(saved)?))
}

/// Restores the sleeping snoozes of mailboxes the user has here (a thread already sleeping is
/// left as it is).
pub fn backup_import(
    state: &AppState,
    user_id: u64,
    v: Value,
) -> anyhow::Result<crate::feature::Notes> {
    let saved: Vec<Saved> = serde_json::from_value(v)?;
    Restore {
        table: &SNOOZES,
        max: model::MAX_ACTIVE,
        full: crate::messages::SNOOZES_FULL,
        mailbox: |s: &Saved| &s.mailbox,
        held: |h: &Snooze, account, s: &Saved| {
            h.active() && h.account == account && h.thread_id == s.thread_id
        },
        make: |id, account, s: Saved| Snooze {
            id,
            account,
            thread_id: s.thread_id,
            until: s.until,
            created: s.created,
            subject: crate::kit::cut(&s.subject, 500).to_string(),
            from: crate::kit::cut(&s.from, 200).to_string(),
            message_ids: s.message_ids.into_iter().take(200).collect(),
            woke: None,
        },
    }
    .run(&state.store, user_id, saved)?;
    state.jobs().trigger(state, wake::JOB);
    Ok(Vec::new())
}

// This feature's part of the wire contract (see `crate::wire`).
crate::wire_types!(
    model::WokeBy,
    model::Item,
    times::Presets,
    routes::ListResponse,
    routes::SnoozeRequest,
    routes::SnoozeResponse,
);

// Snooze on a store with a local account (its queued moves applied as the sync would): the
// thread leaves the inbox, comes back at its time at the top and unread, once; a reply wakes
// it early; a snooze found in the Snoozed folder is taken up.
#[cfg(test)]
mod tests {

    use super::model::{KEYWORD, Snooze, WokeBy, until_keyword, until_of};
    use super::routes::snooze_mail;
    use super::wake::{self, step};
    use super::{SNOOZES, forget_account};
    use crate::accounts::{self, AccountRecord};
    use crate::emails::{ListOptions, Selector, listing};
    use crate::mailstore::{Fetched, FolderState, MailRead, MailWrite, Reason, ServerFlags};
    use crate::store::Store;

    const ACCOUNT: u64 = 1;
    const NOW: i64 = 1_741_770_000;

    fn fetched(uid: u32, raw: &str, keywords: &[&str]) -> Fetched {
        Fetched {
            uid,
            flags: ServerFlags {
                seen: true,
                keywords: keywords.iter().map(|k| k.to_string()).collect(),
                ..ServerFlags::default()
            },
            internal_date: Some(NOW - 3600),
            raw: raw.as_bytes().to_vec(),
            identity: None,
            thread: None,
        }
    }

    fn mail(id: &str, subject: &str, reply_to: Option<&str>, date: &str) -> String {
        let refs = reply_to.map_or(String::new(), |r| {
            format!("In-Reply-To: <{r}>\r\nReferences: <{r}>\r\n")
        });
        format!(
            "From: Avi <avi@example.test>\r\nTo: dana@example.test\r\nSubject: {subject}\r\n\
             Message-ID: <{id}>\r\n{refs}Date: {date}\r\n\r\nגוף ההודעה\r\n"
        )
    }

    /// A store with Dana, her local mailbox, a thread of two mails and one other in INBOX.
    fn setup() -> (tempfile::TempDir, Store, u64) {
        let (dir, store, user) = crate::schema::store_with_user();
        let txn = store.begin_write().unwrap();
        accounts::insert_in(
            &txn,
            &AccountRecord::local(ACCOUNT, user, "dana@example.test"),
        )
        .unwrap();
        let w = MailWrite::new(&txn, Reason::Sync);
        w.save_folder(ACCOUNT, &FolderState::local("INBOX"))
            .unwrap();
        let batch = [
            fetched(
                1,
                &mail("a1@x", "פגישה", None, "Mon, 10 Mar 2025 09:00:00 +0200"),
                &[],
            ),
            fetched(
                2,
                &mail(
                    "a2@x",
                    "Re: פגישה",
                    Some("a1@x"),
                    "Mon, 10 Mar 2025 10:00:00 +0200",
                ),
                &[],
            ),
            fetched(
                3,
                &mail("b1@x", "אחר", None, "Mon, 10 Mar 2025 11:00:00 +0200"),
                &[],
            ),
        ];
        w.insert_messages(ACCOUNT, "INBOX", &batch).unwrap();
        txn.commit().unwrap();
        wake::join(&store).unwrap();
        (dir, store, user)
    }

    /// The local account's queued changes applied, as its sync task does.
    fn apply(store: &Store) {
        let txn = store.begin_write().unwrap();
        crate::sync::local::apply_pending(MailWrite::new(&txn, Reason::Sync), ACCOUNT).unwrap();
        txn.commit().unwrap();
    }

    fn id_of(store: &Store, message_id: &str) -> u64 {
        let read = MailRead::new(store).unwrap();
        read.account_rows(ACCOUNT)
            .unwrap()
            .map(|r| r.unwrap().id())
            .find(|id| {
                read.meta(*id)
                    .unwrap()
                    .unwrap()
                    .summary
                    .message_id
                    .as_deref()
                    == Some(message_id)
            })
            .unwrap()
    }

    /// The subjects of the threads a folder lists, newest first.
    fn threads(store: &Store, user: u64, folder: &str) -> Vec<String> {
        listing::threads(
            store,
            user,
            &Selector::for_any(folder),
            &ListOptions::default(),
            1,
            50,
        )
        .unwrap()
        .threads
        .iter()
        .map(|t| t.emails[0].summary.subject.clone())
        .collect()
    }

    #[test]
    fn a_snoozed_thread_leaves_the_inbox_and_comes_back_at_its_time_once() {
        let (_dir, store, user) = setup();
        let until = NOW + 600;
        let s = snooze_mail(&store, user, id_of(&store, "a2@x"), until, NOW).unwrap();
        assert_eq!(s.message_ids.len(), 2, "the whole thread");
        // Hidden at once, before the mailbox moved it.
        assert_eq!(threads(&store, user, "inbox"), ["אחר"]);
        apply(&store);
        assert_eq!(threads(&store, user, "snoozed"), ["Re: פגישה"]);
        assert_eq!(threads(&store, user, "inbox"), ["אחר"]);
        let meta = MailRead::new(&store)
            .unwrap()
            .meta(id_of(&store, "a2@x"))
            .unwrap()
            .unwrap();
        assert_eq!(meta.folder, "Snoozed");
        assert_eq!(until_of(&meta.keywords), Some(until - until % 60));
        assert!(meta.keywords.iter().any(|k| k == KEYWORD));

        // Not yet: asleep until its time.
        let (woken, next) = step(&store, NOW + 10).unwrap();
        assert!(woken.is_empty());
        assert_eq!(next, Some(until));

        let (woken, next) = step(&store, until).unwrap();
        assert_eq!(woken.len(), 1);
        assert_eq!(woken[0].snooze.woke.unwrap().by, WokeBy::Time);
        assert_eq!(next, None);
        apply(&store);
        // Back at the top, the newest unread, no snooze keywords left.
        assert_eq!(threads(&store, user, "inbox"), ["Re: פגישה", "אחר"]);
        let read = MailRead::new(&store).unwrap();
        let newest = read.meta(id_of(&store, "a2@x")).unwrap().unwrap();
        assert_eq!(newest.folder, "INBOX");
        assert!(!newest.seen && newest.date == until);
        assert!(
            !newest
                .keywords
                .iter()
                .any(|k| super::model::is_snooze_keyword(k))
        );
        let older = read.meta(id_of(&store, "a1@x")).unwrap().unwrap();
        assert!(older.seen && older.folder == "INBOX");
        drop(read);
        // Never twice.
        let (woken, _) = step(&store, until + 60).unwrap();
        assert!(woken.is_empty());
        assert!(threads(&store, user, "snoozed").is_empty());
    }

    #[test]
    fn a_reply_in_the_thread_wakes_it_at_once() {
        let (_dir, store, user) = setup();
        snooze_mail(&store, user, id_of(&store, "a1@x"), NOW + 86_400, NOW).unwrap();
        apply(&store);
        let (woken, _) = step(&store, NOW).unwrap();
        assert!(woken.is_empty(), "the move into Snoozed is not a reply");
        // Unrelated mail does not wake it; a reply does.
        let txn = store.begin_write().unwrap();
        let w = MailWrite::new(&txn, Reason::Sync);
        let batch = [
            fetched(
                4,
                &mail("c1@x", "חדש", None, "Tue, 11 Mar 2025 09:00:00 +0200"),
                &[],
            ),
            fetched(
                5,
                &mail(
                    "a3@x",
                    "Re: פגישה",
                    Some("a2@x"),
                    "Tue, 11 Mar 2025 10:00:00 +0200",
                ),
                &[],
            ),
        ];
        w.insert_messages(ACCOUNT, "INBOX", &batch).unwrap();
        txn.commit().unwrap();
        let (woken, next) = step(&store, NOW + 60).unwrap();
        assert_eq!(woken.len(), 1);
        assert_eq!(woken[0].snooze.woke.unwrap().by, WokeBy::Reply);
        assert_eq!(next, None);
        apply(&store);
        assert_eq!(threads(&store, user, "inbox")[0], "Re: פגישה");
        assert!(threads(&store, user, "snoozed").is_empty());
    }

    #[test]
    fn a_snooze_found_in_the_mailbox_is_taken_up_and_an_account_forgotten_takes_it() {
        let (_dir, store, user) = setup();
        // Another install (or before a reinstall) left two threads in Snoozed: one due later, one
        // whose time passed while nobody was running.
        let txn = store.begin_write().unwrap();
        let w = MailWrite::new(&txn, Reason::Sync);
        w.save_folder(ACCOUNT, &FolderState::local("Snoozed"))
            .unwrap();
        let later = until_keyword(NOW + 7200);
        let past = until_keyword(NOW - 60);
        let batch = [
            fetched(
                1,
                &mail("s1@x", "מחר", None, "Sun, 09 Mar 2025 09:00:00 +0200"),
                &[KEYWORD, &later],
            ),
            fetched(
                2,
                &mail("s2@x", "עבר", None, "Sun, 09 Mar 2025 10:00:00 +0200"),
                &[KEYWORD, &past],
            ),
            fetched(
                3,
                &mail("s3@x", "ידני", None, "Sun, 09 Mar 2025 11:00:00 +0200"),
                &[],
            ),
        ];
        w.insert_messages(ACCOUNT, "Snoozed", &batch).unwrap();
        txn.commit().unwrap();
        let (woken, next) = step(&store, NOW).unwrap();
        assert_eq!(woken.len(), 1, "the one whose time passed");
        assert_eq!(woken[0].snooze.subject, "עבר");
        assert_eq!(next, Some(NOW + 7200 - (NOW + 7200) % 60));
        let all: Vec<Snooze> = SNOOZES.list(&store, user).unwrap();
        assert_eq!(all.len(), 2, "the mail without a time is left alone");
        apply(&store);
        assert!(threads(&store, user, "inbox").contains(&"עבר".to_string()));

        let txn = store.begin_write().unwrap();
        forget_account(&txn, ACCOUNT).unwrap();
        txn.commit().unwrap();
        assert!(SNOOZES.list::<Snooze>(&store, user).unwrap().is_empty());
    }

    #[test]
    fn a_sleeping_thread_takes_a_new_time_and_only_inbox_mail_is_snoozed() {
        let (_dir, store, user) = setup();
        let id = id_of(&store, "b1@x");
        let first = snooze_mail(&store, user, id, NOW + 600, NOW).unwrap();
        apply(&store);
        // Snoozed again from the Snoozed folder: a new time for the same record.
        let again = snooze_mail(&store, user, id, NOW + 1200, NOW).unwrap();
        assert_eq!(first.id, again.id, "one record per thread");
        assert_eq!(SNOOZES.count(&store, user).unwrap(), 1);
        let (_, next) = step(&store, NOW + 700).unwrap();
        assert_eq!(next, Some(NOW + 1200), "the old time wakes nothing");
        let meta = MailRead::new(&store).unwrap().meta(id).unwrap().unwrap();
        assert_eq!(
            until_of(&meta.keywords),
            Some(NOW + 1200 - (NOW + 1200) % 60)
        );
        // Mail with nothing of its thread in the inbox (a sent mail) is not snoozed.
        let txn = store.begin_write().unwrap();
        let w = MailWrite::new(&txn, Reason::Sync);
        w.save_folder(ACCOUNT, &FolderState::local("Sent")).unwrap();
        let sent = mail("d1@x", "נשלח", None, "Mon, 10 Mar 2025 12:00:00 +0200");
        w.insert_messages(ACCOUNT, "Sent", &[fetched(1, &sent, &[])])
            .unwrap();
        txn.commit().unwrap();
        let err = snooze_mail(&store, user, id_of(&store, "d1@x"), NOW + 600, NOW).unwrap_err();
        assert_eq!(
            err.to_string(),
            crate::error::AppError::bad_request(crate::messages::SNOOZE_NOT_IN_INBOX).to_string()
        );
        // Another user's mail is not found.
        let other = crate::auth::users::create(
            &store,
            crate::auth::users::NewUser {
                username: "eve",
                name: "",
                password: "password1",
                role: crate::auth::users::Role::User,
            },
            false,
        )
        .unwrap()
        .id;
        assert!(snooze_mail(&store, other, id, NOW + 600, NOW).is_err());
    }
}
