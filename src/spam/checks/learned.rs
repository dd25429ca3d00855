//! The learning classifiers' opinions in points. The Bayes classifier's with SpamBayes'
//! cutoffs: from 0.9 it is spam by itself (4.5 points over the default threshold of 4), the
//! spammy part of the unsure band earns up to 3, an opinion near 0.5 is worth nothing, and a
//! mail much like the user's good mail loses up to 1.5. The logistic regression beside it
//! (`spam::lr`, over the same tokens) is a second check: ¾ of those steps, moved down to its
//! own cutoff of 0.6 (chosen by cross-validation, docs/BENCHMARKS.md issue 18), so neither
//! learner alone is enough for spam unless it is sure, and the two agreeing are.

use super::{Found, Rule};
use crate::spam::mail::Mail;
use crate::spam::profile::Profile;
use crate::spam::tokens;
use crate::spam::{bayes, lr};

pub const BAYES: Rule = Rule {
    id: "BAYES",
    label: "המסווג הלומד (לפי מה שסומן כספאם וכתקין)",
};

/// (spamminess from, points), checked from the top.
const STEPS: &[(f64, f32)] = &[
    (0.90, 4.5),
    (0.80, 3.0),
    (0.70, 2.0),
    (0.60, 1.0),
    // Not knowing (mail in a language the model has not learned yet) is no evidence.
    (0.40, 0.0),
    (0.20, -0.5),
    (0.05, -1.0),
    (0.0, -1.5),
];

pub const LR: Rule = Rule {
    id: "LR",
    label: "המסווג הלומד השני (רגרסיה לוגיסטית על אותן מילים)",
};

/// The logistic regression's steps: ¾ of the points above, from 0.6.
const LR_STEPS: &[(f64, f32)] = &[
    (0.600, 3.375),
    (0.575, 2.25),
    (0.550, 1.5),
    (0.525, 0.75),
    (0.40, 0.0),
    (0.20, -0.375),
    (0.05, -0.75),
    (0.0, -1.125),
];

fn on_steps(steps: &[(f64, f32)], spamminess: f64) -> f32 {
    steps
        .iter()
        .find(|(from, _)| spamminess >= *from)
        .map_or(0.0, |(_, p)| *p)
}

pub fn points(spamminess: f64) -> f32 {
    on_steps(STEPS, spamminess)
}

pub fn lr_points(spamminess: f64) -> f32 {
    on_steps(LR_STEPS, spamminess)
}

pub fn check(mail: &Mail<'_>, p: &Profile, found: &mut Found) {
    let tokens = tokens::of(mail);
    if let Some(s) = bayes::spamminess(&tokens, &p.counts()) {
        found.spamminess = Some(s);
        let pts = points(s);
        if pts != 0.0 {
            found.hit(&BAYES, pts, format!("{:.3}", s));
        }
    }
    if let Some(s) = lr::spamminess(&lr::of_tokens(&tokens), &lr::BASE, &p.lr) {
        let pts = lr_points(s);
        if pts != 0.0 {
            found.hit(&LR, pts, format!("{:.3}", s));
        }
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_lr_steps_are_three_quarters_of_the_bayes_steps_from_0_6() {
        for (i, (from, pts)) in super::LR_STEPS.iter().enumerate() {
            let (bfrom, bpts) = super::STEPS[i];
            assert_eq!(*pts, bpts * 0.75);
            // The spammy steps squeezed from 0.5–0.9 into 0.5–0.6; the others as they were.
            let want = if bfrom > 0.5 {
                0.5 + (bfrom - 0.5) / 4.0
            } else {
                bfrom
            };
            assert!((from - want).abs() < 1e-9, "{from} vs {want}");
        }
        assert_eq!(super::lr_points(0.9), 3.375);
        assert_eq!(super::lr_points(0.5), 0.0);
    }
}
