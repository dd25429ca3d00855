//! The learning classifier's opinion in points, with SpamBayes' cutoffs: from 0.9 it is spam
//! by itself (4.5 points over the default threshold of 4), the spammy part of the unsure band
//! earns up to 3, an opinion near 0.5 is worth nothing, and a mail much like the user's good
//! mail loses up to 1.5.

use super::{Found, Rule};
use crate::spam::bayes;
use crate::spam::mail::Mail;
use crate::spam::profile::Profile;
use crate::spam::tokens;

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

pub fn points(spamminess: f64) -> f32 {
    STEPS
        .iter()
        .find(|(from, _)| spamminess >= *from)
        .map_or(0.0, |(_, p)| *p)
}

pub fn check(mail: &Mail<'_>, p: &Profile, found: &mut Found) {
    let tokens = tokens::of(mail);
    let Some(s) = bayes::spamminess(&tokens, &p.counts()) else {
        return;
    };
    found.spamminess = Some(s);
    let pts = points(s);
    if pts != 0.0 {
        found.hit(&BAYES, pts, format!("{:.3}", s));
    }
}
