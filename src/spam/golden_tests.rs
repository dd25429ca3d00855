//! The Hebrew set (`tests/fixtures/spam/*.eml` beside the expected `.json`): ads with and
//! without 'פרסומת', Hebrew phishing, personal and transactional mail, and a Chinese ad (the
//! far-script check, which the Hebrew mail must not fire), judged as shipped. The Israeli
//! commercial mails (`ad-*`: the label after a pipe, 'מידע פרסומי', a members' club without the
//! label, an English deals mail) score past the spam threshold and must still be ads (issue 40);
//! a phishing mail wearing the label must still be spam.

use std::path::Path;

use super::engine::{self, Verdict};
use super::profile::Profile;

#[derive(serde::Deserialize)]
struct Expected {
    verdict: String,
    rules: Vec<String>,
    not: Vec<String>,
}

#[test]
fn the_hebrew_set_gets_its_verdicts() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/spam");
    let mut seen = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "eml") {
            continue;
        }
        let raw = std::fs::read(&path).unwrap();
        let expected: Expected =
            serde_json::from_slice(&std::fs::read(path.with_extension("json")).unwrap()).unwrap();
        let r = engine::judge_raw(&raw, &Profile::default());
        let verdict = match r.verdict {
            Verdict::Spam => "spam",
            Verdict::Suspicious => "suspicious",
            Verdict::Advertisement => "advertisement",
            Verdict::Clean => "clean",
        };
        let fired: Vec<&str> = r.hits.iter().map(|h| h.rule).collect();
        let name = path.file_name().unwrap().to_string_lossy();
        assert_eq!(verdict, expected.verdict, "{name}: {} {fired:?}", r.score);
        for rule in &expected.rules {
            assert!(
                fired.contains(&rule.as_str()),
                "{name}: {rule} did not fire: {fired:?}"
            );
        }
        for rule in &expected.not {
            assert!(
                !fired.contains(&rule.as_str()),
                "{name}: {rule} fired: {fired:?}"
            );
        }
        seen += 1;
    }
    assert_eq!(seen, 11);
}
