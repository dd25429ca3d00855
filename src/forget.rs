//! Forgetting a user or a mail account. Every feature that keeps rows keyed by a user or an
//! account declares its [`Step`]s in its `Feature` (`crate::feature`), so a removed user leaves
//! nothing behind and a feature added later cannot be missed: the forget test scans every table
//! of the store for the removed user's ids and addresses.
//!
//! All steps run in one write transaction; a feature with work in memory adds [`Hooks`] that
//! stop it first (the sync tasks, an OAuth account's tokens) or wake it after (the outbox
//! scheduler, which then finds the removed mail gone).
//!
//! Entry points: `DELETE /api/admin/users/{id}`, `mailclient user remove` and the mailbox logout.
//! The index forgets the mail through the change log; then the bytes go (`Search::request_purge`,
//! see `search/index.rs`; the CLI does the same and compacts).

use std::sync::Arc;

use redb::WriteTransaction;

use crate::error::Result;
use crate::store::Store;

/// A feature's part in forgetting.
pub struct Step {
    pub name: &'static str,
    /// Rows of one mail account (run for each account of a removed user too).
    pub account: fn(&WriteTransaction, u64) -> anyhow::Result<()>,
    /// Rows of the user themselves, after their accounts.
    pub user: fn(&WriteTransaction, u64) -> anyhow::Result<()>,
}

/// For a step with nothing kept per account or per user.
pub fn nothing(_: &WriteTransaction, _: u64) -> anyhow::Result<()> {
    Ok(())
}

/// In-memory work around the transaction: given the account ids going.
pub trait Hooks: Send + Sync {
    /// Before: stop what uses them (a sync batch in flight finds its account gone).
    fn stopping(&self, _accounts: &[u64]) {}
    /// After the commit.
    fn forgotten(&self, _accounts: &[u64]) {}
}

pub struct Forget {
    steps: Vec<&'static Step>,
    /// A user's account ids, read in the transaction.
    accounts_of: fn(&WriteTransaction, u64) -> anyhow::Result<Vec<u64>>,
    /// Work in memory (none without a running server: the CLI).
    hooks: Vec<Arc<dyn Hooks>>,
}

impl Forget {
    pub fn new(
        steps: Vec<&'static Step>,
        accounts_of: fn(&WriteTransaction, u64) -> anyhow::Result<Vec<u64>>,
        hooks: Vec<Arc<dyn Hooks>>,
    ) -> Self {
        Self {
            steps,
            accounts_of,
            hooks,
        }
    }

    /// The steps, in the order they run.
    pub fn steps(&self) -> &[&'static Step] {
        &self.steps
    }

    fn stopping(&self, accounts: &[u64]) {
        for h in &self.hooks {
            h.stopping(accounts);
        }
    }

    fn forgotten(&self, accounts: &[u64]) {
        for h in &self.hooks {
            h.forgotten(accounts);
        }
    }

    fn accounts_in(&self, txn: &WriteTransaction, account: u64) -> anyhow::Result<()> {
        for step in &self.steps {
            (step.account)(txn, account)
                .map_err(|e| e.context(format!("forgetting account {account}: {}", step.name)))?;
        }
        Ok(())
    }

    /// Forgets one mail account: its sync task, its stored mail and every row keyed by it.
    pub fn account(&self, store: &Store, account: u64) -> Result<()> {
        self.stopping(&[account]);
        let txn = store.begin_write()?;
        self.accounts_in(&txn, account)?;
        txn.commit()?;
        self.forgotten(&[account]);
        Ok(())
    }

    /// Forgets a user: their accounts as above, then every row keyed by the user; `last` runs
    /// in the same transaction (the user's own record, with its checks) and may refuse.
    pub fn user(
        &self,
        store: &Store,
        user: u64,
        last: impl FnOnce(&WriteTransaction) -> Result<()>,
    ) -> Result<()> {
        let accounts = {
            let txn = store.begin_write()?;
            let ids = (self.accounts_of)(&txn, user)?;
            txn.abort()?;
            ids
        };
        self.stopping(&accounts);
        let txn = store.begin_write()?;
        // Read again inside the transaction: an account added meanwhile goes too, and its sync
        // (started after the first read) is stopped like the others.
        let before = accounts;
        let accounts = (self.accounts_of)(&txn, user)?;
        let added: Vec<u64> = accounts
            .iter()
            .filter(|a| !before.contains(a))
            .copied()
            .collect();
        if !added.is_empty() {
            self.stopping(&added);
        }
        for account in &accounts {
            self.accounts_in(&txn, *account)?;
        }
        for step in &self.steps {
            (step.user)(&txn, user)
                .map_err(|e| e.context(format!("forgetting user {user}: {}", step.name)))?;
        }
        last(&txn)?;
        txn.commit()?;
        self.forgotten(&accounts);
        Ok(())
    }
}
