//! `GET /api/folders/tree`: every folder of each of the user's mailboxes with its plain name
//! (the last level), server path, parent, role and counts. The counts are the sidebar's own
//! (`emails::folders`); the layout (delimiter, prefix) is the sync's LIST.

use std::collections::HashMap;

use serde::Serialize;

use super::path::Layout;
use crate::accounts;
use crate::error::Result;
use crate::mail::folder_path;
use crate::mailstore::MailRead;
use crate::store::Store;

/// One folder of a mailbox.
#[derive(Debug, Clone, Serialize, ts_rs::TS)]
#[serde(rename_all = "camelCase")]
pub struct FolderNode {
    pub account_id: u64,
    /// The server's name: the id the rest of the API takes (`/api/threads/box:{path}`).
    pub path: String,
    /// The last level, decoded (`ארכיון` for `INBOX.חשבוניות 2024.ארכיון`).
    pub name: String,
    /// Every level below the prefix, decoded and joined by `/`.
    pub full_name: String,
    /// The nearest folder above it that the mailbox has, else none (a top-level folder).
    pub parent: Option<String>,
    /// inbox, sent, drafts, junk, trash, archive, snoozed, or "" for the user's own.
    pub role: String,
    pub depth: usize,
    pub unread: usize,
    pub total: usize,
    /// The server takes no keywords in this folder (PERMANENTFLAGS without `\*`, some
    /// Outlook.com folders): statuses set here are kept only in mailclient, other mail clients
    /// do not see them. False until the folder's first sync.
    pub statuses_local: bool,
}

/// One mailbox's folders, parents before their children, in name order.
#[derive(Debug, Clone, Serialize, ts_rs::TS)]
#[serde(rename_all = "camelCase")]
pub struct MailboxFolders {
    pub account_id: u64,
    pub email: String,
    pub folders: Vec<FolderNode>,
}

#[derive(Debug, Clone, Serialize, ts_rs::TS)]
#[serde(rename_all = "camelCase")]
pub struct FolderTree {
    pub mailboxes: Vec<MailboxFolders>,
}

/// The user's folder tree.
pub fn tree(store: &Store, user_id: u64) -> Result<FolderTree> {
    let counts: HashMap<(u64, String), (usize, usize)> =
        crate::emails::listing::folders(store, user_id)?
            .into_iter()
            .map(|f| ((f.account_id, f.name), (f.unread, f.total)))
            .collect();
    let mail = MailRead::new(store)?;
    let mut mailboxes = Vec::new();
    for account in accounts::list_for_user(store, user_id)? {
        let layout = Layout::of(mail.folders(account.id)?);
        let folders = nodes(&layout, account.id, |name| {
            counts
                .get(&(account.id, name.to_string()))
                .copied()
                .unwrap_or_default()
        });
        mailboxes.push(MailboxFolders {
            account_id: account.id,
            email: account.email,
            folders,
        });
    }
    Ok(FolderTree { mailboxes })
}

/// The nodes of one mailbox, sorted so a parent comes before its children.
fn nodes(
    layout: &Layout,
    account_id: u64,
    counts: impl Fn(&str) -> (usize, usize),
) -> Vec<FolderNode> {
    let d = layout.delimiter.as_str();
    let mut out: Vec<FolderNode> = layout
        .folders
        .iter()
        .map(|f| {
            let levels = folder_path::levels(&f.name, &f.delimiter, &layout.prefix);
            // The nearest stored ancestor (a \Noselect level in between is not a folder).
            let parent = (!d.is_empty())
                .then(|| {
                    let mut at = f.name.as_str();
                    while let Some((head, _)) = at.rsplit_once(d) {
                        // INBOX is the prefix's root there, not a parent.
                        if format!("{head}{d}") == layout.prefix {
                            return None;
                        }
                        if layout.get(head).is_some() {
                            return Some(head.to_string());
                        }
                        at = head;
                    }
                    None
                })
                .flatten();
            let skipped = parent
                .as_deref()
                .map(|p| folder_path::levels(p, d, &layout.prefix).len())
                .unwrap_or(0);
            let (unread, total) = counts(&f.name);
            FolderNode {
                account_id,
                path: f.name.clone(),
                name: levels[skipped.min(levels.len().saturating_sub(1))..]
                    .join(folder_path::SHOWN_SEPARATOR),
                full_name: levels.join(folder_path::SHOWN_SEPARATOR),
                parent,
                role: f.role.clone(),
                depth: levels.len(),
                unread,
                total,
                statuses_local: f.uidvalidity != 0 && !f.keywords_ok,
            }
        })
        .collect();
    out.sort_by(|a, b| (a.role != "inbox", &a.full_name).cmp(&(b.role != "inbox", &b.full_name)));
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mail::mutf7;
    use crate::mailstore::FolderState;

    fn folder(name: &str, role: &str) -> FolderState {
        FolderState {
            name: name.into(),
            role: role.into(),
            delimiter: ".".into(),
            ..FolderState::default()
        }
    }

    #[test]
    fn courier_tree_hides_the_prefix_and_nests_hebrew() {
        let inv = format!("INBOX.{} 2024", mutf7::encode("חשבוניות"));
        let arch = format!("{inv}.{}", mutf7::encode("ארכיון"));
        let layout = Layout::of(vec![
            folder("INBOX", "inbox"),
            folder("INBOX.Sent", "sent"),
            folder(&arch, ""),
            folder(&inv, ""),
            folder("INBOX.a.b", ""),
        ]);
        let n = nodes(&layout, 7, |_| (1, 2));
        let by = |p: &str| n.iter().find(|x| x.path == p).unwrap().clone();
        assert_eq!(n[0].path, "INBOX");
        assert_eq!(by(&inv).name, "חשבוניות 2024");
        assert_eq!(by(&inv).parent, None);
        assert_eq!(by(&arch).name, "ארכיון");
        assert_eq!(by(&arch).full_name, "חשבוניות 2024/ארכיון");
        assert_eq!(by(&arch).parent.as_deref(), Some(inv.as_str()));
        assert_eq!(by(&arch).depth, 2);
        // `INBOX.a` is not a folder (\Noselect): `a/b` is shown at the top.
        assert_eq!(
            (by("INBOX.a.b").name.as_str(), by("INBOX.a.b").parent),
            ("a/b", None)
        );
        assert_eq!(by("INBOX.Sent").name, "Sent");
    }
}
