//! Evaluates spam detection as shipped (the base model, default settings, no user data) on a
//! directory of mail named by group (`spam-2.*` spam, `easy-ham-2.*` ham): the verdicts, and
//! how fast one core judges; and the ads of the golden Israeli set (`tests/fixtures/spam/ad-*`)
//! judged spam, which should be none (issue 40: ads go to Promotions, never Junk). Prints one
//! JSON object; `bench/spam_eval.py` runs it.
//!
//!     cargo run --release --example spam_eval -- "$(scripts/corpus.sh eval)"

use std::time::Instant;

use mailclient::mail::parse::parse_guarded;
use mailclient::spam::bayes::Counts;
use mailclient::spam::engine::{self, Verdict};
use mailclient::spam::mail::Mail;
use mailclient::spam::profile::Profile;
use mailclient::spam::tokens;

fn main() -> anyhow::Result<()> {
    let dir = std::env::args()
        .nth(1)
        .ok_or_else(|| anyhow::anyhow!("usage: spam_eval DIR [--misses]"))?;
    let show_misses = std::env::args().any(|a| a == "--misses");
    let hist = std::env::args().any(|a| a == "--hist");
    let mut buckets = [[0usize; 11]; 2];
    let profile = Profile::default();
    if let Some(file) = std::env::args().skip_while(|a| a != "--explain").nth(1) {
        let raw = std::fs::read(&file)?;
        let msg = parse_guarded(&raw);
        let mail = Mail::of(msg.as_ref(), &raw, None);
        let counts = profile.counts();
        let (ns, nh) = counts.totals();
        let mut clues: Vec<(f64, String, u32, u32)> = tokens::named(&mail)
            .into_iter()
            .map(|(t, name)| {
                let (s, h) = counts.token(t);
                let sr = f64::from(s) / f64::from(ns);
                let hr = f64::from(h) / f64::from(nh);
                let p = if sr + hr == 0.0 { 0.5 } else { sr / (sr + hr) };
                (p, name, s, h)
            })
            .filter(|c| c.2 + c.3 > 0)
            .collect();
        clues.sort_by(|a, b| (b.0 - 0.5).abs().total_cmp(&(a.0 - 0.5).abs()));
        for c in clues.iter().take(40) {
            println!("{:.3} {} ({} spam, {} ham)", c.0, c.1, c.2, c.3);
        }
        return Ok(());
    }
    let mut names: Vec<_> = std::fs::read_dir(&dir)?
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    let mut mails = Vec::new();
    for name in names {
        let is_spam = name.starts_with("spam");
        let raw = std::fs::read(std::path::Path::new(&dir).join(&name))?;
        mails.push((name, is_spam, raw));
    }
    let mut n = [[0usize; 4]; 2];
    let started = Instant::now();
    let mut scores = Vec::new();
    for (name, is_spam, raw) in &mails {
        let r = engine::judge_raw(raw, &profile);
        let v = match r.verdict {
            Verdict::Spam => 0,
            Verdict::Suspicious => 1,
            Verdict::Advertisement => 2,
            Verdict::Clean => 3,
        };
        n[usize::from(!*is_spam)][v] += 1;
        if show_misses && ((*is_spam && v != 0) || (!*is_spam && v == 0)) {
            let rules: Vec<String> = r
                .hits
                .iter()
                .map(|h| format!("{}:{}", h.rule, h.points))
                .collect();
            eprintln!("{name} {:?} {} {}", r.verdict, r.score, rules.join(" "));
        }
        scores.push(r.score);
        if hist {
            let b = r.spamminess.map_or(10, |s| ((s * 10.0) as usize).min(9));
            buckets[usize::from(!*is_spam)][b] += 1;
        }
    }
    if hist {
        eprintln!(
            "spamminess deciles (spam / ham): {:?} / {:?}",
            buckets[0], buckets[1]
        );
    }
    let secs = started.elapsed().as_secs_f64();
    let (ads, ads_as_spam) = golden_ads(&profile)?;
    let spam_total: usize = n[0].iter().sum();
    let ham_total: usize = n[1].iter().sum();
    let caught = n[0][0];
    let false_spam = n[1][0];
    let precision = if caught + false_spam == 0 {
        0.0
    } else {
        caught as f64 / (caught + false_spam) as f64
    };
    println!(
        "{}",
        serde_json::json!({
            "spam": spam_total,
            "ham": ham_total,
            "spam_as_spam": n[0][0],
            "spam_as_suspicious": n[0][1],
            "spam_as_advertisement": n[0][2],
            "spam_as_clean": n[0][3],
            "ham_as_spam": n[1][0],
            "ham_as_suspicious": n[1][1],
            "ham_as_advertisement": n[1][2],
            "ham_as_clean": n[1][3],
            "recall": caught as f64 / spam_total.max(1) as f64,
            "precision": precision,
            "false_spam_per_1000_ham": 1000.0 * false_spam as f64 / ham_total.max(1) as f64,
            "messages_per_second": mails.len() as f64 / secs,
            "ads": ads,
            "ads_as_spam": ads_as_spam,
        })
    );
    Ok(())
}

/// The golden set's commercial mails (`ad-*.eml`), and how many of them were judged spam.
fn golden_ads(profile: &Profile) -> anyhow::Result<(usize, usize)> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/spam");
    let (mut ads, mut as_spam) = (0, 0);
    for entry in std::fs::read_dir(dir)? {
        let path = entry?.path();
        let name = path.file_name().unwrap_or_default().to_string_lossy();
        if !(name.starts_with("ad-") && name.ends_with(".eml")) {
            continue;
        }
        ads += 1;
        if engine::judge_raw(&std::fs::read(&path)?, profile).verdict == Verdict::Spam {
            as_spam += 1;
        }
    }
    Ok((ads, as_spam))
}
