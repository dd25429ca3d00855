//! A fuzz harness on stable Rust (issue 22): mutated inputs through every parser that reads
//! what strangers write — the MIME path (mail-parser → summary, full view, search text,
//! attachments), the HTML sanitizer and the preview, the search query language, the mbox and
//! Maildir readers, the vCard reader (and its writer on what it read), rules (their JSON,
//! their checks, matching), page-builder entries and form submissions (what whoever edits the
//! content and whoever fills the form send), the OAuth token endpoints' answers, and settings
//! backup files (the sealed blob's header and key derivation, and a restore of any contents into
//! a running app). Zero panics is the property, with each target's own bounds checked on what it
//! accepted: the vCard reader must also stay linear and a backup within this build's cost and
//! caps.
//!
//! Deterministic: a seeded xorshift generator mutates seed inputs from `tests/fixtures` and
//! tokens that parsers treat specially. `FUZZ_ITERS` sets the inputs per target (a brief run
//! in the test command; `scripts/fuzz.sh` runs a long one in release) and `FUZZ_SEED` the seed,
//! so a failure printed here is reproduced by running again with the same two.

mod common;

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use mailclient::backup::{self, seal};
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
fn fuzz(name: &str, seeds: &[Vec<u8>], target: impl FnMut(&[u8])) {
    fuzz_n(name, seeds, iters(), target)
}

/// [`fuzz`] with `n` inputs (a target whose every input costs more).
fn fuzz_n(name: &str, seeds: &[Vec<u8>], n: usize, mut target: impl FnMut(&[u8])) {
    let start = seed() ^ name.bytes().fold(0u64, |h, b| h.rotate_left(5) ^ b as u64);
    let mut rng = Rng(start | 1);
    for i in 0..n {
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
        let started = Instant::now();
        let read = vcard::read(&text);
        // Linear: a few KB never take long, however they are folded.
        assert!(started.elapsed() < Duration::from_secs(2), "slow: {text:?}");
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

/// A realistic backup's contents: every section, as this build writes them.
const BACKUP_CONTENTS: &str = r#"{"format":"mailclient-settings","version":1,"createdAt":"2026-01-01T00:00:00Z","sections":{
"preferences":{"darkMode":true,"timezone":"Asia/Jerusalem"},
"aiProvider":{"choice":{"provider":"openai","model":"m","baseUrl":"http://127.0.0.1:9/v1"},"key":"sk-x"},
"aiTraining":{"tone":"friendly","maxLength":120},
"autoReply":{"autoReplyEnabled":true,"autoReplyBlacklist":"a@b.test"},
"contacts":[{"name":"שרה","email":"sara@example.test","groups":["משפחה"]}],
"rules":[{"name":"r","is_active":true,"match_all":true,"conditions":[{"field":"subject","value":"x"}],"actions":[{"kind":"forward_to","value":"out@example.test"}],"stop":false}],
"tasks":[{"id":1,"title":"t","description":"","priority":"low","due":null,"status":"pending","created":0,"completed":null,"email_id":null,"email_subject":null}],
"templates":[{"name":"n","subject":"s","body":"b"}],
"mailboxes":[{"email":"box@example.test","password":"p","imap_server":"imap.fuzz.invalid","imap_port":993,"imap_ssl":true,"smtp_server":"smtp.fuzz.invalid","smtp_port":465,"smtp_ssl":true,"imap_fingerprint":null,"smtp_fingerprint":null},{"email":"h@example.test","password":"","household":true,"imap_server":"x","imap_port":1,"imap_ssl":true,"smtp_server":"x","smtp_port":1,"smtp_ssl":true,"imap_fingerprint":null,"smtp_fingerprint":null}]}}"#;

#[test]
fn backup_files_never_panic_nor_cost_more_than_this_build_writes() {
    const MASTER: &str = "fuzz-master-password";
    let seeds = vec![seal::seal(MASTER, BACKUP_CONTENTS.as_bytes()), {
        // The smallest file the reader looks at, asking for too much.
        let mut b = b"MCBK\x01".to_vec();
        for n in [256 * 1024u32, 10, 1] {
            b.extend_from_slice(&n.to_le_bytes());
        }
        b.resize(61, 7);
        b
    }];
    let mut derived = 0;
    fuzz("backup", &seeds, |raw| {
        let started = Instant::now();
        match seal::header(raw) {
            Ok(cost) => {
                assert!(cost.acceptable(), "{cost:?}");
                // The key derivation (a few hundred ms unoptimized) for some of them.
                if derived % 25 == 0 {
                    let _ = seal::open(MASTER, raw);
                }
                derived += 1;
            }
            Err(_) => assert!(
                started.elapsed() < Duration::from_millis(100),
                "refused slowly"
            ),
        }
    });
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn restoring_any_backup_contents_never_panics_and_keeps_the_caps() {
    // Mailboxes are saved but never reached: no mail host is allowed.
    let app = common::TestApp::with_config(
        "[mail]\nallowed_hosts = [\"fuzz.invalid\"]\nmax_accounts_per_user = 3\n",
    );
    let token = app.admin_token("dana", "fuzz-admin-password").await;
    let (_, me) = app.json("GET", "/api/app/me", Some(&token), None).await;
    let user = me["user"]["id"].as_u64().unwrap();
    let seeds = vec![BACKUP_CONTENTS.as_bytes().to_vec()];
    // Each restore writes to the store: a tenth of the other targets' count.
    let state = app.state.clone();
    let rt = tokio::runtime::Handle::current();
    tokio::task::spawn_blocking(move || {
        let _guard = rt.enter();
        fuzz_n("backup-contents", &seeds, (iters() / 10).max(20), |raw| {
            let Ok(contents) = backup::parse(raw) else {
                return;
            };
            let _ = backup::restore(&state, user, contents);
            let accounts = mailclient::accounts::list_for_user(&state.store, user).unwrap();
            assert!(accounts.len() <= 3, "{} mailboxes", accounts.len());
        });
    })
    .await
    .unwrap();
}
