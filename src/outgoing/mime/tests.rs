//! The mail as built, read back by mail-parser: Hebrew headers, names and bodies, the kept
//! copy, ids and addresses checked, no header injection.

use super::*;
use mail_parser::{MessageParser, MimeHeaders};

/// A mail from `from` to `from`, with nothing else: each test sets what it checks.
fn plain(from: &Mailbox) -> Message<'_> {
    Message {
        from,
        to: std::slice::from_ref(from),
        cc: &[],
        bcc: &[],
        subject: "s",
        html: "<p>x</p>",
        priority: "medium",
        message_id: "<m@x>",
        in_reply_to: None,
        references: &[],
        date: OffsetDateTime::from_unix_timestamp(1_790_000_000).unwrap(),
        attachments: &[],
        extra: &[],
        calendar: None,
    }
}

fn sample(attachments: &[Attachment]) -> Vec<u8> {
    let from = Mailbox {
        name: "דנה כהן".into(),
        email: "dana@example.test".into(),
    };
    let to = [Mailbox {
        name: "Avi, Jr.".into(),
        email: "avi@example.test".into(),
    }];
    let bcc = [Mailbox::parse("secret@example.test").unwrap()];
    let refs = ["<root@x>".to_string(), "<parent@x>".to_string()];
    build(
        &Message {
            to: &to,
            bcc: &bcc,
            subject: "Re: פגישת צוות ביום שלישי בשעה עשר בבוקר עם כל הצוות של הפרויקט",
            html: "<p>שלום <b>אבי</b>,</p><p>נתראה ב-10:00 &amp; <a href=\"https://x.test/a\">קישור</a></p><ul><li>אחד</li><li>two</li></ul>",
            priority: "urgent",
            message_id: "<m1@example.test>",
            in_reply_to: Some("<parent@x>"),
            references: &refs,
            attachments,
            ..plain(&from)
        },
        Copy::Wire,
    )
}

#[test]
fn a_hebrew_reply_reads_back_whole() {
    let pdf = Attachment {
        name: "סיכום פגישה — רבעון שלישי 2026 (טיוטה סופית).pdf".into(),
        content_type: "application/pdf".into(),
        data: (0..=255u8).cycle().take(5000).collect(),
    };
    let raw = sample(std::slice::from_ref(&pdf));
    let text = String::from_utf8(raw.clone()).unwrap();
    assert!(text.is_ascii(), "7-bit clean on the wire");
    assert!(text.lines().all(|l| l.len() <= 998));
    assert!(!text.contains("secret@"), "no Bcc on the wire");
    let m = MessageParser::default().parse(&raw).unwrap();
    assert_eq!(
        m.subject().unwrap(),
        "Re: פגישת צוות ביום שלישי בשעה עשר בבוקר עם כל הצוות של הפרויקט"
    );
    let from = m.from().unwrap().first().unwrap();
    assert_eq!(from.name.as_deref(), Some("דנה כהן"));
    let to = m.to().unwrap().first().unwrap();
    assert_eq!(
        (to.name.as_deref(), to.address.as_deref()),
        (Some("Avi, Jr."), Some("avi@example.test"))
    );
    assert_eq!(m.in_reply_to().as_text(), Some("parent@x"));
    assert_eq!(
        m.references().as_text_list().unwrap(),
        ["root@x", "parent@x"]
    );
    assert_eq!(m.header_raw("X-Priority").unwrap().trim(), "1 (Highest)");
    let html = m.body_html(0).unwrap();
    assert!(html.contains("<body dir=\"rtl\">"), "{html}");
    let plain = m.body_text(0).unwrap();
    assert!(plain.contains("שלום אבי,"), "{plain}");
    assert!(plain.contains("נתראה ב-10:00 & קישור"), "{plain}");
    assert!(plain.contains("https://x.test/a"), "{plain}");
    assert!(plain.contains("- אחד"), "{plain}");
    let att = m.attachment(0).unwrap();
    assert_eq!(att.attachment_name().unwrap(), pdf.name);
    assert_eq!(att.contents(), pdf.data.as_slice());
}

#[test]
fn ids_that_are_not_message_ids_never_reach_a_header() {
    assert_eq!(msg_id(" parent@x "), Some("<parent@x>".into()));
    assert_eq!(msg_id("<a\rBcc: evil@x>"), None);
    assert_eq!(msg_id("a\nb@x"), None);
    assert_eq!(msg_id("<a b@x>"), None);
    assert_eq!(msg_id("<>"), None);
    let from = Mailbox::parse("dana@example.test").unwrap();
    let refs = [
        "<root@x>".to_string(),
        "<r\rX-Injected: 1>".to_string(),
        "<ok@x>".to_string(),
    ];
    let raw = build(
        &Message {
            in_reply_to: Some("<p\rBcc: evil@example.test>"),
            references: &refs,
            ..plain(&from)
        },
        Copy::Wire,
    );
    let text = String::from_utf8(raw).unwrap();
    let bare_cr = text
        .as_bytes()
        .windows(2)
        .any(|w| w[0] == b'\r' && w[1] != b'\n');
    assert!(!bare_cr, "{text}");
    assert!(!text.contains("In-Reply-To"), "{text}");
    assert!(
        !text.contains("evil@") && !text.contains("X-Injected"),
        "{text}"
    );
    assert!(text.contains("References: <root@x> <ok@x>\r\n"), "{text}");
}

#[test]
fn the_kept_copy_has_bcc() {
    let raw = build_kept();
    let m = MessageParser::default().parse(&raw).unwrap();
    assert_eq!(
        m.bcc().unwrap().first().unwrap().address.as_deref(),
        Some("secret@example.test")
    );
}

fn build_kept() -> Vec<u8> {
    let from = Mailbox::parse("me@example.test").unwrap();
    let bcc = [Mailbox::parse("secret@example.test").unwrap()];
    build(
        &Message {
            to: &[],
            bcc: &bcc,
            subject: "hello",
            html: "<p>hello</p>",
            message_id: "<k@x>",
            date: OffsetDateTime::now_utc(),
            ..plain(&from)
        },
        Copy::Kept,
    )
}

#[test]
fn english_text_is_left_to_right() {
    assert_eq!(direction("Hello שלום"), "ltr");
    assert_eq!(direction("  123 שלום"), "rtl");
    assert!(html_document("<p>Hi</p>").contains("dir=\"ltr\""));
}

#[test]
fn addresses_are_checked() {
    for ok in [
        "a@b.co",
        "Dana <dana@x.test>",
        "\"Cohen, Dana\" <d.c+tag@mail.x.test>",
    ] {
        assert!(Mailbox::parse(ok).is_some(), "{ok}");
    }
    for bad in [
        "",
        "a",
        "a@b",
        "a@@b.c",
        "a b@c.d",
        "a@b.c>\r\nRCPT TO:<x@y.z",
        "<>",
        "a@.b.c",
        "a@b.c.",
    ] {
        assert!(Mailbox::parse(bad).is_none(), "{bad:?}");
    }
    let m = Mailbox::parse("\"Cohen, Dana\" <d@x.test>").unwrap();
    assert_eq!(m.name, "Cohen, Dana");
}

#[test]
fn header_injection_is_impossible() {
    let from = Mailbox {
        name: "x\r\nTo: y@example.test".into(),
        email: "me@example.test".into(),
    };
    let raw = build(
        &Message {
            subject: "a\r\nBcc: x@y.z",
            message_id: "<i@x>",
            date: OffsetDateTime::now_utc(),
            extra: &[("X-Mailclient-Test", "1\r\nBcc: z@y.z".into())],
            ..plain(&from)
        },
        Copy::Wire,
    );
    let text = String::from_utf8(raw).unwrap();
    assert!(
        !text.contains("\nBcc:") && !text.contains("\nTo: y@"),
        "{text}"
    );
    let m = MessageParser::default().parse(text.as_bytes()).unwrap();
    assert_eq!(m.subject(), Some("aBcc: x@y.z"));
    assert!(m.bcc().is_none());
}

#[test]
fn the_kept_copy_is_the_sent_bytes_plus_bcc() {
    let from = Mailbox::parse("דנה <dana@example.test>").unwrap();
    let to = [Mailbox::parse("avi@example.test").unwrap()];
    let bcc = [Mailbox::parse("secret@example.test").unwrap()];
    let pdf = Attachment {
        name: "דוח.pdf".into(),
        content_type: "application/pdf".into(),
        data: vec![1, 2, 3],
    };
    let message = Message {
        to: &to,
        bcc: &bcc,
        subject: "שלום",
        html: "<p>שלום</p>",
        priority: "high",
        message_id: "<same@example.test>",
        attachments: std::slice::from_ref(&pdf),
        ..plain(&from)
    };
    let wire = build(&message, Copy::Wire);
    assert_eq!(
        wire,
        build(&message, Copy::Wire),
        "built twice, the same bytes"
    );
    let kept = String::from_utf8(build(&message, Copy::Kept)).unwrap();
    let bcc_line = "Bcc: <secret@example.test>\r\n";
    assert!(kept.contains(bcc_line), "{kept}");
    assert_eq!(kept.replacen(bcc_line, "", 1).as_bytes(), wire.as_slice());
}

#[test]
fn a_hebrew_attachment_name_and_a_leading_dot_read_back_as_written() {
    let from = Mailbox::parse("me@example.test").unwrap();
    let att = Attachment {
        name: "הצעת מחיר – שלב א׳ \"סופי\".docx".into(),
        content_type: "application/vnd.openxmlformats-officedocument.wordprocessingml.document"
            .into(),
        data: b"PK\x03\x04 not really a docx".to_vec(),
    };
    let raw = build(
        &Message {
            subject: "קובץ",
            html: "<p>.שורה שמתחילה בנקודה</p><p>.</p><p>...</p>",
            message_id: "<d@x>",
            date: OffsetDateTime::now_utc(),
            attachments: std::slice::from_ref(&att),
            ..plain(&from)
        },
        Copy::Wire,
    );
    assert!(raw.is_ascii(), "7-bit clean");
    let text = String::from_utf8(raw.clone()).unwrap();
    // RFC 2231 for the name (mail-builder writes `filename*`), never raw UTF-8.
    assert!(text.contains("filename*"), "{text}");
    let m = MessageParser::default().parse(&raw).unwrap();
    let got = m.attachment(0).unwrap();
    assert_eq!(got.attachment_name(), Some(att.name.as_str()));
    assert_eq!(got.contents(), att.data.as_slice());
    let plain = m.body_text(0).unwrap();
    assert_eq!(plain, ".שורה שמתחילה בנקודה\r\n.\r\n...\r\n");
}

#[test]
fn an_invitation_s_answer_carries_its_calendar_in_the_alternative() {
    let from = Mailbox {
        name: "דנה".into(),
        email: "dana@example.test".into(),
    };
    let cal = CalendarPart {
        method: "REPLY".into(),
        ics: "BEGIN:VCALENDAR\r\nMETHOD:REPLY\r\nSUMMARY:ישיבה\r\nEND:VCALENDAR\r\n".into(),
    };
    let raw = build(
        &Message {
            calendar: Some(&cal),
            ..plain(&from)
        },
        Copy::Wire,
    );
    let m = MessageParser::default().parse(&raw).unwrap();
    let part = m
        .parts
        .iter()
        .find(|p| {
            p.content_type()
                .is_some_and(|c| c.subtype() == Some("calendar"))
        })
        .expect("a text/calendar part");
    let ct = part.content_type().unwrap();
    assert_eq!(ct.attribute("method"), Some("REPLY"));
    assert_eq!(ct.attribute("charset"), Some("utf-8"));
    assert!(part.text_contents().unwrap().contains("SUMMARY:ישיבה"));
    // Inside the alternative, beside the text and the HTML.
    let root = m.parts[0].content_type().unwrap();
    assert_eq!(root.subtype(), Some("alternative"));
}
