//! A fuzz harness on stable Rust (issue 22): mutated inputs through every parser that reads
//! what strangers write — the MIME path (mail-parser → summary, full view, search text,
//! attachments), the HTML sanitizer and the preview, the search query language, the mbox and
//! Maildir readers, the vCard reader (and its writer on what it read), rules (their JSON,
//! their checks, matching), page-builder entries and form submissions (what whoever edits the
//! content and whoever fills the form send), and the OAuth token endpoints' answers. Zero
//! panics is the property, with each target's own bounds checked on what it accepted.
//!
//! Deterministic: a seeded xorshift generator mutates seed inputs from `tests/fixtures` and
//! tokens that parsers treat specially. `FUZZ_ITERS` sets the inputs per target (a brief run
//! in the test command; `scripts/fuzz.sh` runs a long one in release) and `FUZZ_SEED` the seed,
//! so a failure printed here is reproduced by running again with the same two.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};

use mailclient::contacts::vcard;
use mailclient::import::sources::Source;
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
fn builder_entries_and_forms_never_panic_and_stay_bounded() {
    use mailclient::builder::{find_block, form};
    let seeds: Vec<Vec<u8>> = [
        r#"{"data":{"blocks":[{"@type":"@builder.io/sdk:Element","id":"f","component":{"name":"Form:Form","options":{"sendSubmissionsTo":"custom","action":"https://x.example/a","method":"put","contentType":"application/x-www-form-urlencoded","customHeaders":{"X-A":"1","Host":"h"}}},"children":[{"@type":"@builder.io/sdk:Element","id":"i","component":{"name":"Form:Input","options":{"name":"a.b"}}}]}]},"variations":{"v":{"data":{"blocks":[]}}}}"#,
        r#"{"data":{"blocks":[{"@type":"@builder.io/sdk:Element","id":"f","component":{"name":"Form:Form","options":{"sendSubmissionsToEmail":"a@b.example","name":"צור קשר"}}}]}}"#,
        r#"[{"key":"name","value":"דנה"},{"key":"a.b.c","value":3},{"key":"..x..","value":true},{"key":"n","value":null}]"#,
    ]
    .iter()
    .map(|s| s.as_bytes().to_vec())
    .collect();
    fuzz("builder", &seeds, |raw| {
        let Ok(value) = serde_json::from_slice::<serde_json::Value>(raw) else {
            return;
        };
        // An entry: its blocks found, a form's options read.
        for id in ["f", "i", "x"] {
            if let Some(block) = find_block(&value, id) {
                let _ = form::plan(&block["component"]["options"]);
            }
        }
        let _ = form::plan(&value);
        // A submission: what passes the checks makes bodies no deeper than the bound.
        let Ok(fields) = serde_json::from_value::<Vec<form::Field>>(value) else {
            return;
        };
        if form::check_fields(&fields).is_err() {
            return;
        }
        let json = form::json_body(&fields);
        let mut depth = 0;
        let mut level = vec![&json];
        while !level.is_empty() {
            depth += 1;
            level = level
                .iter()
                .filter_map(|v| v.as_object())
                .flat_map(|m| m.values())
                .collect();
        }
        assert!(depth <= form::MAX_KEY_DEPTH + 1, "nested {depth} deep");
        let _ = json.to_string();
        let _ = form::urlencoded_body(&fields);
        let (_, body) = form::multipart_body(&fields);
        let _ = form::mail_html("טופס", "/p", &fields);
        assert!(!body.is_empty());
    });
}

#[test]
fn oauth_token_answers_never_panic_and_tokens_are_clean() {
    use mailclient::oauth::Providers;
    use mailclient::oauth::provider::read_answer;
    let seeds: Vec<Vec<u8>> = [
        r#"{"access_token":"ya29.a0AfH6","expires_in":3599,"refresh_token":"1//0g","scope":"https://mail.google.com/","token_type":"Bearer"}"#,
        r#"{"access_token":"EwB4A8l6","expires_in":"3600","ext_expires_in":3600,"refresh_token":"M.R3_BAY"}"#,
        r#"{"device_code":"DAQABAAEAAAD","user_code":"ABCD-EFGH","verification_uri":"https://microsoft.com/devicelogin","expires_in":900,"interval":5,"message":"To sign in"}"#,
        r#"{"error":"authorization_pending","error_description":"AADSTS70016"}"#,
        r#"{"error":"invalid_grant","error_description":"Token has been expired or revoked."}"#,
    ]
    .iter()
    .map(|s| s.as_bytes().to_vec())
    .collect();
    fuzz("oauth", &seeds, |raw| {
        for status in [200, 400, 401, 500] {
            let Ok(body) = read_answer(status, raw) else {
                continue;
            };
            assert!((200..300).contains(&status) && body.is_object());
            if let Ok(tokens) = Providers::tokens(&body) {
                let t = &tokens.access_token;
                assert!(!t.is_empty() && t.is_ascii());
                assert!(!t.bytes().any(|b| b.is_ascii_control() || b == b' '));
                let secs = tokens.expires_in.as_secs();
                assert!((1..=24 * 3600).contains(&secs), "{secs}");
            }
            if let Ok(device) = Providers::device_answer(&body) {
                assert!(device.verification_uri.starts_with("http"));
                assert!(device.user_code.len() <= 64);
                assert!((1..=1800).contains(&device.expires_in));
                assert!((1..=60).contains(&device.interval));
            }
        }
    });
}
