//! A draft's raw bytes turned back into an editable mail.

use mail_parser::MimeHeaders;

use crate::accounts::AccountRecord;
use crate::error::{AppError, Result};
use crate::mail::parse;
use crate::messages;
use crate::outgoing::mime::{self, Mailbox};
use crate::outgoing::request::clean_html;
use crate::outgoing::{Composed, uploads};
use crate::store::Store;

/// A draft's bytes back into a mail we can edit or send; its attachments become uploads.
pub fn composed_from_raw(
    store: &Store,
    user_id: u64,
    account: &AccountRecord,
    raw: &[u8],
    limits: &uploads::Limits,
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
        attachments.push(uploads::save(store, user_id, &name, &ctype, part.contents(), limits)?.id);
    }
    let attachments = uploads::checked(store, user_id, &attachments, limits)?;
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
        // From a stored draft, which anyone with access to the mailbox may have written:
        // filtered like any id taken into a header.
        in_reply_to: summary.in_reply_to.as_deref().and_then(mime::msg_id),
        references: summary
            .references
            .iter()
            .filter_map(|r| mime::msg_id(r))
            .collect(),
        original_id: None,
        attachments,
        auto_reply: msg.header_raw(crate::outgoing::AUTO_REPLY_HEADER).is_some(),
        calendar: None,
        auto_forwarded: false,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_draft_s_in_reply_to_with_a_carriage_return_is_dropped() {
        let (_dir, store) = crate::schema::temp_store();
        let account = AccountRecord::local(1, 1, "dana@example.test");
        let raw = b"From: dana@example.test\r\nTo: avi@example.test\r\nSubject: re\r\n\
In-Reply-To: <parent\rBcc: evil@example.test>\r\n\
References: <root@x> <r\rX-Injected: 1>\r\nMessage-ID: <d@x>\r\n\r\nbody\r\n";
        let limits = uploads::Limits::from(&crate::config::ComposeConfig::default());
        let c = composed_from_raw(&store, 1, &account, raw, &limits).unwrap();
        let ids: Vec<&String> = c.in_reply_to.iter().chain(&c.references).collect();
        assert!(
            ids.iter().all(|id| mime::msg_id(id).as_ref() == Some(*id)),
            "{ids:?}"
        );
        assert!(ids.iter().all(|id| !id.contains('\r')), "{ids:?}");
        assert_eq!(c.references.first().map(String::as_str), Some("<root@x>"));
    }
}
