//! `save`'s refusals (issue 37): a user removed while their mailbox was connecting, and the cap
//! on mailboxes per user.

use super::*;

/// A password mailbox's settings for `email`.
pub(super) fn settings(email: &str) -> Settings {
    Settings {
        email: email.into(),
        password: "secret".into(),
        servers: MailServers {
            imap_server: "imap.example.test".into(),
            imap_port: 993,
            imap_ssl: true,
            smtp_server: "smtp.example.test".into(),
            smtp_port: 465,
            smtp_ssl: true,
        },
        imap_fingerprint: None,
        smtp_fingerprint: None,
        auth: AuthKind::Password,
        household: false,
    }
}

/// The tables these tests use.
const TABLES: &[crate::store::Migration] = &[crate::store::Migration {
    version: 1,
    name: "users and mail accounts",
    apply: |txn| {
        crate::store::create_meta(txn)?;
        crate::auth::users::create_tables(txn)?;
        create_tables(txn)
    },
}];

/// A fresh store with one user who is not an admin.
fn store_with_user(
    username: &str,
) -> (
    tempfile::TempDir,
    Store,
    ServerKey,
    crate::auth::users::User,
) {
    use crate::auth::users::{self, NewUser, Role};
    let dir = tempfile::tempdir().unwrap();
    // The users' and accounts' tables only (the schema sits above every feature).
    let (store, _) = Store::open_with(dir.path(), 16, TABLES).unwrap();
    store.migrate().unwrap();
    let new = NewUser {
        username,
        name: "",
        password: "password-1",
        role: Role::User,
    };
    let user = users::create(&store, new, false).unwrap();
    (dir, store, ServerKey::ephemeral(), user)
}

#[test]
fn a_mailbox_is_not_saved_for_a_user_removed_while_it_connected() {
    let (_dir, store, key, user) = store_with_user("yossi");
    // The login checked the servers (the user existed); an admin removes him meanwhile.
    use crate::auth::users;
    let record = users::get(&store, user.id).unwrap().unwrap();
    // (No feature's forget step is needed here: the user's record is what `save` looks at.)
    let forget = crate::forget::Forget::new(Vec::new(), |_, _| Ok(Vec::new()), Vec::new());
    users::remove_record(&store, &forget, &record, false).unwrap();
    let err = save(&store, &key, user.id, &settings("yossi@example.test"), 10).unwrap_err();
    assert_eq!(err.user_message(), messages::USER_NOT_FOUND);
    assert!(
        list_all(&store).unwrap().is_empty(),
        "no account for a removed user"
    );
}

#[test]
fn a_new_mailbox_past_the_cap_is_refused_and_a_known_one_is_replaced() {
    let (_dir, store, key, user) = store_with_user("dana");
    for n in 0..2 {
        save(
            &store,
            &key,
            user.id,
            &settings(&format!("b{n}@example.test")),
            2,
        )
        .unwrap();
    }
    let err = save(&store, &key, user.id, &settings("b2@example.test"), 2).unwrap_err();
    assert_eq!(err.user_message(), messages::mailboxes_full(2));
    // The same address again is the same mailbox, not a new one.
    save(&store, &key, user.id, &settings("B1@example.test"), 2).unwrap();
    assert_eq!(list_for_user(&store, user.id).unwrap().len(), 2);
}
