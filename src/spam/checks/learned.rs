//! The learning classifier's opinion in points: a mail much like the spam it learned from
//! earns up to 4.5, one much like the user's good mail loses up to 2.5.

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
    (0.99, 4.5),
    (0.95, 3.5),
    (0.90, 2.5),
    (0.75, 1.5),
    (0.60, 0.5),
    (0.40, 0.0),
    (0.20, -0.5),
    (0.10, -1.0),
    (0.01, -1.5),
    (0.0, -2.5),
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
