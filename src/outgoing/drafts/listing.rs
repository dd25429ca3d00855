//! Reading drafts: one stored draft of the user's, and the drafts list (`GET /api/drafts`) with
//! the originals the drafts answer and the drafts waiting in the outbox.

use std::collections::{HashMap, HashSet};

use serde::Serialize;
use ts_rs::TS;

use super::common::OUTBOX_PREFIX;
use crate::accounts::{self, AccountRecord};
use crate::error::{AppError, Result};
use crate::mail::parse;
use crate::mailstore::{self as mstore, FolderState, MailRead, MessageMeta};
use crate::messages;
use crate::outgoing::iso;
use crate::outgoing::outbox::{self, Item, Kind, MailboxRef, Stage};
use crate::store::Store;

/// A stored draft of the user: its record, raw bytes, account and place in the mailbox.
pub struct StoredDraft {
    pub meta: MessageMeta,
    pub raw: Vec<u8>,
    pub account: AccountRecord,
    pub place: MailboxRef,
}

pub(super) fn drafts_folder(mail: &MailRead, account: u64) -> Result<Option<FolderState>> {
    Ok(mail
        .folders(account)?
        .into_iter()
        .find(|f| f.role == "drafts"))
}

/// One draft of the user's, which must be in a Drafts folder.
pub fn stored(store: &Store, user_id: u64, id: u64) -> Result<StoredDraft> {
    let (meta, raw) = crate::emails::get(store, user_id, id)
        .map_err(|_| AppError::NotFound(messages::DRAFT_NOT_FOUND.into()))?;
    let folder = drafts_folder(&MailRead::new(store)?, meta.account_id)?
        .filter(|f| f.name == meta.folder)
        .ok_or_else(|| AppError::NotFound(messages::DRAFT_NOT_FOUND.into()))?;
    let account = accounts::get(store, meta.account_id)?
        .ok_or_else(|| AppError::NotFound(messages::DRAFT_NOT_FOUND.into()))?;
    if account.is_local() {
        return Err(AppError::BadRequest(
            messages::LOCAL_ACCOUNT_NO_SERVER.into(),
        ));
    }
    let place = MailboxRef {
        folder: folder.name,
        uidvalidity: folder.uidvalidity,
        uid: meta.uid,
        message_id: meta.summary.message_id.as_ref().map(|m| format!("<{m}>")),
    };
    Ok(StoredDraft {
        meta,
        raw,
        account,
        place,
    })
}

/// `GET /api/drafts`: the Drafts folders' mail, newest first, with their originals; then the
/// drafts waiting in the outbox.
pub fn list(store: &Store, user_id: u64) -> Result<Vec<Draft>> {
    let items = outbox::list(store, user_id)?;
    let (going, scheduled) = queued_copies(&items);
    let mail = MailRead::new(store)?;
    let mut drafts = Vec::new();
    let mut wanted: HashMap<u64, HashSet<u64>> = HashMap::new();
    for account in accounts::list_for_user(store, user_id)? {
        let Some(folder) = drafts_folder(&mail, account.id)? else {
            continue;
        };
        for row in mail.rows(account.id, &folder.name)?.rev() {
            let row = row?;
            if row.view().bits() & mstore::flags::HIDDEN != 0 {
                continue;
            }
            let id = row.id();
            let Some(meta) = mail.meta(id)? else {
                continue;
            };
            let key = (account.id, folder.name.clone(), meta.uid);
            if going.contains(&key) {
                continue;
            }
            let raw = mail.raw(id)?.unwrap_or_default();
            if meta.summary.in_reply_to.is_some() {
                wanted
                    .entry(account.id)
                    .or_default()
                    .insert(mstore::thread_hash(&meta.thread_id));
            }
            let item = scheduled.get(&key).copied();
            drafts.push((meta, raw, item));
        }
    }
    let originals = originals(&mail, &wanted)?;
    let mut out: Vec<Draft> = drafts
        .iter()
        .map(|(meta, raw, item)| {
            let original = meta
                .summary
                .in_reply_to
                .as_ref()
                .and_then(|irt| originals.get(&(meta.account_id, irt.clone())));
            // The original's body as the reading pane shows it: sanitized, remote content
            // blocked (the page renders it in the sandboxed mail frame).
            let body = original.map(|o| {
                let raw = mail.raw(o.id).ok().flatten().unwrap_or_default();
                crate::emails::view::whole(o, &raw, false).body
            });
            stored_draft(meta, raw, original.zip(body), *item)
        })
        .collect();
    for item in items.iter().filter(|i| i.kind == Kind::Draft) {
        out.push(local_draft(item));
    }
    Ok(out)
}

type Place = (u64, String, u32);

/// Drafts whose mail is on its way out (in the undo delay, or already accepted by SMTP): not
/// pending any more; and drafts that are the copy of a scheduled mail, with their item.
pub(super) fn queued_copies(items: &[Item]) -> (HashSet<Place>, HashMap<Place, &Item>) {
    let mut going = HashSet::new();
    let mut scheduled = HashMap::new();
    for item in items {
        if let (Kind::Send, Some(r)) = (item.kind, &item.draft_copy) {
            let key = (item.account_id, r.folder.clone(), r.uid);
            if item.scheduled && item.stage == Stage::Deliver {
                scheduled.insert(key, item);
            } else {
                going.insert(key);
            }
        }
    }
    (going, scheduled)
}

/// The originals drafts answer: one pass over each account's index, decoding only the mail of
/// the drafts' threads.
pub(super) fn originals(
    mail: &MailRead,
    wanted: &HashMap<u64, HashSet<u64>>,
) -> Result<HashMap<(u64, String), MessageMeta>> {
    let mut out = HashMap::new();
    for (&account, threads) in wanted {
        for row in mail.account_rows(account)? {
            let row = row?;
            if !threads.contains(&row.view().thread()) {
                continue;
            }
            let Some(meta) = mail.meta(row.id())? else {
                continue;
            };
            if meta.draft || meta.hidden {
                continue;
            }
            if let Some(mid) = meta.summary.message_id.clone() {
                out.insert((account, mid), meta);
            }
        }
    }
    Ok(out)
}

/// A draft as the drafts page shows it. Drafts in the mailbox and drafts waiting in the outbox
/// differ in which keys they carry: a key one of them never has is left out (`Option<Option>`
/// fields: absent, null, or a value).
#[derive(Debug, Clone, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct Draft {
    /// The stored mail's id, or `outbox-<item id>` for a draft waiting in the outbox.
    pub id: String,
    /// HTML.
    pub draft_content: String,
    pub to: String,
    pub to_name: String,
    pub cc: Vec<String>,
    pub subject: String,
    pub created_at: String,
    pub is_auto_reply: bool,
    /// False while the draft waits in the outbox for the mailbox.
    pub saved_in_gmail: bool,
    /// A draft in the mailbox: RFC 3339 when it is the copy of a scheduled mail, else null.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub scheduled_at: Option<Option<String>>,
    pub outbox_id: Option<String>,
    pub message_id: Option<String>,
    /// A draft in the mailbox: the mail it answers, null when not found.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub original_email: Option<Option<DraftOriginal>>,
    /// A draft waiting in the outbox: why the mailbox did not take it.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub last_error: Option<Option<String>>,
}

/// The mail a draft answers.
#[derive(Debug, Clone, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct DraftOriginal {
    pub id: String,
    pub message_id: Option<String>,
    pub from: String,
    #[serde(rename = "from_name")]
    pub from_name: String,
    pub subject: String,
    /// Sanitized HTML, remote content blocked.
    pub body: String,
    pub preview: String,
    pub date: String,
    pub status: Option<String>,
}

fn stored_draft(
    meta: &MessageMeta,
    raw: &[u8],
    original: Option<(&MessageMeta, String)>,
    item: Option<&Item>,
) -> Draft {
    let full = parse::full(raw);
    let content = if full.html.is_empty() {
        crate::mail::sanitize::text_to_html(&full.text)
    } else {
        crate::mail::sanitize::sanitize(&full.html, false, &|_| None).html
    };
    let to = full.summary.to.first().cloned().unwrap_or_default();
    let (to_name, auto_reply) = headers_of(raw);
    Draft {
        id: meta.id.to_string(),
        draft_content: content,
        to,
        to_name,
        cc: full.summary.cc,
        subject: meta.summary.subject.clone(),
        created_at: iso(meta.date),
        is_auto_reply: auto_reply,
        saved_in_gmail: true,
        scheduled_at: Some(item.map(|i| iso(i.send_at))),
        outbox_id: item.map(|i| i.id.to_string()),
        message_id: meta.summary.message_id.clone(),
        original_email: Some(original.map(|(o, body)| DraftOriginal {
            id: o.id.to_string(),
            message_id: o.summary.message_id.clone(),
            from: o.summary.from.clone(),
            from_name: o.summary.from_name.clone(),
            subject: o.summary.subject.clone(),
            body,
            preview: o.summary.preview.clone(),
            date: iso(o.date),
            status: o.status.clone(),
        })),
        last_error: None,
    }
}

fn local_draft(item: &Item) -> Draft {
    let m = &item.mail;
    Draft {
        id: format!("{OUTBOX_PREFIX}{}", item.id),
        draft_content: m.html.clone(),
        to: m.to.first().map(|t| t.email.clone()).unwrap_or_default(),
        to_name: m.to.first().map(|t| t.name.clone()).unwrap_or_default(),
        cc: m.cc.iter().map(|c| c.email.clone()).collect(),
        subject: m.subject.clone(),
        created_at: iso(item.created_at),
        is_auto_reply: false,
        saved_in_gmail: false,
        scheduled_at: None,
        outbox_id: Some(item.id.to_string()),
        message_id: Some(m.message_id.trim_matches(['<', '>']).to_string()),
        original_email: None,
        last_error: Some(item.last_error.clone()),
    }
}

/// What the stored summary does not keep: the first recipient's name, and whether the draft
/// was written by the auto-reply (its header), from one parse.
fn headers_of(raw: &[u8]) -> (String, bool) {
    let Some(msg) = parse::parse_guarded(raw) else {
        return (String::new(), false);
    };
    let to_name = msg
        .to()
        .and_then(|a| a.first())
        .and_then(|a| a.name().map(str::to_string))
        .unwrap_or_default();
    (
        to_name,
        msg.header_raw(crate::outgoing::AUTO_REPLY_HEADER).is_some(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::outgoing::Composed;

    #[test]
    fn a_draft_in_the_outbox_has_no_mailbox_keys() {
        let item = Item::new(1, 1, Kind::Draft, Composed::default(), 0);
        let v = serde_json::to_value(local_draft(&item)).unwrap();
        for gone in ["scheduledAt", "originalEmail"] {
            assert!(v.get(gone).is_none(), "{v}");
        }
        assert!(v["lastError"].is_null(), "{v}");
        assert_eq!(v["outboxId"], "0");
    }
}
