//! Tunes spam detection without looking at the held-out groups: k-fold cross-validation over
//! the training groups only (spam-1 as spam, easy-ham-1 and hard-ham-1 as ham). Each fold's
//! classifier is trained on the other folds; the rule checks are the engine's, unchanged; the
//! verdict is the engine's (default thresholds: spam 4, suspicious 2). Prints recall, false
//! spam per 1,000 ham (easy-ham and hard-ham apart) and the spamminess deciles.
//!
//!     cargo run --release --example spam_cv -- "$(scripts/corpus.sh dir)" [--folds 5]
//!         [--heldout "$(scripts/corpus.sh eval)"]   # once per design decision, not per tweak
//!         [--s 0.45 --min-dev 0.1 --max-disc 150 --min-clues 5 --balance 1 --spam-from 0.9]
//!         [--feat KIND,…] [--drop PREFIX,…]          # token kinds tried beside the shipped ones
//!         [--time-split 0.25 [--oldest]]             # the newest (oldest) quarter of each
//!                                                    # group by Date, judged after training
//!                                                    # on the rest
//!         [--autolearn [--al-spam 8 --al-rules 1 --al-ham -1.5 --al-ham-rules 0.5]
//!          [--al-weight 3 --al-rate 0.5 --al-no-ham --al-no-spam --al-learners both]]
//!                                                    # with --time-split: the judged mails
//!                                                    # streamed by Date, the confident ones
//!                                                    # learned without their label
//!         [--feedback]                               # with --time-split or --heldout: the
//!                                                    # judged mails streamed by Date, the
//!                                                    # engine's mistakes marked by the user
//!         [--rules]                                  # how often each rule fires per group
//!         [--misses]                                 # spam not judged spam (and, held out,
//!                                                    # false spam with its spammiest tokens)
//!         [--score bayes|lr|avg|halves|sum|stack]    # which learner earns the points
//!         [--lr-from 0.7 --lr-points 0.5]            # the LR's spam cutoff, its share in `sum`
//!         [--lr-bits 18 --lr-tokens 1 --lr-text 0 --lr-body 0 --lr-raw 0]   # its features
//!         [--lr-rate 2 --lr-epochs 10 --lr-spam-weight 2]                   # its training
//!         [--neg-scale 1]                            # the learners' ham points times this
//!
//! The classifier is `src/spam/bayes.rs`'s, with its knobs (`bayes::Params`) as options (the
//! defaults are the shipped ones), so a tweak is measured without rebuilding the library.
//! `--feat` adds the token kinds tried and not shipped (see `extras`: fromname, cte, charset,
//! mailer, msgid, date, hdrcase, hcount, bigram, emails, size, replyto, shapes (money,
//! percentages, '!', capitals' share, toll-free numbers, link counts, hosts and TLDs); html-tags is version
//! 1's tag tokens) and the rules tried (rule-subjtag, rule-phrases; the far-script rule tried
//! here ships as `checks/script.rs` since look 8). `--drop` leaves out a shipped kind by its
//! prefix.
//!
//! `--score` other than `bayes` adds a logistic regression over hashed features (`lr.rs` here,
//! over `spam::lr`: the tokenizer's tokens, character 4-grams of the text, byte 4-grams of the
//! raw body or of the whole raw message), trained per fold like the Bayes counts. Its
//! probability earns points on the Bayes steps (`learned::points`) moved down to `--lr-from`: `lr` alone, `avg`
//! of the two spamminesses, `halves` (half of each one's points), `sum` (the Bayes points plus
//! `--lr-points` of the LR's), `stack` (the LR alone, with the Bayes opinion in 20 bands as a
//! feature; on the training folds leave-one-out, so it is not the mail's own count).
//!
//! With `--time-split SHARE`, no folds: each training group is sorted by its mails' Date header
//! and its newest SHARE (`--oldest`: its oldest) judged by learners trained on the rest of the
//! three groups. The held-out groups are another collection, whose spam is mostly dated before
//! spam-1's: this imitates their drift without looking at them (docs/BENCHMARKS.md issue 18,
//! "A validation that imitates the drift").
//!
//! With `--time-split` and `--autolearn`, the judged mails of the three groups are streamed in
//! Date order, interleaved, as mail arrives; each is judged once by the learners with what was
//! learned so far, then learned without the user (SpamAssassin's `bayes_auto_learn`) when the
//! engine's own verdict is confident: spam from `--al-spam` points with `--al-rules` of them
//! from the rules and both learners on the spam side; ham up to `--al-ham` points with both
//! learners on the ham side and at most `--al-ham-rules` points of rules firing. Learned as a
//! user's marking is (Bayes counts weighing `--al-weight`, one LR step at `--al-rate`); the
//! true label only counts how many were learned wrongly. Needs `--score sum` (the shipped
//! learners). Measured: docs/BENCHMARKS.md issue 18, "Auto-learning".
//!
//! `--feedback` streams the same way (with `--heldout`: the held-out groups, after training on
//! every training mail) but learns what a user who marks the engine's mistakes teaches: a spam
//! judged neither spam nor suspicious is marked spam, a ham judged either is marked "not spam"
//! (`spam::learn::Marking`), each as a marking weighs. It measures the engine in use, not the
//! shipped models: the held-out figure trains on the training groups only.
//!
//! With `--heldout`, the classifier is trained on all the training groups and judged on
//! spam-2 and easy-ham-2, as `examples/spam_eval.rs` judges the shipped model.

use std::collections::HashMap;
use std::path::Path;

use mailclient::mail::parse::parse_guarded;
use mailclient::spam::bayes::{self, Counts};
use mailclient::spam::checks::learned;
use mailclient::spam::engine::{self, Verdict};
use mailclient::spam::mail::Mail;
use mailclient::spam::profile::Profile;
use mailclient::spam::tokens;

mod corpus;
mod features;
mod judge;
mod lr;
mod streams;
mod tally;

use corpus::*;
use features::*;
use judge::*;
use streams::*;
use tally::*;

fn arg<T: std::str::FromStr>(name: &str) -> Option<T> {
    std::env::args()
        .skip_while(|a| a != name)
        .nth(1)
        .and_then(|v| v.parse().ok())
}

fn main() -> anyhow::Result<()> {
    let dir = std::env::args()
        .nth(1)
        .ok_or_else(|| anyhow::anyhow!("usage: spam_cv TRAINING_DIR [options]"))?;
    let feats = &Feats::from_args();
    let mut p = Knobs::default();
    if let Some(v) = arg("--s") {
        p.bayes.s = v;
    }
    if let Some(v) = arg("--min-dev") {
        p.bayes.min_strength = v;
    }
    if let Some(v) = arg("--max-disc") {
        p.bayes.max_discriminators = v;
    }
    if let Some(v) = arg("--min-clues") {
        p.bayes.min_clues = v;
    }
    if let Some(v) = arg("--balance") {
        p.bayes.balance = v;
    }
    if let Some(v) = arg("--spam-from") {
        p.spam_from = v;
    }
    let folds: usize = arg("--folds").unwrap_or(5);
    let started = std::time::Instant::now();
    let training = load(
        &dir,
        |n| {
            if n.starts_with("spam-1.") {
                Some(true)
            } else if n.starts_with("easy-ham-1.") || n.starts_with("hard-ham-1.") {
                Some(false)
            } else {
                None
            }
        },
        feats,
    )?;
    eprintln!(
        "{} training mails read in {:.1}s",
        training.len(),
        started.elapsed().as_secs_f64()
    );
    if let Some(eval) = arg::<String>("--heldout") {
        let table = train(training.iter());
        let model = train_lr(training.iter(), &table, &p, feats);
        let held = load(
            &eval,
            |n| {
                if n.starts_with("spam-2.") {
                    Some(true)
                } else if n.starts_with("easy-ham-2.") {
                    Some(false)
                } else {
                    None
                }
            },
            feats,
        )?;
        let show = std::env::args().any(|a| a == "--misses");
        if std::env::args().any(|a| a == "--feedback") {
            return autolearn(
                held.iter().collect(),
                &table,
                model.as_ref(),
                &p,
                feats,
                show,
                1.0,
                false,
                ["spam-2", "easy-ham-2", ""],
            );
        }
        let mut t = Tally::default();
        for it in &held {
            let (s, pts) = judge(it, &table, &model, &p, feats);
            t.add(it, (s, pts));
            if show && !it.spam && it.rules + pts >= 4.0 {
                println!(
                    "false {} s={:.3} rules={:.1} {:?}",
                    it.name,
                    s.unwrap_or(-1.0),
                    it.rules,
                    it.fired
                );
                let mut clues: Vec<(f64, &String)> = it
                    .tokens
                    .iter()
                    .zip(&it.names)
                    .filter_map(|(t, n)| {
                        let (a, b) = table.token(*t);
                        (a + b > 0)
                            .then(|| (bayes::probability(a, b, table.1.0, table.1.1, &p.bayes), n))
                    })
                    .collect();
                clues.sort_by(|a, b| (b.0 - 0.5).abs().total_cmp(&(a.0 - 0.5).abs()));
                for (f, n) in clues.iter().filter(|c| c.0 > 0.5).take(12) {
                    println!("    {f:.3} {n}");
                }
            }
            if show && it.spam && it.rules + pts < 4.0 {
                println!(
                    "miss {} s={:.3} rules={:.1}",
                    it.name,
                    s.unwrap_or(-1.0),
                    it.rules
                );
            }
        }
        println!("held out (trained on every training mail):");
        t.print(["spam-2", "easy-ham-2", ""]);
        return Ok(());
    }
    if std::env::args().any(|a| a == "--rules") {
        // How often each rule fires per group (rules do not learn: no folds needed).
        let mut by: std::collections::BTreeMap<&str, [usize; 3]> = Default::default();
        for it in &training {
            let g = if it.spam {
                0
            } else if it.name.starts_with("hard") {
                2
            } else {
                1
            };
            for (r, _) in &it.fired {
                by.entry(r).or_default()[g] += 1;
            }
        }
        println!("rule: spam-1 / easy-ham-1 / hard-ham-1");
        for (r, n) in by {
            println!("{r:28} {:4} {:4} {:4}", n[0], n[1], n[2]);
        }
        return Ok(());
    }
    let show_misses = std::env::args().any(|a| a == "--misses");
    if let Some(share) = arg::<f64>("--time-split") {
        return time_split(&training, share, &p, feats, show_misses);
    }
    // Fold by position in the sorted list (each group is spread over every fold).
    let mut t = Tally::default();
    for f in 0..folds {
        let rest = || {
            training
                .iter()
                .enumerate()
                .filter(|(i, _)| i % folds != f)
                .map(|(_, it)| it)
        };
        let table = train(rest());
        let model = train_lr(rest(), &table, &p, feats);
        for it in training
            .iter()
            .enumerate()
            .filter(|(i, _)| i % folds == f)
            .map(|(_, it)| it)
        {
            let (s, pts) = judge(it, &table, &model, &p, feats);
            t.add(it, (s, pts));
            if show_misses && it.spam && it.rules + pts < 4.0 {
                println!(
                    "miss {} s={:.3} rules={:.1} {:?}",
                    it.name,
                    s.unwrap_or(-1.0),
                    it.rules,
                    it.fired
                );
            }
        }
    }
    println!("{folds}-fold cross-validation over the training groups:");
    t.print(["spam-1", "easy-ham-1", "hard-ham-1"]);
    Ok(())
}
