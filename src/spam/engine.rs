//! The engine: every check over one mail, the sum of their points, and the verdict the user's
//! thresholds give (spec 001 §3: score ≥ spamThreshold is spam, ≥ suspiciousThreshold is
//! suspicious; commercial mail below the spam threshold is an advertisement, and above it too
//! when it says what it is and shows no sign of fraud: `checks::ads::plain_ad`). A list that
//! lets the sender through overrides the spam verdicts, never the advertisement one.

use serde::Serialize;
use ts_rs::TS;

use super::checks::{self, Hit};
use super::mail::Mail;
use super::profile::Profile;
use super::settings::Settings;
use crate::mailstore::Detection;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "lowercase")]
#[ts(rename = "SpamVerdict")]
pub enum Verdict {
    Clean,
    Suspicious,
    Spam,
    Advertisement,
}

impl Verdict {
    pub fn status(self) -> Option<&'static str> {
        match self {
            Verdict::Clean => None,
            Verdict::Suspicious => Some("suspicious"),
            Verdict::Spam => Some("spam"),
            Verdict::Advertisement => Some("advertisement"),
        }
    }
}

#[derive(Debug, Clone)]
pub struct Report {
    /// Points, one decimal.
    pub score: f32,
    pub hits: Vec<Hit>,
    pub verdict: Verdict,
    pub advertisement: bool,
    pub spamminess: Option<f64>,
}

/// Judges a stored or raw mail (parsed here): 'load and classify', the debug breakdown, the
/// evaluation.
pub fn judge_raw(raw: &[u8], profile: &Profile) -> Report {
    let msg = crate::mail::parse::parse_guarded(raw);
    judge(&Mail::of(msg.as_ref(), raw, None), profile)
}

pub fn judge(mail: &Mail<'_>, profile: &Profile) -> Report {
    let found = checks::run(mail, profile);
    let score = (found.score() * 10.0).round() / 10.0;
    let s = &profile.settings;
    let verdict = if found.pass.is_some() {
        if found.advertisement {
            Verdict::Advertisement
        } else {
            Verdict::Clean
        }
    } else if score >= f32::from(s.spam_threshold) {
        // An ad that says what it is and shows no sign of fraud goes to Promotions, not Junk.
        if checks::ads::plain_ad(mail, &found) {
            Verdict::Advertisement
        } else {
            Verdict::Spam
        }
    } else if found.advertisement {
        // Below the spam threshold an ad is an ad (Promotions), not a doubt.
        Verdict::Advertisement
    } else if score >= f32::from(s.suspicious_threshold) {
        Verdict::Suspicious
    } else {
        Verdict::Clean
    };
    Report {
        score,
        hits: found.hits,
        verdict,
        advertisement: found.advertisement,
        spamminess: found.spamminess,
    }
}

/// What the mail store keeps of a report: the status only when detection may set it (`act`:
/// new mail, or a folder the user asked to classify), an ad's status only with `autoMoveAds`,
/// the move to Junk only with `autoMoveSpam`.
pub fn detection(r: &Report, s: &Settings, act: bool) -> Detection {
    let status = match r.verdict {
        Verdict::Advertisement if !s.auto_move_ads => None,
        v if act => v.status(),
        _ => None,
    };
    Detection {
        score: r.score,
        status,
        advertisement: r.advertisement,
        move_to_junk: act && r.verdict == Verdict::Spam && s.auto_move_spam,
    }
}
