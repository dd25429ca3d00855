//! Records a backup carries by their mailbox's address: account ids are this install's, the
//! address is what another install knows the mailbox by. Snoozes and follow-ups are saved this
//! way; a restore keeps the records of the mailboxes the user has here and drops the rest.

use serde::Serialize;
use serde::de::DeserializeOwned;

use crate::store::Store;
use crate::store::per_user::UserRecords;

/// The user's mailboxes, to name an account by its address and find it again.
pub struct Mailboxes(Vec<super::AccountRecord>);

impl Mailboxes {
    /// The mailboxes `user_id` has here.
    pub fn of(store: &Store, user_id: u64) -> crate::error::Result<Self> {
        Ok(Self(super::list_for_user(store, user_id)?))
    }

    /// The address of `account`, if it is one of the user's.
    pub fn address(&self, account: u64) -> Option<String> {
        self.0
            .iter()
            .find(|a| a.id == account)
            .map(|a| a.email.clone())
    }

    /// The user's account for `address` (case aside).
    pub fn account(&self, address: &str) -> Option<u64> {
        self.0
            .iter()
            .find(|a| a.email.eq_ignore_ascii_case(address))
            .map(|a| a.id)
    }
}

/// How one kind of record comes back from a backup into `table`.
pub struct Restore<'a, S, R> {
    pub table: &'a UserRecords,
    /// At most this many records per user (and the refusal past it).
    pub max: usize,
    pub full: &'a str,
    /// The saved record's mailbox address.
    pub mailbox: fn(&S) -> &str,
    /// Whether a record the user holds already stands for the saved one (kept as it is).
    pub held: fn(&R, u64, &S) -> bool,
    /// The record to store, given its new id and account.
    pub make: fn(u64, u64, S) -> R,
}

impl<S, R: Serialize + DeserializeOwned> Restore<'_, S, R> {
    /// Stores the saved records of mailboxes the user has here that it does not hold yet, in
    /// one transaction.
    pub fn run(&self, store: &Store, user_id: u64, saved: Vec<S>) -> anyhow::Result<()> {
        let mailboxes = Mailboxes::of(store, user_id)?;
        let txn = store.begin_write()?;
        let have: Vec<R> = self.table.list_in(&txn, user_id)?;
        for s in saved.into_iter().take(self.max) {
            let Some(account) = mailboxes.account((self.mailbox)(&s)) else {
                continue;
            };
            if have.iter().any(|h| (self.held)(h, account, &s)) {
                continue;
            }
            let id = self.table.new_id_in(&txn, user_id, self.max, self.full)?;
            self.table
                .put_in(&txn, user_id, id, &(self.make)(id, account, s))?;
        }
        txn.commit()?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::accounts::{AccountRecord, insert_in};

    static RECORDS: UserRecords = UserRecords::new("by_mailbox_test", "by_mailbox_test");

    #[derive(serde::Serialize, serde::Deserialize, Debug, PartialEq)]
    struct Rec {
        id: u64,
        account: u64,
        key: String,
    }

    fn restore() -> Restore<'static, (String, String), Rec> {
        Restore {
            table: &RECORDS,
            max: 3,
            full: "full",
            mailbox: |s: &(String, String)| &s.0,
            held: |h: &Rec, account, s: &(String, String)| h.account == account && h.key == s.1,
            make: |id, account, s: (String, String)| Rec {
                id,
                account,
                key: s.1,
            },
        }
    }

    #[test]
    fn records_come_back_to_the_mailboxes_the_user_has_once_and_bounded() {
        let (_dir, store, user) = crate::schema::store_with_user();
        let txn = store.begin_write().unwrap();
        insert_in(&txn, &AccountRecord::local(7, user, "dana@example.test")).unwrap();
        RECORDS.create(&txn).unwrap();
        txn.commit().unwrap();
        let mailboxes = Mailboxes::of(&store, user).unwrap();
        assert_eq!(mailboxes.address(7).as_deref(), Some("dana@example.test"));
        assert_eq!(mailboxes.account("DANA@example.test"), Some(7));
        assert_eq!(mailboxes.account("eve@example.test"), None);

        let saved = |list: &[(&str, &str)]| -> Vec<(String, String)> {
            list.iter()
                .map(|(m, k)| (m.to_string(), k.to_string()))
                .collect()
        };
        restore()
            .run(
                &store,
                user,
                saved(&[("Dana@Example.test", "a"), ("eve@example.test", "b")]),
            )
            .unwrap();
        // Again, with the one already held and more than the bound.
        restore()
            .run(
                &store,
                user,
                saved(&[
                    ("dana@example.test", "a"),
                    ("dana@example.test", "c"),
                    ("dana@example.test", "d"),
                    ("dana@example.test", "e"),
                ]),
            )
            .unwrap();
        let got: Vec<Rec> = RECORDS.list(&store, user).unwrap();
        let keys: Vec<(u64, &str)> = got.iter().map(|r| (r.account, r.key.as_str())).collect();
        assert_eq!(keys, [(7, "a"), (7, "c"), (7, "d")]);
    }
}
