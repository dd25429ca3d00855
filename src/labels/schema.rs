//! The labels' table (migration 20): the user's labels, (user id, label id) → JSON
//! [`super::model::Label`].

use redb::WriteTransaction;

use crate::store::per_user::UserRecords;

pub(crate) static LABELS: UserRecords = UserRecords::new("labels", "labels");

/// Creates the table (migration 20).
pub fn create_tables(txn: &WriteTransaction) -> Result<(), redb::Error> {
    LABELS.create(txn)
}

/// Forgets a removed user's labels.
pub fn forget_user(txn: &WriteTransaction, user_id: u64) -> anyhow::Result<()> {
    LABELS.forget(txn, user_id)
}
