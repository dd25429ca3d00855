//! A fuzz harness on stable Rust (issue 22): mutated inputs through every parser that reads
//! what strangers write — the MIME path (mail-parser → summary, full view, search text,
//! attachments), the HTML sanitizer and the preview, the search query language, the mbox and
//! Maildir readers, the vCard reader (and its writer on what it read), rules (their JSON,
//! their checks, matching) and meeting invitations (the calendar parts of a mail, iCalendar,
//! the card's words, our REPLY read back). Zero panics is the property.
//!
//! Deterministic: a seeded xorshift generator mutates seed inputs from `tests/fixtures` and
//! tokens that parsers treat specially. `FUZZ_ITERS` sets the inputs per target (a brief run
//! in the test command; `scripts/fuzz.sh` runs a long one in release) and `FUZZ_SEED` the seed,
//! so a failure printed here is reproduced by running again with the same two.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};

use mailclient::contacts::vcard;
use mailclient::import::sources::Source;
use mailclient::invites::event::{self, Answer, Method, Person};
use mailclient::invites::{parts, reply, words};
use mailclient::mail::{parse, preview, sanitize};
use mailclient::rules::RuleInput;
use mailclient::rules::matching::{self, Mail};
use mailclient::rules::model::StoredRule;
use mailclient::search::query;

fn iters() -> usize {
    std::env::var("FUZZ_ITERS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(1000)
}

fn seed() -> u64 {
    std::env::var("FUZZ_SEED")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(0x5eed_1e55_c0ff_ee01)
}

/// xorshift64*: small, fast, and the same on every machine.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            (self.next() % n as u64) as usize
        }
    }
    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}

/// Bytes that make parsers change state.
const TOKENS: &[&[u8]] = &[
    b"\r\n",
    b"\n",
    b"\r",
    b"\r\n\r\n",
    b"\0",
    b"\xff\xfe",
    b"\xd7",
    b"=?UTF-8?B?",
    b"=?windows-1255?Q?=E0=E1?=",
    b"?=",
    b"Content-Type: multipart/mixed; boundary=\"b\"\r\n",
    b"Content-Type: message/rfc822\r\n",
    b"Content-Transfer-Encoding: base64\r\n",
    b"Content-Transfer-Encoding: quoted-printable\r\n",
    b"--b\r\n",
    b"--b--",
    b"=\r\n",
    b"=E0",
    b"filename*=UTF-8''%D7%A9",
    b"<",
    b">",
    b"\"",
    b"'",
    b"&#x1;",
    b"&#",
    b"<img src=",
    b"<svg><math><style>",
    b"url(",
    b"javascript:",
    b"\\",
    b"From ",
    b"BEGIN:VCARD\r\n",
    b"END:VCARD\r\n",
    b"VERSION:3.0\r\n",
    b";CHARSET=UTF-8;ENCODING=QUOTED-PRINTABLE:",
    b"\r\n ",
    b"from:",
    b"subject:\"",
    b"after:",
    b"before:2024-13-45",
    b" OR ",
    b"(",
    b")",
    b"-",
    b"*",
    "שָׁלוֹם".as_bytes(),
    "\u{202e}".as_bytes(),
    "\u{fffd}".as_bytes(),
];

/// `input` changed in 1 to 8 ways.
fn mutate(rng: &mut Rng, input: &[u8]) -> Vec<u8> {
    let mut v = input.to_vec();
    for _ in 0..1 + rng.below(8) {
        let at = rng.below(v.len() + 1);
        match rng.below(7) {
            0 if !v.is_empty() => {
                let i = rng.below(v.len());
                v[i] ^= 1 << rng.below(8);
            }
            1 => {
                let t = rng.pick(TOKENS);
                v.splice(at..at, t.iter().copied());
            }
            2 if !v.is_empty() => {
                let end = (at + rng.below(64)).min(v.len());
                v.drain(at.min(end)..end);
            }
            3 if !v.is_empty() => {
                // Repeat a slice: deep nesting, long lines.
                let start = rng.below(v.len());
                let end = (start + 1 + rng.below(32)).min(v.len());
                let chunk = v[start..end].to_vec();
                for _ in 0..1 + rng.below(50) {
                    v.splice(at..at, chunk.iter().copied());
                }
            }
            4 => {
                let n = rng.below(16);
                let bytes: Vec<u8> = (0..n).map(|_| rng.next() as u8).collect();
                v.splice(at..at, bytes);
            }
            5 => v.truncate(at),
            _ => {
                let t = rng.pick(TOKENS);
                v.extend_from_slice(t);
            }
        }
    }
    v
}

fn fixture_files(dirs: &[&str]) -> Vec<Vec<u8>> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    let mut out = Vec::new();
    for d in dirs {
        let Ok(entries) = std::fs::read_dir(root.join(d)) else {
            continue;
        };
        let mut paths: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
        paths.sort();
        for p in paths {
            if p.extension().is_some_and(|x| x == "eml") {
                out.push(std::fs::read(&p).unwrap());
            }
        }
    }
    assert!(!out.is_empty(), "no seeds in {dirs:?}");
    out
}

/// Runs `target` on `iters()` mutations of `seeds`; fails with the seed and the input's
/// number when one panics.
fn fuzz(name: &str, seeds: &[Vec<u8>], target: impl Fn(&[u8])) {
    let start = seed() ^ name.bytes().fold(0u64, |h, b| h.rotate_left(5) ^ b as u64);
    let mut rng = Rng(start | 1);
    for i in 0..iters() {
        let base = rng.pick(seeds).clone();
        let input = if i % 10 == 0 {
            base
        } else {
            mutate(&mut rng, &base)
        };
        if catch_unwind(AssertUnwindSafe(|| target(&input))).is_err() {
            let path = std::env::temp_dir().join(format!("mailclient-fuzz-{name}-{i}.bin"));
            std::fs::write(&path, &input).ok();
            panic!(
                "{name}: input {i} panicked (FUZZ_SEED={} FUZZ_ITERS={}); input saved to {}",
                seed(),
                iters(),
                path.display()
            );
        }
    }
}

#[test]
fn mime_parsing_never_panics() {
    let seeds = fixture_files(&["hebrew", "malformed", "hostile", "search"]);
    fuzz("mime", &seeds, |raw| {
        let s = parse::summary(raw);
        let full = parse::full(raw);
        let _ = sanitize::sanitize(&full.html, false, &|_| None);
        let _ = parse::searchable(raw);
        let _ = parse::body_text(raw);
        for i in 0..s.attachments.len().min(3) + 1 {
            let _ = parse::attachment(raw, i);
        }
        let _ = parse::sanitize_filename(&s.subject);
        let _ = preview::preview(&s.subject);
    });
}

#[test]
fn sanitizing_html_never_panics_and_never_keeps_script() {
    let seeds = fixture_files(&["hostile"]);
    fuzz("sanitize", &seeds, |raw| {
        let html = String::from_utf8_lossy(raw);
        for remote in [false, true] {
            let out = sanitize::sanitize(&html, remote, &|_| {
                Some("data:image/png;base64,AA==".into())
            });
            let lower = out.html.to_ascii_lowercase();
            assert!(
                !lower.contains("<script"),
                "a script survived: {}",
                out.html
            );
            // In a tag (text may say it; text never holds a raw `<`, so every `<…>` is a tag).
            let in_tag = lower.split('<').skip(1).any(|t| {
                t.split('>')
                    .next()
                    .is_some_and(|t| t.contains("javascript:"))
            });
            assert!(!in_tag, "javascript: survived: {}", out.html);
        }
        let _ = preview::strip_html(&html);
        let _ = preview::maybe_decode_base64_html(&html);
    });
}

#[test]
fn search_queries_never_panic() {
    let seeds: Vec<Vec<u8>> = [
        "from:dana subject:\"שלום עולם\" after:2024-01-01 before:2025-12-31",
        "(חשבונית OR invoice) -spam has:attachment",
        "to:yossi@example.test is:unread is:starred folder:inbox",
        "\"מחיר\" AND (הצעה OR הזמנה) -פרסומת",
        "פגיש* ",
    ]
    .iter()
    .map(|s| s.as_bytes().to_vec())
    .collect();
    fuzz("query", &seeds, |raw| {
        let q = String::from_utf8_lossy(raw);
        let _ = query::parse(&q, 7200);
        let _ = query::parse(&q, -36_000);
    });
}

#[test]
fn mbox_and_maildir_reading_never_panics() {
    let seeds = fixture_files(&["hebrew", "malformed"]);
    let dir = tempfile::tempdir().unwrap();
    fuzz("mbox", &seeds, |raw| {
        // The same bytes as an mbox (two messages) and as a Maildir's one file.
        let mbox = dir.path().join("in.mbox");
        let mut bytes = b"From someone@example.test Thu Nov 26 10:00:00 2026\n".to_vec();
        bytes.extend_from_slice(raw);
        bytes.extend_from_slice(b"\n\nFrom x Thu Nov 26 10:00:00 2026\n");
        bytes.extend_from_slice(raw);
        std::fs::write(&mbox, &bytes).unwrap();
        let maildir = dir.path().join("md");
        for sub in ["cur", "new", "tmp"] {
            std::fs::create_dir_all(maildir.join(sub)).unwrap();
        }
        std::fs::write(maildir.join("cur/1.host:2,SF"), raw).unwrap();
        for path in [&mbox, &maildir] {
            if let Ok(source) = Source::detect(path, "INBOX") {
                let _ = source.count();
                let _ = source.each(
                    "INBOX",
                    |item| {
                        let _ = parse::summary(&item.raw);
                        Ok(())
                    },
                    |_| {},
                );
            }
        }
    });
}

#[test]
fn vcards_never_panic_and_what_is_read_writes_and_reads_again() {
    let seeds: Vec<Vec<u8>> = [
        "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:משה כהן\r\nN:כהן;משה;;;\r\nEMAIL;TYPE=INTERNET:moshe@example.test\r\nTEL;TYPE=CELL:050-1234567\r\nORG:כהן ובניו\r\nCATEGORIES:משפחה,עבודה\r\nNOTE:שורה\\nשנייה\r\nEND:VCARD\r\n",
        "BEGIN:VCARD\r\nVERSION:2.1\r\nFN;CHARSET=UTF-8;ENCODING=QUOTED-PRINTABLE:=D7=A9=D7=A8=D7=94\r\nEMAIL:sara@example.test\r\nEND:VCARD\r\n",
        "BEGIN:VCARD\r\nVERSION:4.0\r\nFN:Ruth\r\n Levi\r\nEMAIL;PREF=1:ruth@example.test\r\nEND:VCARD\r\nBEGIN:VCARD\r\nEND:VCARD\r\n",
    ]
    .iter()
    .map(|s| s.as_bytes().to_vec())
    .collect();
    fuzz("vcard", &seeds, |raw| {
        let text = String::from_utf8_lossy(raw);
        let read = vcard::read(&text);
        let written = vcard::write(read.cards.iter());
        let again = vcard::read(&written);
        assert_eq!(
            again.cards.len(),
            read.cards.len(),
            "a written card reads back: {written}"
        );
    });
}

#[test]
fn rules_never_panic_on_any_json_or_mail() {
    let seeds: Vec<Vec<u8>> = [
        r#"{"name":"חשבוניות","match_all":true,"conditions":[{"field":"subject","value":"חשבונית"},{"field":"header","header":"X-Mailer","value":""},{"field":"size_above","value":"100","negate":true}],"actions":[{"kind":"move_to_folder","value":"Invoices"},{"kind":"add_label","value":"invoices"},{"kind":"forward_to","value":"a@example.test"}],"stop":true}"#,
        r#"{"name":"x","match_all":false,"conditions":[{"field":"sender_domain","value":"example.test"},{"field":"body","value":"שָׁלוֹם"},{"field":"list_mail"},{"field":"has_attachment","negate":true}],"actions":[{"kind":"set_status","value":"urgent"}]}"#,
    ]
    .iter()
    .map(|s| s.as_bytes().to_vec())
    .collect();
    fuzz("rules", &seeds, |raw| {
        let Ok(input) = serde_json::from_slice::<RuleInput>(raw) else {
            return;
        };
        let Ok(checked) = input.checked(&["me@example.test".into()]) else {
            return;
        };
        let rule = StoredRule::from(checked);
        let text = String::from_utf8_lossy(raw);
        let mail = Mail {
            from: text.to_string(),
            from_address: text.chars().rev().collect(),
            to: text.to_string(),
            subject: text.to_string(),
            body: text.repeat(3),
            has_attachment: raw.len() % 2 == 0,
            list: raw.len() % 3 == 0,
            size: raw.len() as u64 * 1000,
            headers: vec![("x-mailer".into(), text.to_string())],
        };
        let _ = matching::matches(&rule, &mail);
        let _ = matching::matches(&rule, &Mail::default());
    });
}

#[test]
fn invitations_never_panic_and_our_replies_read_back() {
    let mails = fixture_files(&["invites"]);
    // The mails, and their calendars as text: mutations of the text reach the iCalendar
    // reader itself, not only base64.
    let mut seeds = mails.clone();
    for m in &mails {
        seeds.extend(parts::calendars(m).into_iter().map(|p| p.text.into_bytes()));
    }
    let tz = chrono_tz::Asia::Jerusalem;
    let me = Person {
        name: "דנה".into(),
        email: "dana@example.test".into(),
    };
    fuzz("invitations", &seeds, |raw| {
        let text = String::from_utf8_lossy(raw);
        let found = parts::first_event(raw, tz)
            .or_else(|| event::parse(&text, tz, None).map(|e| (e, text.to_string())));
        let Some((e, ics)) = found else { return };
        if let Some(w) = &e.when {
            let _ = words::when(w, tz);
        }
        if let Some(r) = &e.rrule {
            let _ = words::recurrence(r, tz);
        }
        let _ = mailclient::invites::ics_file(&ics);
        let answer = reply::ics(&e, &me, Answer::Tentative, "אולי", 1_800_000_000);
        let back = event::parse(&answer, tz, None).expect("our REPLY reads back");
        assert_eq!(back.method, Method::Reply);
        assert_eq!(back.uid, e.uid.trim());
        assert_eq!(back.attendees.len(), 1);
    });
}
