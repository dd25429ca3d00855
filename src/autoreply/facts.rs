//! What a stored mail's headers say for the auto-reply: who sent it and to whom, whether it is
//! list mail, and whether a robot sent it (RFC 3834 §2: never answer Auto-Submitted mail,
//! bulk or list mail, delivery reports, or a null Return-Path; and the usual robot addresses).

use mail_parser::{Message, MimeHeaders};

use super::rules::Facts;
use crate::mailstore::MessageMeta;

/// Local parts that are never a person.
const ROBOTS: &[&str] = &[
    "noreply",
    "no-reply",
    "no_reply",
    "donotreply",
    "do-not-reply",
    "do_not_reply",
    "mailer-daemon",
    "postmaster",
    "bounce",
    "bounces",
    "notifications",
    "notification",
    "daemon",
];

fn header<'a>(msg: &'a Message<'a>, name: &'a str) -> Option<&'a str> {
    msg.header_raw(name).map(str::trim)
}

/// Whether an address belongs to a robot: its local part is one, or starts like one
/// (`noreply+abc@`, `bounces-123@`).
pub fn robot(address: &str) -> bool {
    let local = address.split('@').next().unwrap_or("").to_lowercase();
    ROBOTS.iter().any(|r| {
        local == *r
            || local
                .strip_prefix(r)
                .is_some_and(|rest| rest.starts_with(['+', '-', '.', '_']))
    })
}

fn automated(msg: &Message<'_>, from: &str) -> bool {
    let auto_submitted = header(msg, "Auto-Submitted")
        .map(|v| v.split(';').next().unwrap_or("").trim().to_lowercase())
        .is_some_and(|v| !v.is_empty() && v != "no");
    let precedence = header(msg, "Precedence")
        .map(str::to_lowercase)
        .is_some_and(|p| p == "bulk" || p == "junk" || p == "auto_reply");
    let null_sender = header(msg, "Return-Path").is_some_and(|r| r.trim() == "<>");
    let report = msg.content_type().is_some_and(|c| {
        c.ctype().eq_ignore_ascii_case("multipart")
            && c.subtype()
                .is_some_and(|s| s.eq_ignore_ascii_case("report"))
    });
    let responder = header(msg, "X-Autoreply").is_some()
        || header(msg, "X-Autorespond").is_some()
        || header(msg, "X-Auto-Response-Suppress")
            .map(str::to_lowercase)
            .is_some_and(|v| v.contains("all") || v.contains("oof") || v.contains("autoreply"));
    auto_submitted || precedence || null_sender || report || responder || robot(from)
}

/// The receiving server's spam filter marked it (SpamAssassin's `X-Spam-Flag: YES`, or an
/// `X-Spam-Status` that begins with Yes).
fn marked_spam(msg: &Message<'_>) -> bool {
    header(msg, "X-Spam-Flag").is_some_and(|v| v.eq_ignore_ascii_case("yes"))
        || header(msg, "X-Spam-Status").is_some_and(|v| {
            v.split([',', ' '])
                .next()
                .is_some_and(|w| w.eq_ignore_ascii_case("yes"))
        })
}

/// The facts of `meta` with its raw bytes; `junk` when it sits in or was moved to Junk.
pub fn of(meta: &MessageMeta, raw: &[u8], junk: bool, arrived: i64) -> Facts {
    let from = meta.summary.from.trim().to_lowercase();
    let to = meta
        .summary
        .to
        .iter()
        .map(|t| t.trim().to_lowercase())
        .collect();
    let parsed = crate::mail::parse::parse_guarded(raw);
    let spam = junk
        || parsed.as_ref().is_some_and(marked_spam)
        || matches!(meta.status.as_deref(), Some("spam" | "suspicious"))
        || meta
            .keywords
            .iter()
            .any(|k| k.eq_ignore_ascii_case("$Junk"));
    let (list, automated) = match &parsed {
        Some(msg) => (crate::mail::parse::is_list_mail(msg), automated(msg, &from)),
        // Mail too broken to read is not answered.
        None => (false, true),
    };
    Facts {
        from,
        to,
        list,
        automated,
        spam,
        thread: meta.thread_id.clone(),
        arrived,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mailstore::MessageMeta;

    fn facts(raw: &str) -> Facts {
        let summary = crate::mail::parse::summary(raw.as_bytes());
        let meta = MessageMeta {
            summary,
            ..MessageMeta::default()
        };
        of(&meta, raw.as_bytes(), false, 0)
    }

    const PERSONAL: &str = "From: Dana <Dana@Example.com>\r\nTo: me@home.test\r\nSubject: hi\r\nMessage-ID: <1@x>\r\n\r\nhello\r\n";

    #[test]
    fn a_personal_mail_is_neither_list_nor_robot() {
        let f = facts(PERSONAL);
        assert_eq!(f.from, "dana@example.com");
        assert_eq!(f.to, vec!["me@home.test"]);
        assert!(!f.list && !f.automated && !f.spam);
    }

    #[test]
    fn rfc_3834_robots_are_recognised() {
        for extra in [
            "Auto-Submitted: auto-replied\r\n",
            "Auto-Submitted: auto-generated; owner-email=\"x@y\"\r\n",
            "Precedence: bulk\r\n",
            "Precedence: junk\r\n",
            "Return-Path: <>\r\n",
            "X-Autoreply: yes\r\n",
            "X-Auto-Response-Suppress: All\r\n",
            "Content-Type: multipart/report; report-type=delivery-status; boundary=b\r\n",
        ] {
            let f = facts(&format!("{extra}{PERSONAL}"));
            assert!(f.automated, "{extra}");
        }
        assert!(!facts(&format!("Auto-Submitted: no\r\n{PERSONAL}")).automated);
        for sender in [
            "noreply@shop.test",
            "no-reply@shop.test",
            "MAILER-DAEMON@mx.test",
            "postmaster@mx.test",
            "noreply+abc@shop.test",
            "bounces-12@list.test",
        ] {
            assert!(robot(sender), "{sender}");
        }
        assert!(!robot("noreen@example.com"));
        assert!(!robot("dana@example.com"));
    }

    #[test]
    fn list_headers_make_list_mail() {
        for extra in [
            "List-Id: <news.example.com>\r\n",
            "List-Unsubscribe: <mailto:u@example.com>\r\n",
            "Precedence: list\r\n",
        ] {
            assert!(facts(&format!("{extra}{PERSONAL}")).list, "{extra}");
        }
    }

    #[test]
    fn spam_comes_from_the_status_the_keyword_or_the_folder() {
        let summary = crate::mail::parse::summary(PERSONAL.as_bytes());
        let mut meta = MessageMeta {
            summary,
            status: Some("suspicious".into()),
            ..MessageMeta::default()
        };
        assert!(of(&meta, PERSONAL.as_bytes(), false, 0).spam);
        meta.status = None;
        assert!(!of(&meta, PERSONAL.as_bytes(), false, 0).spam);
        assert!(of(&meta, PERSONAL.as_bytes(), true, 0).spam);
        meta.keywords = vec!["$Junk".into()];
        assert!(of(&meta, PERSONAL.as_bytes(), false, 0).spam);
        meta.keywords.clear();
        for marked in ["X-Spam-Flag: YES\r\n", "X-Spam-Status: Yes, score=9.1\r\n"] {
            let raw = format!("{marked}{PERSONAL}");
            assert!(of(&meta, raw.as_bytes(), false, 0).spam, "{marked}");
        }
        let raw = format!("X-Spam-Status: No, score=0.1\r\n{PERSONAL}");
        assert!(!of(&meta, raw.as_bytes(), false, 0).spam);
    }
}
