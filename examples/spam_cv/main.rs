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

mod lr;

struct Item {
    name: String,
    spam: bool,
    /// The engine's points without the classifier's.
    rules: f32,
    advertisement: bool,
    tokens: Vec<u32>,
    names: Vec<String>,
    /// The rules that fired (not the classifier), with their points.
    fired: Vec<(&'static str, f32)>,
    /// The logistic regression's features (`--score` other than bayes).
    lr: Vec<u32>,
    /// The Date header (seconds since 1970; none: 0, the oldest), for `--time-split`.
    date: i64,
}

struct Table(HashMap<u32, (u32, u32)>, (u32, u32));

impl bayes::Counts for Table {
    fn token(&self, t: u32) -> (u32, u32) {
        self.0.get(&t).copied().unwrap_or((0, 0))
    }
    fn totals(&self) -> (u32, u32) {
        self.1
    }
}

fn load(
    dir: &str,
    keep: impl Fn(&str) -> Option<bool>,
    feats: &Feats,
) -> anyhow::Result<Vec<Item>> {
    let mut names: Vec<_> = std::fs::read_dir(dir)?
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    let profile = Profile::default();
    let mut out = Vec::new();
    for name in names {
        let Some(spam) = keep(&name) else { continue };
        let raw = std::fs::read(Path::new(dir).join(&name))?;
        let msg = parse_guarded(&raw);
        let mail = Mail::of(msg.as_ref(), &raw, None);
        let r = engine::judge(&mail, &profile);
        // The learners' points are the fold's own, not the shipped models'.
        let learner = |rule: &str| rule == learned::BAYES.id || rule == learned::LR.id;
        let rules: f32 = r
            .hits
            .iter()
            .filter(|h| !learner(h.rule))
            .map(|h| h.points)
            .sum();
        let (tokens, names) = tokenize(&mail, msg.as_ref(), feats);
        let lr = if feats.score == "bayes" {
            Vec::new()
        } else {
            lr::features(&raw, &mail, &tokens, &feats.lr)
        };
        let mut rules = rules;
        let extra = extra_rules(&mail, feats);
        rules += extra.iter().map(|e| e.1).sum::<f32>();
        let fired = r
            .hits
            .iter()
            .filter(|h| !learner(h.rule) && h.points != 0.0)
            .map(|h| (h.rule, h.points))
            .chain(extra)
            .collect();
        let date = msg
            .as_ref()
            .and_then(|m| m.date())
            .map_or(0, |d| d.to_timestamp());
        out.push(Item {
            date,
            fired,
            name,
            spam,
            rules,
            advertisement: r.advertisement,
            tokens,
            names,
            lr,
        });
    }
    Ok(out)
}

fn train<'a>(items: impl Iterator<Item = &'a Item>) -> Table {
    let mut t = Table(HashMap::new(), (0, 0));
    for it in items {
        for tok in &it.tokens {
            let e = t.0.entry(*tok).or_default();
            if it.spam {
                e.0 += 1;
            } else {
                e.1 += 1;
            }
        }
        if it.spam {
            t.1.0 += 1;
        } else {
            t.1.1 += 1;
        }
    }
    t
}

#[derive(Default)]
struct Tally {
    /// [spam, easy ham, hard ham] × [spam, suspicious, ad, clean]
    n: [[usize; 4]; 3],
    deciles: [[usize; 10]; 3],
}

impl Tally {
    fn add(&mut self, it: &Item, (s, bayes): (Option<f64>, f32)) {
        let group = if it.spam {
            0
        } else if it.name.starts_with("hard-ham") {
            2
        } else {
            1
        };
        let score = ((it.rules + bayes) * 10.0).round() / 10.0;
        // The engine's verdict at the default thresholds (engine::judge).
        let v = if score >= 4.0 {
            Verdict::Spam
        } else if it.advertisement {
            Verdict::Advertisement
        } else if score >= 2.0 {
            Verdict::Suspicious
        } else {
            Verdict::Clean
        };
        let col = match v {
            Verdict::Spam => 0,
            Verdict::Suspicious => 1,
            Verdict::Advertisement => 2,
            Verdict::Clean => 3,
        };
        self.n[group][col] += 1;
        if let Some(s) = s {
            self.deciles[group][((s * 10.0) as usize).min(9)] += 1;
        }
    }

    fn total(&self) -> usize {
        self.n.iter().flatten().sum()
    }

    fn print(&self, label: [&str; 3]) {
        for (g, l) in label.iter().enumerate() {
            let total: usize = self.n[g].iter().sum();
            if total == 0 {
                continue;
            }
            let pct = |x: usize| 100.0 * x as f64 / total as f64;
            println!(
                "{l:>10}: {total:5}  spam {:5} ({:5.1}%)  susp {:4}  ad {:4}  clean {:5}  | {} per 1,000 as spam  | deciles {:?}",
                self.n[g][0],
                pct(self.n[g][0]),
                self.n[g][1],
                self.n[g][2],
                self.n[g][3],
                format_args!("{:.1}", 10.0 * pct(self.n[g][0])),
                self.deciles[g]
            );
        }
    }
}

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

/// Drift over time, imitated: each training group (spam-1, easy-ham-1, hard-ham-1) sorted by
/// its mails' Date header (a missing or unreadable one counts as the oldest; ties by file
/// order), the newest `share` of each judged by learners trained on the older rest of all three.
fn time_split(
    training: &[Item],
    share: f64,
    p: &Knobs,
    feats: &Feats,
    show_misses: bool,
) -> anyhow::Result<()> {
    // `--oldest`: the oldest share judged instead (spam-2 is mostly older than spam-1).
    let oldest = std::env::args().any(|a| a == "--oldest");
    let mut newest = vec![false; training.len()];
    for group in ["spam-1.", "easy-ham-1.", "hard-ham-1."] {
        let mut idx: Vec<usize> = (0..training.len())
            .filter(|i| training[*i].name.starts_with(group))
            .collect();
        idx.sort_by_key(|i| (training[*i].date, *i));
        if oldest {
            idx.reverse();
        }
        let cut = idx.len() - (idx.len() as f64 * share).round() as usize;
        for i in &idx[cut..] {
            newest[*i] = true;
        }
    }
    let older = || {
        training
            .iter()
            .zip(&newest)
            .filter(|(_, n)| !**n)
            .map(|(it, _)| it)
    };
    let table = train(older());
    let model = train_lr(older(), &table, p, feats);
    if std::env::args().any(|a| a == "--autolearn" || a == "--feedback") {
        let judged: Vec<&Item> = training
            .iter()
            .zip(&newest)
            .filter(|(_, n)| **n)
            .map(|(it, _)| it)
            .collect();
        return autolearn(
            judged,
            &table,
            model.as_ref(),
            p,
            feats,
            show_misses,
            share,
            oldest,
            ["spam-1", "easy-ham-1", "hard-ham-1"],
        );
    }
    let mut t = Tally::default();
    for it in training
        .iter()
        .zip(&newest)
        .filter(|(_, n)| **n)
        .map(|(it, _)| it)
    {
        let (s, pts) = judge(it, &table, &model, p, feats);
        t.add(it, (s, pts));
        // A spam judged below the spam threshold, or a ham at or above it.
        let wrong = it.spam != (it.rules + pts >= 4.0);
        if show_misses && wrong {
            println!(
                "{} {} s={:.3} bayes={:.3} rules={:.1} {:?}",
                if it.spam { "miss" } else { "false" },
                it.name,
                s.unwrap_or(-1.0),
                bayes::spamminess_with(&it.tokens, &table, &p.bayes).unwrap_or(-1.0),
                it.rules,
                it.fired
            );
        }
    }
    println!(
        "time split: the {} {:.0}% of each group judged, trained on the rest:",
        if oldest { "oldest" } else { "newest" },
        share * 100.0
    );
    t.print(["spam-1", "easy-ham-1", "hard-ham-1"]);
    Ok(())
}

/// Auto-learning's knobs (`--al-…`): what the engine's own verdict must be for a mail to be
/// learned without the user, and how much one such mail weighs.
struct AutoKnobs {
    /// Learned as spam from this score (`--al-spam`), with at least `rules` points from the
    /// rule checks (`--al-rules`) and both learners on the spam side.
    spam: f32,
    rules: f32,
    /// Learned as ham up to this score (`--al-ham`), with no rule over `ham_rules` points in
    /// all (`--al-ham-rules`).
    ham: f32,
    ham_rules: f32,
    /// A learned mail's Bayes counts weigh this many corpus mails (`--al-weight`, 3 as a
    /// user's marking), the LR's step rate (`--al-rate`, 0.5 as a user's marking).
    weight: u32,
    rate: f32,
    /// `--al-no-ham` / `--al-no-spam`: learn one side only.
    learn_ham: bool,
    learn_spam: bool,
    /// `--al-learners bayes|lr|both`: which learners learn (both, as a marking).
    learners: String,
    /// `--feedback`: learn the true class of the engine's mistakes instead (a user marking).
    feedback: bool,
}

impl AutoKnobs {
    fn from_args() -> Self {
        AutoKnobs {
            spam: arg("--al-spam").unwrap_or(8.0),
            rules: arg("--al-rules").unwrap_or(1.0),
            ham: arg("--al-ham").unwrap_or(-1.5),
            ham_rules: arg("--al-ham-rules").unwrap_or(0.5),
            weight: arg("--al-weight").unwrap_or(bayes::USER_WEIGHT),
            rate: arg("--al-rate").unwrap_or(0.5),
            learn_ham: !std::env::args().any(|a| a == "--al-no-ham"),
            learn_spam: !std::env::args().any(|a| a == "--al-no-spam"),
            learners: arg("--al-learners").unwrap_or_else(|| "both".into()),
            feedback: std::env::args().any(|a| a == "--feedback"),
        }
    }
}

/// Auto-learning, imitated over the time split: the judged mails of the three groups streamed
/// in Date order, interleaved, as mail arrives; each judged once by the learners with what was
/// learned so far, then, when the engine's own verdict is confident (never the true label),
/// learned as a user's marking is (Bayes counts over the fold's, one LR step over its weights).
#[allow(clippy::too_many_arguments)]
fn autolearn(
    mut judged: Vec<&Item>,
    table: &Table,
    model: Option<&lr::Model>,
    p: &Knobs,
    f: &Feats,
    show_misses: bool,
    share: f64,
    oldest: bool,
    groups: [&str; 3],
) -> anyhow::Result<()> {
    let Some(model) = model else {
        anyhow::bail!("--autolearn and --feedback need --score sum (the shipped two learners)");
    };
    anyhow::ensure!(
        f.score == "sum",
        "--autolearn and --feedback need --score sum"
    );
    let k = AutoKnobs::from_args();
    judged.sort_by_key(|it| it.date);
    let mut counts: HashMap<u32, (u32, u32)> = HashMap::new();
    let mut totals = (0u32, 0u32);
    let mut deltas: HashMap<u32, f32> = HashMap::new();
    let mut dbias = 0.0f32;
    let lr_knobs = Knobs {
        bayes: p.bayes,
        spam_from: f.lr_from.unwrap_or(p.spam_from),
    };
    let mut t = Tally::default();
    // Learned as spam / ham, and of them how many were the other class (for the report only).
    let (mut as_spam, mut as_spam_wrong, mut as_ham, mut as_ham_wrong) = (0, 0, 0, 0);
    for it in judged {
        let over = bayes::Layered {
            base: table,
            user: &counts,
            user_totals: totals,
        };
        let b = bayes::spamminess_with(&it.tokens, &over, &p.bayes);
        let w = &model.weights;
        let margin = mailclient::spam::lr::margin(&it.lr, w.bias + dbias, |x| {
            w.w[x as usize] + deltas.get(&x).copied().unwrap_or(0.0)
        });
        let l = f64::from(mailclient::spam::lr::sigmoid(margin));
        let bpts = b.map_or(0.0, |b| points_with(b, p));
        let lpts = f.lr_points * points_with(l, &lr_knobs);
        let pts = bpts + lpts;
        t.add(it, (Some(l), pts));
        let score = ((it.rules + pts) * 10.0).round() / 10.0;
        if show_misses && it.spam != (score >= 4.0) {
            println!(
                "{} {} bayes={:.3} lr={l:.3} rules={:.1} {:?}",
                if it.spam { "miss" } else { "false" },
                it.name,
                b.unwrap_or(-1.0),
                it.rules,
                it.fired
            );
        }
        // The engine's confidence, from what it sees: the score, the rules' part of it, and
        // both learners on the same side.
        let positive_rules: f32 = it.fired.iter().map(|r| r.1).filter(|x| *x > 0.0).sum();
        let learn = if k.feedback {
            // What the user sees: spam and suspicious mail in the Spam folder.
            let flagged = score >= 2.0;
            (it.spam != flagged).then_some(it.spam)
        } else if k.learn_spam && score >= k.spam && it.rules >= k.rules && bpts > 0.0 && lpts > 0.0
        {
            Some(true)
        } else if k.learn_ham
            && score <= k.ham
            && positive_rules <= k.ham_rules
            && bpts < 0.0
            && lpts < 0.0
        {
            Some(false)
        } else {
            None
        };
        let Some(spam) = learn else { continue };
        if spam {
            as_spam += 1;
            as_spam_wrong += usize::from(!it.spam);
        } else {
            as_ham += 1;
            as_ham_wrong += usize::from(it.spam);
        }
        if k.learners != "lr" {
            for tok in &it.tokens {
                let e = counts.entry(*tok).or_default();
                if spam {
                    e.0 += k.weight;
                } else {
                    e.1 += k.weight;
                }
            }
            if spam {
                totals.0 += k.weight;
            } else {
                totals.1 += k.weight;
            }
        }
        if k.learners == "bayes" {
            continue;
        }
        // One online step, as a user's marking takes (`spam::lr::learn`).
        let g = mailclient::spam::lr::gradient(
            mailclient::spam::lr::sigmoid(margin),
            spam,
            k.rate,
            f.lr.spam_weight,
        );
        let (each, bias_step) = mailclient::spam::lr::step(it.lr.len(), g);
        for x in &it.lr {
            *deltas.entry(*x).or_default() += each;
        }
        dbias += bias_step;
    }
    if k.feedback {
        println!(
            "the user marking the engine's mistakes (weight {}, rate {}), streamed by Date:",
            k.weight, k.rate
        );
        t.print(groups);
        println!(
            "marked: {as_spam} as spam, {as_ham} as not spam ({} mistakes of {} mails)",
            as_spam + as_ham,
            t.total()
        );
        return Ok(());
    }
    println!(
        "time split with auto-learning (spam from {} with rules from {}, ham to {} with rules to {}; weight {}, rate {}): the {} {:.0}% streamed by Date:",
        k.spam,
        k.rules,
        k.ham,
        k.ham_rules,
        k.weight,
        k.rate,
        if oldest { "oldest" } else { "newest" },
        share * 100.0
    );
    t.print(groups);
    println!(
        "auto-learned: {as_spam} as spam ({as_spam_wrong} of them ham), {as_ham} as ham ({as_ham_wrong} of them spam)"
    );
    Ok(())
}

fn train_lr<'a>(
    items: impl Iterator<Item = &'a Item>,
    table: &Table,
    p: &Knobs,
    f: &Feats,
) -> Option<lr::Model> {
    if f.score == "bayes" {
        return None;
    }
    let items: Vec<&Item> = items.collect();
    // Stacked: each training mail's Bayes opinion as a feature, from the counts without that
    // mail (leave-one-out, exact: counts add up).
    let extra: Vec<Vec<u32>> = items
        .iter()
        .map(|it| {
            if f.score != "stack" {
                return Vec::new();
            }
            let own = LeaveOut(table, it);
            band_feature(bayes::spamminess_with(&it.tokens, &own, &p.bayes))
        })
        .collect();
    let mails: Vec<(&[u32], &[u32], bool)> = items
        .iter()
        .zip(&extra)
        .map(|(it, e)| (it.lr.as_slice(), e.as_slice(), it.spam))
        .collect();
    let mut m = lr::Model::new(f.lr.bits);
    m.train(&mails, &f.lr);
    Some(m)
}

/// The Bayes opinion in 20 bands, as one of the LR's extra features.
fn band_feature(s: Option<f64>) -> Vec<u32> {
    s.map(|s| vec![((s * 20.0) as u32).min(19)])
        .unwrap_or_default()
}

/// A table without one mail's own tokens.
struct LeaveOut<'a>(&'a Table, &'a Item);

impl bayes::Counts for LeaveOut<'_> {
    fn token(&self, t: u32) -> (u32, u32) {
        let (s, h) = self.0.token(t);
        if !self.1.tokens.contains(&t) {
            return (s, h);
        }
        if self.1.spam {
            (s.saturating_sub(1), h)
        } else {
            (s, h.saturating_sub(1))
        }
    }
    fn totals(&self) -> (u32, u32) {
        let (s, h) = self.0.totals();
        if self.1.spam { (s - 1, h) } else { (s, h - 1) }
    }
}

/// The learners' opinion of one mail: the spamminess shown in the deciles, and its points.
fn judge(
    it: &Item,
    table: &Table,
    model: &Option<lr::Model>,
    p: &Knobs,
    f: &Feats,
) -> (Option<f64>, f32) {
    let b = bayes::spamminess_with(&it.tokens, table, &p.bayes);
    let extra = if f.score == "stack" {
        band_feature(b)
    } else {
        Vec::new()
    };
    let l = model.as_ref().map(|m| f64::from(m.score(&it.lr, &extra)));
    // `--neg-scale`: the learners' ham points (below zero) times this.
    let neg = |x: f32| if x < 0.0 { x * f.neg_scale } else { x };
    let pts = |s: Option<f64>| s.map_or(0.0, |s| neg(points_with(s, p)));
    let lr_knobs = Knobs {
        bayes: p.bayes,
        spam_from: f.lr_from.unwrap_or(p.spam_from),
    };
    let lpts = |s: Option<f64>| s.map_or(0.0, |s| neg(points_with(s, &lr_knobs)));
    match (f.score.as_str(), b, l) {
        ("lr" | "stack", _, Some(l)) => (Some(l), lpts(Some(l))),
        ("avg", Some(b), Some(l)) => (Some((b + l) / 2.0), pts(Some((b + l) / 2.0))),
        // Each learner its own check, at half the points.
        ("halves", b, Some(l)) => (Some(l), (pts(b) + lpts(Some(l))) / 2.0),
        // Each learner its own check, LR's points at f.lr_points of the full steps.
        ("sum", b, Some(l)) => (Some(l), pts(b) + f.lr_points * lpts(Some(l))),
        _ => (b, pts(b)),
    }
}

/// The classifier's knobs (`bayes::SHIPPED` are the shipped values) and the points its
/// opinion earns (src/spam/checks/learned.rs).
struct Knobs {
    bayes: bayes::Params,
    /// The spamminess from which the classifier alone makes a mail spam (4.5 points).
    spam_from: f64,
}

impl Default for Knobs {
    fn default() -> Self {
        Knobs {
            bayes: bayes::SHIPPED,
            spam_from: 0.9,
        }
    }
}

fn points_with(s: f64, p: &Knobs) -> f32 {
    if (p.spam_from - 0.9).abs() < 1e-9 {
        return learned::points(s);
    }
    // The spammy steps moved down with `spam_from`, evenly.
    let span = p.spam_from - 0.5;
    let steps: [(f64, f32); 8] = [
        (p.spam_from, 4.5),
        (0.5 + span * 0.75, 3.0),
        (0.5 + span * 0.5, 2.0),
        (0.5 + span * 0.25, 1.0),
        (0.40, 0.0),
        (0.20, -0.5),
        (0.05, -1.0),
        (0.0, -1.5),
    ];
    steps
        .iter()
        .find(|(from, _)| s >= *from)
        .map_or(0.0, |(_, p)| *p)
}

/// Which token kinds to add to (`--feat a,b`) or drop from (`--drop prefix,…`) the shipped
/// tokenizer's.
struct Feats {
    add: Vec<String>,
    drop: Vec<String>,
    /// bayes (as shipped), lr, avg, halves, sum, stack.
    score: String,
    lr: lr::Params,
    lr_points: f32,
    /// The LR's own spam cutoff (`--lr-from`; else `--spam-from`).
    lr_from: Option<f64>,
    /// The learners' ham points (below zero) times this (`--neg-scale`, 1 as shipped).
    neg_scale: f32,
}

impl Feats {
    fn from_args() -> Self {
        let list = |name: &str| -> Vec<String> {
            arg::<String>(name)
                .map(|v| v.split(',').map(str::to_string).collect())
                .unwrap_or_default()
        };
        let mut l = lr::DEFAULTS;
        if let Some(v) = arg("--lr-bits") {
            l.bits = v;
        }
        if let Some(v) = arg("--lr-raw") {
            l.raw_bytes = v;
        }
        if let Some(v) = arg("--lr-body") {
            l.body_bytes = v;
        }
        if let Some(v) = arg("--lr-text") {
            l.text_chars = v;
        }
        if let Some(v) = arg::<u8>("--lr-tokens") {
            l.tokens = v == 1;
        }
        if let Some(v) = arg("--lr-rate") {
            l.rate = v;
        }
        if let Some(v) = arg("--lr-epochs") {
            l.epochs = v;
        }
        if let Some(v) = arg("--lr-spam-weight") {
            l.spam_weight = v;
        }
        Feats {
            add: list("--feat"),
            drop: list("--drop"),
            score: arg("--score").unwrap_or_else(|| "bayes".into()),
            lr: l,
            lr_points: arg("--lr-points").unwrap_or(1.0),
            lr_from: arg("--lr-from"),
            neg_scale: arg("--neg-scale").unwrap_or(1.0),
        }
    }
    fn on(&self, f: &str) -> bool {
        self.add.iter().any(|a| a == f)
    }
}

fn tokenize(
    mail: &Mail<'_>,
    msg: Option<&mail_parser::Message<'_>>,
    f: &Feats,
) -> (Vec<u32>, Vec<String>) {
    let mut seen = std::collections::HashSet::new();
    let mut out = Vec::new();
    let mut names = Vec::new();
    for (h, name) in tokens::named(mail) {
        let prefix = name.split(':').next().unwrap_or("");
        if f.drop.iter().any(|d| d == prefix) {
            continue;
        }
        if seen.insert(h) {
            out.push(h);
            names.push(name);
        }
    }
    let mut add = |prefix: &str, word: &str| {
        let h = tokens::hash(prefix, word);
        if seen.insert(h) {
            out.push(h);
            names.push(format!("{prefix}:{word}"));
        }
    };
    extras(mail, msg, f, &mut add);
    (out, names)
}

/// Rules tried here before they become checks (`--feat rule-…`).
fn extra_rules(mail: &Mail<'_>, f: &Feats) -> Vec<(&'static str, f32)> {
    let mut out = Vec::new();
    if f.on("rule-subjtag") {
        // A subject padded with spaces, then a tracking tag ("Get paid …          18436").
        let s = mail.subject.trim_end();
        if let Some((head, tag)) = s.rsplit_once(char::is_whitespace) {
            let pad = head.len() - head.trim_end().len();
            if pad >= 2
                && (3..=12).contains(&tag.len())
                && tag.chars().all(|c| c.is_ascii_alphanumeric())
                && tag.chars().any(|c| c.is_ascii_digit())
            {
                out.push(("SUBJ_TRACKING_TAG", 1.5));
            }
        }
    }
    if f.on("rule-phrases") {
        const MORE: &[&str] = &[
            "remove in the subject",
            "one time mailing",
            "sent in compliance",
            "no longer wish to receive",
            "100% guaranteed",
            "extra income",
            "home based business",
            "money order",
            "financial freedom",
            "lowest rates",
            "dear sir",
            "apologize for any inconvenience",
            "bulk email",
            "email marketing",
            "limited time",
            "to be removed from",
            "no risk",
        ];
        let folded = mail.folded();
        let n = MORE.iter().filter(|p| folded.contains(*p)).count().min(3);
        if n > 0 {
            out.push(("SPAM_PHRASE_MORE", 0.6 * n as f32));
        }
    }
    out
}

fn words(text: &str) -> impl Iterator<Item = &str> {
    text.split(|c: char| !(c.is_alphanumeric() || matches!(c, '$' | '!' | '\'' | '%')))
        .map(|w| w.trim_matches('\''))
        .filter(|w| {
            let n = w.chars().count();
            (3..=20).contains(&n)
        })
}

fn bucket(n: usize) -> String {
    match n {
        0 => "0".into(),
        1 => "1".into(),
        2..=3 => "2-3".into(),
        4..=7 => "4-7".into(),
        8..=15 => "8-15".into(),
        _ => "16+".into(),
    }
}

fn extras(
    mail: &Mail<'_>,
    msg: Option<&mail_parser::Message<'_>>,
    f: &Feats,
    add: &mut dyn FnMut(&str, &str),
) {
    use mail_parser::MimeHeaders;
    let Some(msg) = msg else { return };
    if f.on("fromname") {
        let n = mailclient::search::analyzer::fold_text(&mail.from_name);
        if n.is_empty() {
            add("fromname", "none");
        }
        for w in words(&n) {
            add("fromname", w);
        }
    }
    if f.on("html-tags") {
        // Version 1's HTML tag and attribute names (dropped in version 2).
        let mut rest = mail.html.as_str();
        let mut seen = 0;
        while let Some(i) = rest.find('<') {
            rest = &rest[i + 1..];
            let end = rest.find('>').unwrap_or(rest.len()).min(400);
            let tag = &rest[..end];
            if let Some(name) = tag.split(|c: char| c.is_whitespace() || c == '=').next() {
                let name = name.trim_start_matches('/').to_ascii_lowercase();
                if !name.is_empty()
                    && name.len() <= 12
                    && name.chars().all(|c| c.is_ascii_alphanumeric())
                {
                    add("tag", &name);
                }
            }
            for attr in tag.split_whitespace().skip(1) {
                if let Some((a, _)) = attr.split_once('=') {
                    let a = a.to_ascii_lowercase();
                    if a.len() <= 15 && a.chars().all(|c| c.is_ascii_alphabetic() || c == '-') {
                        add("attr", &a);
                    }
                }
            }
            seen += 1;
            if seen > 2_000 {
                break;
            }
        }
    }
    if f.on("cte") {
        for part in msg.parts.iter().take(50) {
            if let Some(e) = part.content_transfer_encoding() {
                add("cte", &e.to_ascii_lowercase());
            }
        }
    }
    if f.on("charset") {
        for part in msg.parts.iter().take(50) {
            if let Some(c) = part.content_type().and_then(|c| c.attribute("charset")) {
                add("charset", &c.to_ascii_lowercase());
            }
        }
    }
    if f.on("mailer") {
        if let Some(m) = mail.header("x-mailer").or(mail.header("user-agent")) {
            let m: String = m
                .to_ascii_lowercase()
                .chars()
                .map(|c| if c.is_ascii_digit() { '9' } else { c })
                .take(40)
                .collect();
            add("mailerfull", &m);
            for w in words(&m) {
                add("mailerw", w);
            }
        } else {
            add("mailer", "none");
        }
    }
    if f.on("msgid") {
        match &mail.message_id {
            None => add("msgid", "none"),
            Some(id) => {
                let id = id.trim().trim_start_matches('<').trim_end_matches('>');
                match id.rsplit_once('@') {
                    Some((local, dom)) => {
                        let dom = dom.to_ascii_lowercase();
                        if !mail.from_domain.is_empty()
                            && mailclient::spam::checks::site(&dom)
                                == mailclient::spam::checks::site(&mail.from_domain)
                        {
                            add("msgid", "from-site");
                        }
                        if !dom.contains('.') {
                            add("msgid", "nodot");
                        }
                        add("msgidshape", &ascii_shape(local));
                    }
                    None => add("msgid", "no-at"),
                }
            }
        }
    }
    if f.on("date")
        && let Some(d) = mail.header("date")
    {
        add("dateshape", &ascii_shape(d));
    }
    if f.on("hdrcase") {
        for h in msg.headers().iter().take(100) {
            let n = h.name();
            if n.starts_with("X-") || n.starts_with("x-") {
                add("hcase", n);
            }
        }
    }
    if f.on("hcount") {
        add("hcount", &bucket(msg.headers().len() / 2));
    }
    if f.on("bigram") {
        let folded = mailclient::search::analyzer::fold_text(&mail.text);
        let mut prev: Option<&str> = None;
        let mut k = 0;
        for w in words(&folded) {
            if let Some(p) = prev {
                add("bi", &format!("{p} {w}"));
                k += 1;
                if k > 700 {
                    break;
                }
            }
            prev = Some(w);
        }
    }
    if f.on("emails") {
        let mut n = 0;
        for w in mail.text.split_whitespace() {
            if let Some((_, d)) = w
                .trim_matches(|c: char| !c.is_alphanumeric())
                .split_once('@')
                && d.contains('.')
            {
                n += 1;
                if n <= 20 {
                    add("emaild", &d.to_ascii_lowercase());
                }
            }
        }
    }
    if f.on("size") {
        add("textlen", &bucket(mail.text.len() / 500));
        add(
            "htmlonly",
            if mail.plain.trim().is_empty() && !mail.html.is_empty() {
                "yes"
            } else {
                "no"
            },
        );
    }
    if f.on("shapes") {
        // Shapes that do not depend on the words of one season's campaigns.
        let text = &mail.text;
        let (mut money, mut pct, mut excl, mut upper, mut letters) = (0, 0, 0, 0, 0);
        for w in text.split_whitespace().take(5_000) {
            let w = w.trim_matches(|c: char| matches!(c, '.' | ',' | ')' | '(' | ':' | ';'));
            if w.starts_with('$') && w[1..].starts_with(|c: char| c.is_ascii_digit()) {
                money += 1;
            }
            if w.ends_with('%') && w[..w.len() - 1].chars().all(|c| c.is_ascii_digit()) {
                pct += 1;
            }
        }
        for c in text.chars().take(20_000) {
            if c == '!' {
                excl += 1;
            }
            if c.is_alphabetic() {
                letters += 1;
                if c.is_uppercase() {
                    upper += 1;
                }
            }
        }
        add("money", &bucket(money));
        add("pct", &bucket(pct));
        add("excl", &bucket(excl));
        if letters > 0 {
            add("upperpct", &((upper * 10 / letters).min(5)).to_string());
        }
        let folded = mail.folded();
        for p in [
            "1-800", "1-888", "1-877", "1-866", "(800)", "(888)", "(877)", "(866)",
        ] {
            if folded.contains(p) {
                add("tollfree", "yes");
                break;
            }
        }
        let mut hosts: Vec<&str> = mail
            .links
            .iter()
            .map(|l| l.host.as_str())
            .filter(|h| !h.is_empty())
            .collect();
        add("links", &bucket(mail.links.len()));
        hosts.sort_unstable();
        hosts.dedup();
        add("linkhosts", &bucket(hosts.len()));
        for h in hosts.iter().take(20) {
            if let Some(tld) = h.rsplit('.').next() {
                add("tld", tld);
            }
            if h.chars().any(|c| c.is_ascii_digit()) {
                add("hostshape", "digits");
            }
            add("hostlabels", &h.split('.').count().min(5).to_string());
        }
    }
    if f.on("replyto")
        && let Some(d) = &mail.reply_to_domain
    {
        add("replytod", d);
        if *d != mail.from_domain {
            add("replyto", "other-domain");
        }
    }
}

/// Digits as 9, ASCII letters as a, runs squeezed (`<20020801.123@x>`'s `9.9`).
fn ascii_shape(s: &str) -> String {
    let mut out = String::new();
    for c in s.chars() {
        let c = if c.is_ascii_digit() {
            '9'
        } else if c.is_ascii_alphabetic() {
            'a'
        } else {
            c
        };
        if !out.ends_with(c) {
            out.push(c);
        }
    }
    out
}
