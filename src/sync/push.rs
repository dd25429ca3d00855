//! The pending push: local changes (flags, triage keywords, labels, moves) written to the
//! server in UID sets, one command per shape of change and folder, then forgotten.

use std::time::Duration;

use super::ctx::Ctx;
use crate::mail::imap;
use crate::mail::imap_ops::{deadline, expunge_uids, refused, store_flags, uid_list};
use crate::mailstore::{self as mstore, keywords};

/// What the server offers for moving mail.
pub struct MoveCaps {
    pub move_command: bool,
    pub uidplus: bool,
    pub create_special_use: bool,
}

/// What a push did to the server.
pub(super) struct Pushed {
    /// A folder was created (for a move into a role the mailbox had no folder for).
    pub created: bool,
    /// Some change was written: the server's folders moved on since a LIST before it.
    pub any: bool,
}

/// Writes local changes (flags, triage keywords, moves) to the server, then forgets them.
pub(super) async fn push_pending(
    ctx: &Ctx,
    session: &mut imap::ImapSession,
    caps: &MoveCaps,
) -> anyhow::Result<Pushed> {
    let account = ctx.account_id;
    let (ops, roles, all_mail) = ctx
        .read(move |r| {
            let all_mail = r.folders(account)?.into_iter().find(|f| f.all_mail);
            Ok((r.pending(account)?, r.roles(account)?, all_mail))
        })
        .await?;
    let all_mail = all_mail.map(|f| f.name);
    let limit = ctx.limit();
    let any = !ops.is_empty();
    let mut created = false;
    let mut roles = roles;
    // Identical changes in one folder go out together, as UID sets: a bulk action on a
    // thousand mails is a few commands, not a thousand SELECT + STORE round trips.
    let mut groups: std::collections::BTreeMap<String, Vec<(u64, mstore::PendingFlags)>> =
        Default::default();
    for (id, op) in ops {
        let mut shape = op.clone();
        shape.uid = 0;
        groups
            .entry(serde_json::to_string(&shape)?)
            .or_default()
            .push((id, op));
    }
    for (_, group) in groups {
        let op = &group[0].1;
        let mut target = op
            .move_to
            .as_ref()
            .and_then(|to| match to.strip_prefix("folder:") {
                Some(name) => Some(name.to_string()),
                None => roles.get(to).cloned(),
            });
        let role = op.move_to.as_deref().unwrap_or_default();
        if target.is_none()
            && op.create_target
            && let Some(name) = mstore::created_name(role)
        {
            match create_folder(session, caps, name, role == "archive", limit).await {
                Ok(()) => {
                    roles.insert(role.into(), name.to_string());
                    target = Some(name.to_string());
                    created = true;
                }
                Err(e) if refused(&e) => {
                    tracing::warn!(account, folder = name, error = %format!("{e:#}"), "cannot create the folder");
                }
                Err(e) => return Err(e),
            }
        }
        for chunk in group.chunks(UID_SET_MAX) {
            let uids: Vec<u32> = chunk.iter().map(|(_, op)| op.uid).collect();
            // Gmail's archive: All Mail holds the mail already; it only leaves the folder.
            let target = match (&target, &all_mail) {
                (Some(t), Some(all)) if t == all => Target::OnlyLeave(all),
                // Out of Gmail's archive (back to the inbox, into a label): All Mail keeps it.
                (Some(t), Some(all)) if *all == op.folder && !matches!(role, "trash" | "junk") => {
                    Target::CopyOnly(t)
                }
                (Some(t), _) => Target::Folder(t),
                (None, _) => Target::Stay,
            };
            let moved = match push_group(session, op, &uids, target, caps, limit).await {
                Ok(moved) => moved,
                // The server refused (folder gone, read-only): these changes cannot be made;
                // drop them rather than fail every sync after. Connection errors still fail
                // the session.
                Err(e) if refused(&e) => {
                    tracing::warn!(account, error = %format!("{e:#}"), "change refused by the server; dropped");
                    false
                }
                Err(e) => return Err(e),
            };
            if moved && all_mail.is_some() {
                let ids: Vec<u64> = chunk.iter().map(|(id, _)| *id).collect();
                let gone_everywhere = matches!(role, "trash" | "junk");
                let all = all_mail.clone().unwrap_or_default();
                gmail_after_move(ctx, session, caps, ids, gone_everywhere, &all, &op.folder)
                    .await?;
            }
            // Mail hidden while its move was pending comes back when the move did not
            // happen (refused, no such folder, renumbered folder): never lost from view.
            if op.move_to.is_some() && !moved {
                let ids: Vec<u64> = chunk.iter().map(|(id, _)| *id).collect();
                ctx.write(move |w| {
                    for id in ids {
                        w.unhide(id)?;
                    }
                    Ok(())
                })
                .await?;
            }
            // Forget a change only if it is still the one pushed: a newer one made meanwhile
            // must go out on the next pass.
            let done: Vec<(u64, mstore::PendingFlags)> = chunk.to_vec();
            ctx.write(move |w| w.forget_pushed(account, &done)).await?;
        }
    }
    Ok(Pushed { created, any })
}

/// UIDs per STORE or MOVE command (keeps command lines well under server limits).
const UID_SET_MAX: usize = 500;

/// Creates a folder a move needs ("Archive" marked \Archive where the server lets a client say
/// so; "Snoozed" unmarked: no server knows a \Snoozed use it could be given at CREATE).
async fn create_folder(
    session: &mut imap::ImapSession,
    caps: &MoveCaps,
    name: &str,
    archive: bool,
    limit: Duration,
) -> anyhow::Result<()> {
    let mailbox = crate::mail::imap_quoted::quoted(name)?;
    let command = if archive && caps.create_special_use {
        format!("CREATE {mailbox} (USE (\\Archive))")
    } else {
        format!("CREATE {mailbox}")
    };
    deadline(limit, "CREATE", session.run_command_and_check_ok(&command)).await?;
    let _ = deadline(limit, "SUBSCRIBE", session.subscribe(name)).await;
    Ok(())
}

/// Where a group's mail goes.
#[derive(Clone, Copy)]
enum Target<'a> {
    Stay,
    /// MOVE (or COPY and expunge) into this folder.
    Folder(&'a str),
    /// Out of its folder only: Gmail's archive, whose All Mail holds every mail already (a
    /// MOVE would make a second copy there on a server shaped like Gmail). Gmail itself takes
    /// an expunge from INBOX as removing the Inbox label. Holds All Mail's name.
    OnlyLeave(&'a str),
    /// COPY into this folder, the mail staying where it is: out of Gmail's All Mail, which
    /// holds every mail (Gmail adds the label; the copy synced becomes the mail's home).
    CopyOnly(&'a str),
}

/// Applies one shape of change to messages of one folder. Returns whether they were moved.
async fn push_group(
    session: &mut imap::ImapSession,
    op: &mstore::PendingFlags,
    uids: &[u32],
    target: Target<'_>,
    caps: &MoveCaps,
    limit: Duration,
) -> anyhow::Result<bool> {
    let mailbox = deadline(limit, "SELECT", session.select(&op.folder)).await?;
    if mailbox.uid_validity != Some(op.uidvalidity) {
        return Ok(false);
    }
    let set = uid_list(uids);
    for (flag, value) in [("\\Seen", op.seen), ("\\Flagged", op.flagged)] {
        let Some(value) = value else { continue };
        let sign = if value { "+" } else { "-" };
        store_flags(
            session,
            &set,
            &format!("{sign}FLAGS.SILENT ({flag})"),
            limit,
        )
        .await?;
    }
    if let Some(wanted) = &op.keywords {
        let remove: Vec<&str> = keywords::managed()
            .filter(|k| !wanted.iter().any(|w| w.eq_ignore_ascii_case(k)))
            .collect();
        let mut commands = vec![format!("-FLAGS.SILENT ({})", remove.join(" "))];
        if !wanted.is_empty() {
            commands.push(format!("+FLAGS.SILENT ({})", wanted.join(" ")));
        }
        for command in commands {
            match store_flags(session, &set, &command, limit).await {
                Ok(()) => {}
                // A server without keywords keeps the status local only; the move still goes.
                Err(e) if refused(&e) => {
                    tracing::debug!(error = %format!("{e:#}"), "keywords refused");
                }
                Err(e) => return Err(e),
            }
        }
    }
    for (sign, list) in [("-", &op.remove_keywords), ("+", &op.add_keywords)] {
        if list.is_empty() {
            continue;
        }
        let command = format!("{sign}FLAGS.SILENT ({})", list.join(" "));
        match store_flags(session, &set, &command, limit).await {
            Ok(()) => {}
            Err(e) if refused(&e) => {
                tracing::debug!(error = %format!("{e:#}"), "labels refused");
            }
            Err(e) => return Err(e),
        }
    }
    if let Target::OnlyLeave(all_mail) = target
        && all_mail != op.folder
    {
        expunge_uids(session, uids, caps.uidplus, limit).await?;
        return Ok(true);
    }
    if let Target::CopyOnly(target) = target {
        deadline(limit, "COPY", session.uid_copy(&set, target)).await?;
        return Ok(true);
    }
    if let Target::Folder(target) = target
        && target != op.folder
    {
        if caps.move_command {
            deadline(limit, "MOVE", session.uid_mv(&set, target)).await?;
        } else {
            deadline(limit, "COPY", session.uid_copy(&set, target)).await?;
            expunge_uids(session, uids, caps.uidplus, limit).await?;
        }
        return Ok(true);
    }
    Ok(false)
}

/// After a move in a Gmail-shaped mailbox. Into Trash or Spam (`gone_everywhere`): Gmail takes
/// the mail out of All Mail and every label; a server shaped like Gmail keeps those copies, so
/// they are expunged too, and the stored mail is forgotten (its copy in Trash or Spam is synced
/// as mail of its own). Out of INBOX into All Mail (the archive): the place it left is
/// forgotten at once, so the mail shows in All Mail and its labels without waiting for a sync.
async fn gmail_after_move(
    ctx: &Ctx,
    session: &mut imap::ImapSession,
    caps: &MoveCaps,
    ids: Vec<u64>,
    gone_everywhere: bool,
    all_mail: &str,
    from: &str,
) -> anyhow::Result<()> {
    let account = ctx.account_id;
    let limit = ctx.limit();
    let wanted = ids.clone();
    let metas = ctx.read(move |r| r.metas(wanted)).await?;
    if gone_everywhere {
        let mut by_folder: std::collections::BTreeMap<String, Vec<u32>> = Default::default();
        for m in &metas {
            for p in &m.places {
                by_folder.entry(p.folder.clone()).or_default().push(p.uid);
            }
        }
        for (folder, uids) in by_folder {
            deadline(limit, "SELECT", session.select(&folder)).await?;
            for part in uids.chunks(UID_SET_MAX) {
                match expunge_uids(session, part, caps.uidplus, limit).await {
                    Ok(()) => {}
                    Err(e) if refused(&e) => {
                        tracing::warn!(account, folder, error = %format!("{e:#}"), "a copy stayed");
                    }
                    Err(e) => return Err(e),
                }
            }
        }
        return ctx
            .write(move |w| {
                for id in ids {
                    w.delete_message(id)?;
                }
                Ok(())
            })
            .await;
    }
    let from = from.to_string();
    let homes: Vec<(u64, u32)> = metas
        .iter()
        .filter(|m| m.folder == from && m.places.iter().any(|p| p.folder == all_mail))
        .map(|m| (m.id, m.uid))
        .collect();
    ctx.write(move |w| {
        for (id, uid) in homes {
            w.remove_place(account, &from, uid, id)?;
        }
        Ok(())
    })
    .await
}
