//! LIST and roles: which folders the account has, and which one holds the inbox, sent mail,
//! drafts, junk, trash and the archive (SPECIAL-USE, or the common names).

use async_imap::types::NameAttribute;
use std::collections::{HashMap, HashSet};

use super::ctx::Ctx;
use super::gone;
use super::list_status::{self, ListedStatus};
use crate::mail::folder_path;
use crate::mail::imap;
use crate::mail::imap_ops::{deadline, refused};
use crate::mail::imap_quoted::unescaped;
use crate::mailstore::{FolderState, role_by_name};
use crate::notices::{FoldersChanged, Notice};

/// LIST: every selectable folder (but a `\Flagged` view) with its role from SPECIAL-USE, or
/// from its common name when the server has no SPECIAL-USE. INBOX first so it fills first. A
/// folder the store holds that LIST no longer shows was deleted or renamed on the server
/// (`gone`); when the folders changed shape the user's sessions hear `folders_changed`.
///
/// With `pattern` (`list_status::pattern`) the LIST also answers each folder's STATUS, returned
/// beside the names; a server that refuses it is asked the plain LIST instead. A change to the
/// selected folder announced during the LIST sets `selected_changed` (`list_status::list`).
pub(super) async fn list_folders(
    ctx: &Ctx,
    session: &mut imap::ImapSession,
    pattern: Option<&str>,
    selected_changed: &mut bool,
) -> anyhow::Result<(Vec<String>, HashMap<String, ListedStatus>)> {
    let limit = ctx.limit();
    let account = ctx.account_id;
    // What the store held before LIST: a folder made, renamed or deleted here while LIST runs
    // is neither forgotten nor brought back by this pass.
    let before: Vec<FolderState> = ctx.read(move |r| r.folders(account)).await?;
    let mut statuses = HashMap::new();
    let asked = list_status::list(session, pattern, &mut statuses, selected_changed);
    let names = match deadline(limit, "LIST", asked).await {
        Err(e) if pattern.is_some() && refused(&e) => {
            statuses.clear();
            let plain = list_status::list(session, None, &mut statuses, selected_changed);
            deadline(limit, "LIST", plain).await?
        }
        asked => asked?,
    };
    // (name, role from SPECIAL-USE, role guessed from the name)
    let mut found = Vec::new();
    // Gmail's `\All` folder, when the mailbox has one: the account is then Gmail-shaped.
    let mut all_mail: Option<String> = None;
    let mut delimiters = HashMap::new();
    for n in &names {
        // The name as the server means it: imap-proto keeps a quoted name's escapes.
        let name = unescaped(n.name()).into_owned();
        // A `\Flagged` folder (Gmail's `[Gmail]/Starred`, Dovecot's virtual "Flagged") is a
        // view of the flagged mail of the other folders (RFC 6154). The Starred view shows the
        // same from the flags; syncing it would only fetch every starred mail again and list it
        // in the sidebar twice.
        if n.attributes()
            .iter()
            .any(|a| matches!(a, NameAttribute::NoSelect | NameAttribute::Flagged))
        {
            continue;
        }
        let special = n.attributes().iter().find_map(|a| match a {
            NameAttribute::Sent => Some("sent"),
            NameAttribute::Drafts => Some("drafts"),
            NameAttribute::Junk => Some("junk"),
            NameAttribute::Trash => Some("trash"),
            NameAttribute::Archive => Some("archive"),
            // Gmail's All Mail: its archive (what is not in INBOX), see `gmail_shape`.
            NameAttribute::All => Some("archive"),
            // Fastmail's (and the IANA registry's) snoozed-mail folder.
            NameAttribute::Extension(e) if e.eq_ignore_ascii_case("\\Snoozed") => Some("snoozed"),
            _ => None,
        });
        if n.attributes()
            .iter()
            .any(|a| matches!(a, NameAttribute::All))
        {
            all_mail = Some(name.clone());
        }
        found.push((name.clone(), special, role_by_name(&name)));
        let delimiter = unescaped(n.delimiter().unwrap_or_default()).into_owned();
        delimiters.insert(name, delimiter);
    }
    let folders = assign_roles(found);
    let known: HashSet<String> = before.iter().map(|f| f.name.clone()).collect();
    // A listing without INBOX is not the mailbox's (a server answering in part under load):
    // nothing is forgotten on its word.
    let whole = delimiters.keys().any(|n| n.eq_ignore_ascii_case("INBOX"));
    let gone: Vec<FolderState> = before
        .into_iter()
        .filter(|f| whole && !delimiters.contains_key(&f.name))
        .collect();
    let new: Vec<String> = folders
        .iter()
        .map(|(n, _)| n.clone())
        .filter(|n| !known.contains(n))
        .collect();
    let renames = gone::renames(ctx, session, &gone, &new).await?;
    // Names shown without the server's `INBOX.` prefix and delimiter (rules, search rows).
    let prefix =
        folder_path::personal_prefix(delimiters.iter().map(|(n, d)| (n.as_str(), d.as_str())));
    let list = folders.clone();
    let who = (account, ctx.user_id);
    let followers = ctx.shared.followers.get().cloned();
    let changed = ctx
        .write(move |w| {
            let mut changed = gone::follow(&w, who, &gone, &renames, followers.as_ref())?;
            for (name, role) in &list {
                let stored = w.folder(account, name)?;
                if stored.is_none() && known.contains(name) {
                    continue;
                }
                let mut state = stored.clone().unwrap_or_else(|| FolderState {
                    name: name.clone(),
                    ..FolderState::default()
                });
                state.delimiter = delimiters.get(name).cloned().unwrap_or_default();
                state.display_name = folder_path::plain(name, &state.delimiter, &prefix);
                state.role = role.clone();
                (state.all_mail, state.labels) = gmail_shape(all_mail.as_deref(), name, role);
                changed |= stored.is_none_or(|s| {
                    (&s.role, &s.display_name, s.labels)
                        != (&state.role, &state.display_name, state.labels)
                });
                w.save_folder(account, &state)?;
            }
            Ok(changed)
        })
        .await?;
    if changed {
        ctx.shared.notices.send(
            ctx.user_id,
            Notice::FoldersChanged(FoldersChanged {
                account_id: account,
            }),
        );
    }
    Ok((folders.into_iter().map(|(n, _)| n).collect(), statuses))
}

/// A folder's part in Gmail's model (`all_mail`: the mailbox's `\All` folder, if any):
/// (it is All Mail, it is a label folder). In a Gmail-shaped mailbox every folder without a
/// role (the user's labels, `[Gmail]/Important`) is a label folder: its mail is stored once,
/// under INBOX, Sent, Drafts, Spam, Trash or All Mail.
fn gmail_shape(all_mail: Option<&str>, name: &str, role: &str) -> (bool, bool) {
    match all_mail {
        Some(all) => (name == all, name != all && role.is_empty()),
        None => (false, false),
    }
}

/// One folder per role, so moves never go to a user's `Clients/Junk`: a SPECIAL-USE folder
/// wins; a name guess counts only for a role no folder is marked with, and only at the top
/// level (or directly under INBOX). INBOX first so it fills first.
pub fn assign_roles(
    found: Vec<(String, Option<&'static str>, &'static str)>,
) -> Vec<(String, String)> {
    let mut sorted = found;
    sorted.sort_by(|a, b| a.0.cmp(&b.0));
    let marked: std::collections::HashSet<&str> = sorted.iter().filter_map(|f| f.1).collect();
    let mut taken = std::collections::HashSet::new();
    let mut out = Vec::new();
    for (name, special, guessed) in &sorted {
        let top_level = {
            let rest = name
                .strip_prefix("INBOX.")
                .or_else(|| name.strip_prefix("INBOX/"))
                .unwrap_or(name);
            !rest.contains(['/', '.'])
        };
        let role = match special {
            Some(r) => Some(*r),
            None if *guessed == "inbox" => Some("inbox"),
            None if !guessed.is_empty() && top_level && !marked.contains(guessed) => Some(*guessed),
            None => None,
        };
        let role = role.filter(|r| taken.insert(*r)).unwrap_or("");
        out.push((name.clone(), role.to_string()));
    }
    // The folders with a role before the user's own: in a Gmail-shaped mailbox a mail is
    // stored under the first folder it is synced in, which must not be a label.
    out.sort_by_key(|(name, role)| (role != "inbox", role.is_empty(), name.clone()));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn roles(found: &[(&str, Option<&'static str>)]) -> Vec<(String, String)> {
        let mut out = assign_roles(
            found
                .iter()
                .map(|(n, s)| (n.to_string(), *s, role_by_name(n)))
                .collect(),
        );
        out.sort();
        out
    }

    fn pair(n: &str, r: &str) -> (String, String) {
        (n.to_string(), r.to_string())
    }

    #[test]
    fn special_use_wins_and_nested_names_never_take_a_role() {
        assert_eq!(
            roles(&[
                ("INBOX", None),
                ("Clients/Junk", None),
                ("Junk", Some("junk")),
                ("Old/Trash", None),
                ("Deleted Items", None),
                ("Trash", None),
            ]),
            [
                pair("Clients/Junk", ""),
                pair("Deleted Items", "trash"),
                pair("INBOX", "inbox"),
                pair("Junk", "junk"),
                pair("Old/Trash", ""),
                pair("Trash", ""),
            ]
        );
        // A name guess for a role some folder is marked with is ignored; INBOX.-style servers
        // keep their folders under INBOX.
        assert_eq!(
            roles(&[
                ("INBOX", None),
                ("INBOX.Spam", None),
                ("Bulk", Some("junk"))
            ]),
            [
                pair("Bulk", "junk"),
                pair("INBOX", "inbox"),
                pair("INBOX.Spam", "")
            ]
        );
        assert_eq!(
            roles(&[("INBOX", None), ("INBOX.Spam", None)]),
            [pair("INBOX", "inbox"), pair("INBOX.Spam", "junk")]
        );
    }
}
