//! Pending replies (spec 000 §2, spec 001): the drafts are the mailbox's Drafts folder. Saving
//! APPENDs a real draft (`\Draft`) linked to its original by In-Reply-To/References; editing
//! replaces it; sending queues it in the outbox and removes it from Drafts once sent. When the
//! mailbox cannot be reached the draft waits in the outbox, listed like the others.

use std::collections::{HashMap, HashSet};

use mail_parser::MimeHeaders;
use serde::Deserialize;
use serde_json::{Value, json};

use super::Outbox;
use super::mailbox::Mailbox as ImapMailbox;
use super::mime::{self, Mailbox};
use super::outbox::{self, Item, Kind, MailboxRef, Stage};
use super::request::{self, clean_html};
use super::{Composed, deliver, iso, now, uploads};
use crate::accounts::{self, AccountRecord};
use crate::emails::routes::blocking;
use crate::error::{AppError, Result};
use crate::mail::parse;
use crate::mailstore::{self as mstore, FolderState, MailRead, MessageMeta};
use crate::messages;
use crate::state::AppState;
use crate::store::Store;
use crate::sync::SyncManager;

/// Local-only drafts (waiting in the outbox) have ids like this.
const OUTBOX_PREFIX: &str = "outbox-";

/// A stored draft of the user: its record, raw bytes, account and place in the mailbox.
pub struct StoredDraft {
    pub meta: MessageMeta,
    pub raw: Vec<u8>,
    pub account: AccountRecord,
    pub place: MailboxRef,
}

fn drafts_folder(mail: &MailRead, account: u64) -> Result<Option<FolderState>> {
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

/// A draft's bytes back into a mail we can edit or send; its attachments become uploads.
pub fn composed_from_raw(
    store: &Store,
    user_id: u64,
    account: &AccountRecord,
    raw: &[u8],
) -> Result<Composed> {
    let msg = parse::parse_guarded(raw)
        .ok_or_else(|| AppError::bad_request(messages::DRAFT_NOT_FOUND))?;
    let list = |a: Option<&mail_parser::Address<'_>>| -> Vec<Mailbox> {
        a.map(|a| {
            a.iter()
                .filter_map(|x| {
                    let email = x.address()?.trim().to_string();
                    mime::valid_address(&email).then(|| Mailbox {
                        name: x.name().unwrap_or_default().trim().to_string(),
                        email,
                    })
                })
                .collect()
        })
        .unwrap_or_default()
    };
    let html = match msg.body_html(0) {
        Some(h) if msg.html_body_count() > 0 => clean_html(&h),
        _ => clean_html(&msg.body_text(0).unwrap_or_default()),
    };
    let bracket = |s: &str| format!("<{}>", parse::clean_id(s));
    let summary = parse::summary(raw);
    let priority = match msg.header_raw("X-Priority").map(str::trim) {
        Some(p) if p.starts_with('1') => "urgent",
        Some(p) if p.starts_with('2') => "high",
        Some(p) if p.starts_with('4') || p.starts_with('5') => "low",
        _ => "medium",
    };
    let mut attachments = Vec::new();
    for part in msg.attachments() {
        let name = part.attachment_name().unwrap_or("attachment").to_string();
        let ctype = part
            .content_type()
            .map(|c| match c.subtype() {
                Some(sub) => format!("{}/{}", c.ctype(), sub),
                None => c.ctype().to_string(),
            })
            .unwrap_or_default();
        attachments.push(uploads::save(store, user_id, &name, &ctype, part.contents())?.id);
    }
    let from = Mailbox {
        name: summary.from_name.clone(),
        email: account.email.clone(),
    };
    Ok(Composed {
        message_id: mime::new_message_id(&account.email),
        from,
        to: list(msg.to()),
        cc: list(msg.cc()),
        bcc: list(msg.bcc()),
        subject: summary.subject.clone(),
        html,
        priority: priority.into(),
        in_reply_to: summary.in_reply_to.as_deref().map(bracket),
        references: summary.references.iter().map(|r| bracket(r)).collect(),
        original_id: None,
        attachments,
    })
}

// ---------------------------------------------------------------------------------------------
// Listing

/// `GET /api/drafts`: the Drafts folders' mail, newest first, with their originals; then the
/// drafts waiting in the outbox.
pub fn list(store: &Store, user_id: u64) -> Result<Vec<Value>> {
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
            let id = row.id;
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
    let mut out: Vec<Value> = drafts
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
                crate::emails::view::whole(o, &raw, false)["body"].clone()
            });
            draft_json(meta, raw, original.zip(body), *item)
        })
        .collect();
    for item in items.iter().filter(|i| i.kind == Kind::Draft) {
        out.push(local_draft_json(item));
    }
    Ok(out)
}

type Place = (u64, String, u32);

/// Drafts whose mail is on its way out (in the undo delay, or already accepted by SMTP): not
/// pending any more; and drafts that are the copy of a scheduled mail, with their item.
fn queued_copies(items: &[Item]) -> (HashSet<Place>, HashMap<Place, &Item>) {
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
fn originals(
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
            let Some(meta) = mail.meta(row.id)? else {
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

fn draft_json(
    meta: &MessageMeta,
    raw: &[u8],
    original: Option<(&MessageMeta, Value)>,
    item: Option<&Item>,
) -> Value {
    let full = parse::full(raw);
    let content = if full.html.is_empty() {
        crate::mail::sanitize::text_to_html(&full.text)
    } else {
        crate::mail::sanitize::sanitize(&full.html, false, &|_| None).html
    };
    let to = full.summary.to.first().cloned().unwrap_or_default();
    let (to_name, auto_reply) = headers_of(raw);
    json!({
        "id": meta.id.to_string(),
        "draftContent": content,
        "to": to,
        "toName": to_name,
        "cc": full.summary.cc,
        "subject": meta.summary.subject,
        "createdAt": iso(meta.date),
        "isAutoReply": auto_reply,
        "savedInGmail": true,
        "scheduledAt": item.map(|i| iso(i.send_at)),
        "outboxId": item.map(|i| i.id.to_string()),
        "messageId": meta.summary.message_id,
        "originalEmail": original.map(|(o, body)| json!({
            "id": o.id.to_string(),
            "messageId": o.summary.message_id,
            "from": o.summary.from,
            "from_name": o.summary.from_name,
            "subject": o.summary.subject,
            "body": body,
            "preview": o.summary.preview,
            "date": iso(o.date),
            "status": o.status,
        })),
    })
}

fn local_draft_json(item: &Item) -> Value {
    let m = &item.mail;
    json!({
        "id": format!("{OUTBOX_PREFIX}{}", item.id),
        "draftContent": m.html,
        "to": m.to.first().map(|t| t.email.clone()).unwrap_or_default(),
        "toName": m.to.first().map(|t| t.name.clone()).unwrap_or_default(),
        "cc": m.cc.iter().map(|c| c.email.clone()).collect::<Vec<_>>(),
        "subject": m.subject,
        "createdAt": iso(item.created_at),
        "isAutoReply": false,
        "savedInGmail": false,
        "outboxId": item.id.to_string(),
        "messageId": m.message_id.trim_matches(['<', '>']),
        "lastError": item.last_error,
    })
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
    (to_name, msg.header_raw("X-Mailclient-Auto-Reply").is_some())
}

// ---------------------------------------------------------------------------------------------
// Changes

/// What `POST /api/drafts/save` answers.
pub struct Saved {
    pub in_mailbox: bool,
    pub id: Option<String>,
}

impl Saved {
    /// The answer: `in_mailbox_message` when the mailbox has it, else that it waits here.
    pub fn json(&self, in_mailbox_message: &str) -> Value {
        json!({
            "success": true,
            "savedInGmail": self.in_mailbox,
            "draftId": self.id,
            "message": if self.in_mailbox { in_mailbox_message } else { messages::DRAFT_SAVED_LOCALLY },
        })
    }
}

/// APPENDs a draft to the mailbox's Drafts and then removes `replaces`. Once the new version
/// is in, a failure to remove the old one is only logged: retrying would file the new one
/// twice.
pub async fn append_draft(
    state: &AppState,
    account: &AccountRecord,
    user_id: u64,
    mail: &Composed,
    replaces: Option<&MailboxRef>,
) -> anyhow::Result<MailboxRef> {
    let mut mb = ImapMailbox::open(
        state.service::<SyncManager>().shared(),
        &state.store,
        account,
    )
    .await?;
    let result = async {
        let folder = mb.folder("drafts").await?;
        let raw = deliver::build(&state.store, user_id, mail, mime::Copy::Kept, now())?;
        let place = mb.append(&folder, true, true, &raw, &mail.message_id).await?;
        if let Some(old) = replaces
            && let Err(e) = mb.expunge(old).await
        {
            tracing::warn!(error = %format!("{e:#}"), "the older version of a draft stays in Drafts");
        }
        Ok::<_, anyhow::Error>(place)
    }
    .await;
    mb.close().await;
    deliver::notify(state, user_id, account.id, "drafts");
    result
}

/// The stored id of a message at `place`, when the sync knows its folder.
pub async fn local_id(
    state: &AppState,
    account_id: u64,
    place: &MailboxRef,
) -> Result<Option<u64>> {
    let place = place.clone();
    blocking(state, move |store| {
        Ok(MailRead::new(store)?.id_of_uid(account_id, &place.folder, place.uid)?)
    })
    .await
}

/// Puts a draft into the mailbox's Drafts (replacing `replaces`), or into the outbox when the
/// mailbox cannot be reached.
pub async fn store_draft(
    state: &AppState,
    account: &AccountRecord,
    user_id: u64,
    mail: Composed,
    replaces: Option<MailboxRef>,
) -> Result<Saved> {
    match append_draft(state, account, user_id, &mail, replaces.as_ref()).await {
        Ok(place) => Ok(Saved {
            in_mailbox: true,
            id: local_id(state, account.id, &place)
                .await?
                .map(|i| i.to_string()),
        }),
        Err(e) => {
            tracing::warn!(error = %format!("{e:#}"), "draft kept in the outbox until the mailbox answers");
            let mut item = Item::new(user_id, account.id, Kind::Draft, mail, now());
            item.attempts = 1;
            item.next_try = Some(now() + outbox::backoff_secs(1));
            item.last_error = Some(super::deliver::Failure::from(e).message);
            item.draft_copy = replaces;
            let item = blocking(state, move |store| outbox::add(store, item)).await?;
            deliver::notify(state, user_id, account.id, "outbox");
            Ok(Saved {
                in_mailbox: false,
                id: Some(format!("{OUTBOX_PREFIX}{}", item.id)),
            })
        }
    }
}

#[derive(Debug, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct Original {
    pub id: Value,
    pub message_id: Option<String>,
    pub from: String,
    #[serde(rename = "from_name")]
    pub from_name: String,
    pub subject: String,
}

#[derive(Debug, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct SaveRequest {
    pub original_email: Original,
    pub draft_content: String,
    pub subject: Option<String>,
    pub to: Option<String>,
}

/// "Re: " unless the subject already has it (spec 000 §5).
pub fn reply_subject(subject: &str) -> String {
    let s = subject.trim();
    if s.get(..3).is_some_and(|p| p.eq_ignore_ascii_case("re:")) {
        s.to_string()
    } else {
        format!("Re: {s}")
    }
}

/// `POST /api/drafts/save`: the reply panel's draft, linked to the mail it answers.
pub async fn save(state: &AppState, user_id: u64, req: SaveRequest) -> Result<Saved> {
    if !request::has_content(&clean_html(&req.draft_content)) {
        return Err(AppError::bad_request(messages::DRAFT_EMPTY));
    }
    let o = &req.original_email;
    let to = req
        .to
        .clone()
        .filter(|t| !t.trim().is_empty())
        .unwrap_or_else(|| {
            if o.from_name.is_empty() {
                o.from.clone()
            } else {
                format!("\"{}\" <{}>", o.from_name.replace('"', ""), o.from)
            }
        });
    let subject = req
        .subject
        .clone()
        .filter(|s| !s.trim().is_empty())
        .unwrap_or_else(|| reply_subject(&o.subject));
    let mail_req = request::MailRequest {
        to: Value::String(to),
        subject,
        body: req.draft_content.clone(),
        original_id: o.id.clone(),
        original_message_id: o.message_id.clone(),
        folder: Some("drafts".into()),
        ..Default::default()
    };
    let original = request::id_of(&mail_req.original_id);
    let account = blocking(state, move |store| {
        super::sending_account(store, user_id, None, original)
    })
    .await?;
    let a = account.clone();
    let mail = blocking(state, move |store| {
        request::compose(
            store,
            user_id,
            super::sender(store, user_id, &a),
            &mail_req,
            true,
        )
    })
    .await?;
    store_draft(state, &account, user_id, mail, None).await
}

#[derive(Debug, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct UpdateRequest {
    pub draft_content: Option<String>,
    pub subject: Option<String>,
    pub to: Option<Value>,
    pub cc: Option<Value>,
}

/// `PUT /api/drafts/{id}`: a new version replaces the old one in the mailbox. A scheduled mail
/// whose copy this is follows the edit.
pub async fn update(
    state: &AppState,
    user_id: u64,
    key: &str,
    req: UpdateRequest,
) -> Result<Saved> {
    if let Some(item_id) = key.strip_prefix(OUTBOX_PREFIX).and_then(|k| k.parse().ok()) {
        let item = blocking(state, move |store| {
            outbox::update(store, user_id, item_id, |item| {
                apply_edit(&mut item.mail, &req)
            })
        })
        .await?;
        state.service::<Outbox>().wake.notify_one();
        return Ok(Saved {
            in_mailbox: false,
            id: Some(format!("{OUTBOX_PREFIX}{}", item.id)),
        });
    }
    let id: u64 = key
        .parse()
        .map_err(|_| AppError::NotFound(messages::DRAFT_NOT_FOUND.into()))?;
    let (draft, mut mail, linked) = blocking(state, move |store| {
        let d = stored(store, user_id, id)?;
        let linked = send_of(store, user_id, d.account.id, &d.place)?;
        if linked.as_ref().is_some_and(|i| i.stage != Stage::Deliver) {
            return Err(AppError::Conflict(messages::ALREADY_SENT.into()));
        }
        let mail = composed_from_raw(store, user_id, &d.account, &d.raw)?;
        Ok((d, mail, linked))
    })
    .await?;
    apply_edit(&mut mail, &req)?;
    let Some(item) = linked else {
        return store_draft(state, &draft.account, user_id, mail, Some(draft.place)).await;
    };
    // The copy of a queued send: the mailbox must take the new version now, so the outbox
    // item and its copy in Drafts never disagree.
    let place = append_draft(state, &draft.account, user_id, &mail, Some(&draft.place))
        .await
        .map_err(|e| {
            tracing::warn!(error = %format!("{e:#}"), "cannot replace a scheduled mail's draft");
            AppError::MailboxUnavailable(messages::MAILBOX_UNAVAILABLE.into())
        })?;
    let new_place = place.clone();
    blocking(state, move |store| {
        outbox::update(store, user_id, item.id, move |i| {
            i.mail = Composed {
                message_id: i.mail.message_id.clone(),
                original_id: i.mail.original_id,
                from: i.mail.from.clone(),
                ..mail
            };
            i.draft_copy = Some(new_place);
            Ok(())
        })
    })
    .await?;
    state.service::<Outbox>().wake.notify_one();
    Ok(Saved {
        in_mailbox: true,
        id: local_id(state, draft.account.id, &place)
            .await?
            .map(|i| i.to_string()),
    })
}

/// The queued send whose copy in Drafts is at `place` (a scheduled mail, a draft being sent).
fn send_of(
    store: &Store,
    user_id: u64,
    account_id: u64,
    place: &MailboxRef,
) -> Result<Option<Item>> {
    Ok(outbox::list(store, user_id)?.into_iter().find(|i| {
        i.kind == Kind::Send
            && i.account_id == account_id
            && i.draft_copy.as_ref().is_some_and(|r| same_place(r, place))
    }))
}

fn same_place(a: &MailboxRef, b: &MailboxRef) -> bool {
    a.folder == b.folder && a.uid == b.uid && a.uidvalidity == b.uidvalidity
}

fn apply_edit(mail: &mut Composed, req: &UpdateRequest) -> Result<()> {
    if let Some(content) = &req.draft_content {
        let html = clean_html(content);
        if !request::has_content(&html) {
            return Err(AppError::bad_request(messages::DRAFT_EMPTY));
        }
        mail.html = html;
    }
    if let Some(subject) = &req.subject {
        mail.subject = request::clean_subject(subject);
    }
    if let Some(to) = &req.to {
        mail.to = request::addresses(to)?;
    }
    if let Some(cc) = &req.cc {
        mail.cc = request::addresses(cc)?;
    }
    Ok(())
}

/// `DELETE /api/drafts/{id}`: gone from the mailbox (and a scheduled send of it cancelled).
pub async fn delete(state: &AppState, user_id: u64, key: &str) -> Result<()> {
    if let Some(item_id) = key.strip_prefix(OUTBOX_PREFIX).and_then(|k| k.parse().ok()) {
        let item = blocking(state, move |store| outbox::remove(store, user_id, item_id)).await?;
        deliver::notify(state, user_id, item.account_id, "outbox");
        deliver::notify(state, user_id, item.account_id, "drafts");
        return Ok(());
    }
    let id: u64 = key
        .parse()
        .map_err(|_| AppError::NotFound(messages::DRAFT_NOT_FOUND.into()))?;
    let draft = blocking(state, move |store| {
        let d = stored(store, user_id, id)?;
        // The copy of a mail on its way out (undo delay, or accepted by SMTP) is not a draft.
        if let Some(item) = send_of(store, user_id, d.account.id, &d.place)?
            && (!item.scheduled || item.stage != Stage::Deliver)
        {
            return Err(AppError::Conflict(messages::ALREADY_SENT.into()));
        }
        Ok(d)
    })
    .await?;
    expunge_all(state, &draft.account, std::slice::from_ref(&draft.place)).await?;
    cancel_sends_of(state, user_id, draft.account.id, &[draft.place]).await?;
    deliver::notify(state, user_id, draft.account.id, "drafts");
    Ok(())
}

async fn expunge_all(
    state: &AppState,
    account: &AccountRecord,
    places: &[MailboxRef],
) -> Result<()> {
    let unavailable = |e: anyhow::Error| {
        tracing::warn!(error = %format!("{e:#}"), "drafts: mailbox unavailable");
        AppError::MailboxUnavailable(messages::MAILBOX_UNAVAILABLE.into())
    };
    let mut mb = ImapMailbox::open(
        state.service::<SyncManager>().shared(),
        &state.store,
        account,
    )
    .await
    .map_err(unavailable)?;
    let mut result = Ok(());
    for p in places {
        if let Err(e) = mb.expunge(p).await {
            result = Err(unavailable(e));
            break;
        }
    }
    mb.close().await;
    result
}

/// Cancels the scheduled sends whose copies are at `places` (the copies were deleted). A send
/// SMTP already accepted is left alone: it went out.
async fn cancel_sends_of(
    state: &AppState,
    user_id: u64,
    account_id: u64,
    places: &[MailboxRef],
) -> Result<()> {
    let places = places.to_vec();
    blocking(state, move |store| {
        for item in outbox::list(store, user_id)? {
            if item.kind == Kind::Send
                && item.account_id == account_id
                && item.stage == Stage::Deliver
                && !item.sending
                && item
                    .draft_copy
                    .as_ref()
                    .is_some_and(|r| places.iter().any(|p| same_place(p, r)))
            {
                outbox::remove(store, user_id, item.id)?;
            }
        }
        Ok(())
    })
    .await
}

/// `DELETE /api/drafts/delete-all` → how many went.
pub async fn delete_all(state: &AppState, user_id: u64) -> Result<usize> {
    let (per_account, local) = blocking(state, move |store| {
        // Exactly what the drafts list shows: never the copy of a mail on its way out.
        let items = outbox::list(store, user_id)?;
        let (going, _) = queued_copies(&items);
        let mail = MailRead::new(store)?;
        let mut per_account = Vec::new();
        for account in accounts::list_for_user(store, user_id)? {
            let Some(folder) = drafts_folder(&mail, account.id)? else {
                continue;
            };
            let mut places = Vec::new();
            for row in mail.rows(account.id, &folder.name)? {
                if let Some(meta) = mail.meta(row?.id)?
                    && !meta.hidden
                    && !going.contains(&(account.id, folder.name.clone(), meta.uid))
                {
                    places.push(MailboxRef {
                        folder: folder.name.clone(),
                        uidvalidity: folder.uidvalidity,
                        uid: meta.uid,
                        message_id: None,
                    });
                }
            }
            per_account.push((account, places));
        }
        let local: Vec<Item> = outbox::list(store, user_id)?
            .into_iter()
            .filter(|i| i.kind == Kind::Draft && !i.sending)
            .collect();
        Ok((per_account, local))
    })
    .await?;
    let mut count = 0;
    for (account, places) in per_account {
        if places.is_empty() {
            continue;
        }
        expunge_all(state, &account, &places).await?;
        cancel_sends_of(state, user_id, account.id, &places).await?;
        count += places.len();
        deliver::notify(state, user_id, account.id, "drafts");
    }
    for item in local {
        blocking(state, move |store| {
            outbox::remove(store, user_id, item.id).map(|_| ())
        })
        .await?;
        count += 1;
    }
    Ok(count)
}

/// `POST /api/drafts/{id}/send`: queued like a new mail (undo delay); removed from Drafts once
/// it is out.
pub async fn send(state: &AppState, user_id: u64, key: &str) -> Result<Item> {
    let undo = state.config.compose.undo_send_secs;
    if let Some(item_id) = key.strip_prefix(OUTBOX_PREFIX).and_then(|k| k.parse().ok()) {
        let item = blocking(state, move |store| {
            outbox::update(store, user_id, item_id, |item| {
                check_sendable(&item.mail)?;
                item.kind = Kind::Send;
                item.send_at = super::undo_deadline(undo);
                item.next_try = None;
                item.last_error = None;
                item.attempts = 0;
                item.retry = true;
                Ok(())
            })
        })
        .await?;
        state.service::<Outbox>().wake.notify_one();
        return Ok(item);
    }
    let id: u64 = key
        .parse()
        .map_err(|_| AppError::NotFound(messages::DRAFT_NOT_FOUND.into()))?;
    let item = blocking(state, move |store| {
        let d = stored(store, user_id, id)?;
        let mut mail = composed_from_raw(store, user_id, &d.account, &d.raw)?;
        mail.from = super::sender(store, user_id, &d.account);
        mail.original_id = original_of(store, user_id, &d.meta);
        check_sendable(&mail)?;
        // "Send now" on a scheduled draft replaces its schedule: never both. A draft already
        // on its way out is not sent again.
        if let Some(queued) = send_of(store, user_id, d.account.id, &d.place)? {
            if !queued.scheduled || queued.stage != Stage::Deliver {
                return Err(AppError::Conflict(messages::ALREADY_SENT.into()));
            }
            outbox::remove(store, user_id, queued.id)?;
        }
        let mut item = Item::new(
            user_id,
            d.account.id,
            Kind::Send,
            mail,
            super::undo_deadline(undo),
        );
        item.draft_copy = Some(d.place);
        outbox::add(store, item)
    })
    .await?;
    state.service::<Outbox>().wake.notify_one();
    deliver::notify(state, user_id, item.account_id, "outbox");
    deliver::notify(state, user_id, item.account_id, "drafts");
    Ok(item)
}

fn check_sendable(mail: &Composed) -> Result<()> {
    if mail.recipients().is_empty()
        || mail.subject.trim().is_empty()
        || !request::has_content(&mail.html)
    {
        return Err(AppError::bad_request(messages::COMPOSE_FIELDS_REQUIRED));
    }
    Ok(())
}

/// The stored mail a draft answers (same thread, Message-ID = its In-Reply-To).
fn original_of(store: &Store, _user_id: u64, draft: &MessageMeta) -> Option<u64> {
    let irt = draft.summary.in_reply_to.clone()?;
    let mail = MailRead::new(store).ok()?;
    let mut wanted = HashMap::new();
    wanted.insert(
        draft.account_id,
        HashSet::from([mstore::thread_hash(&draft.thread_id)]),
    );
    originals(&mail, &wanted)
        .ok()?
        .remove(&(draft.account_id, irt))
        .map(|m| m.id)
}

#[cfg(test)]
mod tests {
    use super::reply_subject;

    #[test]
    fn re_is_added_once() {
        assert_eq!(reply_subject("פגישה"), "Re: פגישה");
        assert_eq!(reply_subject("RE: פגישה"), "RE: פגישה");
        assert_eq!(reply_subject("re:x"), "re:x");
    }
}
