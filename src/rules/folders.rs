//! The folder a rule moves mail into, kept true to the mailbox: a rename (made here or seen by
//! the sync) is followed in the rename's own transaction ([`Follow`], the `FolderFollower`
//! seam), so the rule keeps moving mail into the same folder under its new name; a folder
//! deleted on the server is not made again for a rule: the rule is shown as pointing at a
//! missing folder ([`shown`]: `missingFolder`, the rules page says so in Hebrew) and its move fails with a
//! word in the activity.

use std::collections::HashSet;

use redb::WriteTransaction;

use super::RULES;
use super::model::{ActionKind, Rule, Stored};
use crate::error::Result;
use crate::hooks::FolderFollower;
use crate::mailstore::MailRead;
use crate::store::Store;

/// Follows renames into the user's rules.
pub struct Follow;

impl FolderFollower for Follow {
    fn renamed(
        &self,
        txn: &WriteTransaction,
        user_id: u64,
        renamed: &[(String, String)],
    ) -> anyhow::Result<()> {
        let rules: Vec<Stored> = RULES.list_in(txn, user_id)?;
        for mut rule in rules {
            let mut changed = false;
            for a in &mut rule.rule.actions {
                if a.kind != ActionKind::MoveToFolder {
                    continue;
                }
                if let Some((_, new)) = renamed.iter().find(|(old, _)| *old == a.value) {
                    a.value = new.clone();
                    changed = true;
                }
            }
            if changed {
                RULES.put_in(txn, user_id, rule.id, &rule)?;
            }
        }
        Ok(())
    }
}

/// Every folder of the user's mailboxes, by server path.
fn folder_paths(store: &Store, user_id: u64) -> Result<HashSet<String>> {
    let mail = MailRead::new(store)?;
    let mut out = HashSet::new();
    for account in crate::accounts::list_for_user(store, user_id)? {
        out.extend(mail.folders(account.id)?.into_iter().map(|f| f.name));
    }
    Ok(out)
}

/// The rule's "move to folder" target when no mailbox of the user has it (deleted).
fn missing_of(rule: &Stored, paths: &HashSet<String>) -> Option<String> {
    rule.rule
        .actions
        .iter()
        .find(|a| a.kind == ActionKind::MoveToFolder && !paths.contains(&a.value))
        .map(|a| a.value.clone())
}

/// The rules as the API shows them, each with the folder it names that is gone, if any.
pub fn shown(store: &Store, user_id: u64, rules: Vec<Stored>) -> Result<Vec<Rule>> {
    let paths = folder_paths(store, user_id)?;
    Ok(rules
        .into_iter()
        .map(|r| {
            let missing = missing_of(&r, &paths);
            Rule {
                missing_folder: missing,
                ..Rule::from(r)
            }
        })
        .collect())
}
