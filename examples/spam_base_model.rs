//! Trains the spam models shipped in the binary, the Bayes counts (`assets/spam-base.zst`) and
//! the logistic regression's weights (`assets/spam-lr.zst`), from the development corpus:
//! spam-1 as spam, easy-ham-1 and hard-ham-1 as ham (DESIGN.md: spam-2 and easy-ham-2 are kept
//! for evaluation only, so they are refused here). `scripts/spam-model.sh` runs it.
//!
//!     cargo run --release --example spam_base_model -- "$(scripts/corpus.sh dir)" \
//!         assets/spam-base.zst assets/spam-lr.zst

use std::collections::HashMap;

use mailclient::mail::parse::parse_guarded;
use mailclient::spam::bayes::Base;
use mailclient::spam::mail::Mail;
use mailclient::spam::{lr, tokens};

/// Tokens seen in fewer mails than this are left out of the shipped file (they barely move a
/// score, and they are most of its size).
const MIN_SEEN: u32 = 1;

fn main() -> anyhow::Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [corpus, out, out_lr] = args.as_slice() else {
        anyhow::bail!("usage: spam_base_model CORPUS_DIR BAYES_FILE LR_FILE");
    };
    // Each mail's LR features and class, in the order read (as examples/spam_cv trains).
    let mut mails: Vec<(Vec<u32>, bool)> = Vec::new();
    let mut counts: HashMap<u32, (u32, u32)> = HashMap::new();
    let (mut spam, mut ham) = (0u32, 0u32);
    let mut names: Vec<_> = std::fs::read_dir(corpus)?
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    for name in names {
        let is_spam = if name.starts_with("spam-1.") {
            true
        } else if name.starts_with("easy-ham-1.") || name.starts_with("hard-ham-1.") {
            false
        } else if name.starts_with("spam-2.") || name.starts_with("easy-ham-2.") {
            anyhow::bail!("{name}: the evaluation groups are never trained on");
        } else {
            continue;
        };
        let raw = std::fs::read(std::path::Path::new(corpus).join(&name))?;
        let msg = parse_guarded(&raw);
        let toks = tokens::of(&Mail::of(msg.as_ref(), &raw, None));
        mails.push((lr::of_tokens(&toks), is_spam));
        for t in toks {
            let e = counts.entry(t).or_default();
            if is_spam {
                e.0 += 1;
            } else {
                e.1 += 1;
            }
        }
        if is_spam {
            spam += 1;
        } else {
            ham += 1;
        }
    }
    let all = counts.len();
    counts.retain(|_, (s, h)| *s + *h >= MIN_SEEN);
    let file = Base::encode(spam, ham, &counts);
    std::fs::write(out, &file)?;
    println!(
        "{spam} spam, {ham} ham; {} of {all} tokens kept; {} bytes written to {out}",
        counts.len(),
        file.len()
    );
    let m = lr::train(&mails);
    let file = lr::Base::encode(&m);
    std::fs::write(out_lr, &file)?;
    println!(
        "logistic regression: {} of {} weights non-zero; {} bytes written to {out_lr}",
        m.w.iter().filter(|w| **w != 0.0).count(),
        m.w.len(),
        file.len()
    );
    Ok(())
}
