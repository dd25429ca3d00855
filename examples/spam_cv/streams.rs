//! `--time-split`, `--autolearn` and `--feedback`: the judged mails streamed in Date order.

use super::*;

/// Drift over time, imitated: each training group (spam-1, easy-ham-1, hard-ham-1) sorted by
/// its mails' Date header (a missing or unreadable one counts as the oldest; ties by file
/// order), the newest `share` of each judged by learners trained on the older rest of all three.
pub(crate) fn time_split(
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
pub(crate) struct AutoKnobs {
    /// Learned as spam from this score (`--al-spam`), with at least `rules` points from the
    /// rule checks (`--al-rules`) and both learners on the spam side.
    pub(crate) spam: f32,
    pub(crate) rules: f32,
    /// Learned as ham up to this score (`--al-ham`), with no rule over `ham_rules` points in
    /// all (`--al-ham-rules`).
    pub(crate) ham: f32,
    pub(crate) ham_rules: f32,
    /// A learned mail's Bayes counts weigh this many corpus mails (`--al-weight`, 3 as a
    /// user's marking), the LR's step rate (`--al-rate`, 0.5 as a user's marking).
    pub(crate) weight: u32,
    pub(crate) rate: f32,
    /// `--al-no-ham` / `--al-no-spam`: learn one side only.
    pub(crate) learn_ham: bool,
    pub(crate) learn_spam: bool,
    /// `--al-learners bayes|lr|both`: which learners learn (both, as a marking).
    pub(crate) learners: String,
    /// `--feedback`: learn the true class of the engine's mistakes instead (a user marking).
    pub(crate) feedback: bool,
}

impl AutoKnobs {
    pub(crate) fn from_args() -> Self {
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
pub(crate) fn autolearn(
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
