//! Judging one mail: the engine's verdict with the learners' points (Bayes, the LR, their mixes).

use super::*;

pub(crate) fn train_lr<'a>(
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
pub(crate) fn band_feature(s: Option<f64>) -> Vec<u32> {
    s.map(|s| vec![((s * 20.0) as u32).min(19)])
        .unwrap_or_default()
}

/// A table without one mail's own tokens.
pub(crate) struct LeaveOut<'a>(pub(crate) &'a Table, pub(crate) &'a Item);

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
pub(crate) fn judge(
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
pub(crate) struct Knobs {
    pub(crate) bayes: bayes::Params,
    /// The spamminess from which the classifier alone makes a mail spam (4.5 points).
    pub(crate) spam_from: f64,
}

impl Default for Knobs {
    fn default() -> Self {
        Knobs {
            bayes: bayes::SHIPPED,
            spam_from: 0.9,
        }
    }
}

pub(crate) fn points_with(s: f64, p: &Knobs) -> f32 {
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
