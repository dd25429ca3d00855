//! Commercial mail. Israeli law (the Communications Law, §30A) makes an advertiser label the
//! subject 'פרסומת', which advertisers write in many forms ([`labelled`]); with that, a
//! List-Unsubscribe header, bulk precedence and promotional wording tell an advertisement from
//! personal or list mail. An ad is not spam: it goes to Promotions, even when its wording and
//! the learned model score it past the spam threshold, unless it shows a sign of fraud
//! ([`plain_ad`]): a receipt or a newsletter the user signed up for that lands in Junk is lost
//! mail. A Hebrew ad that hides what it is (no 'פרסומת') earns a point toward spam.

use super::headers::has_words;
use super::{Found, Rule};
use crate::search::analyzer::fold_text;
use crate::spam::mail::Mail;

pub const AD_LABEL: Rule = Rule {
    id: "AD_LABEL",
    label: "הנושא מתחיל ב'פרסומת' (מודעה לפי החוק)",
};
pub const AD_BULK: Rule = Rule {
    id: "AD_BULK",
    label: "דיוור המוני עם ניסוח שיווקי",
};
pub const AD_UNLABELED: Rule = Rule {
    id: "AD_UNLABELED",
    label: "פרסומת בעברית בלי המילה 'פרסומת' בנושא",
};

const PROMO: &[&str] = &[
    "מבצע",
    "מבצעים",
    "הנחה",
    "הנחות",
    "קופון",
    "סייל",
    "משלוח חינם",
    "לזמן מוגבל",
    "קנו עכשיו",
    "רכשו עכשיו",
    "ניוזלטר",
    "להסרה",
    "הסרה מרשימת התפוצה",
    "מחיר מיוחד",
    "הטבה",
    "הטבות",
    "sale",
    "discount",
    "coupon",
    "free shipping",
    "shop now",
    "buy now",
    "newsletter",
    "deal",
    "deals",
    "offer",
    "% off",
    "unsubscribe",
    "promo code",
    "limited time",
];

static PROMO_FOLDED: std::sync::LazyLock<Vec<String>> =
    std::sync::LazyLock::new(|| PROMO.iter().map(|w| fold_text(w)).collect());

/// What advertisers set the label off with: colon, pipe, dashes, brackets, quotes, stars.
const LABEL_SEPARATORS: &[char] = &[
    ':', '|', '-', '–', '—', '[', ']', '(', ')', '{', '}', '<', '>', '*', '"', '\'', '״', '׳', '!',
    '.', ',', '/', '\\', '•', '~', '_', '#',
];

/// Whether the subject carries the legal label in any form advertisers write it: starting the
/// subject ("פרסומת מבצע", "פרסומת: ", "[פרסומת]"), or set off as a part of its own anywhere
/// ("מבצע | פרסומת", "מבצע - פרסומת", "(פרסומת)"), or as 'מידע פרסומי'. "לא פרסומת" is not one.
pub fn labelled(subject: &str) -> bool {
    if subject.contains("מידע פרסומי") {
        return true;
    }
    let start =
        subject.trim_start_matches(|c: char| c.is_whitespace() || LABEL_SEPARATORS.contains(&c));
    start.starts_with("פרסומת")
        || subject
            .split(LABEL_SEPARATORS)
            .any(|part| part.trim() == "פרסומת")
}

/// Rules that are signs of fraud: an ad showing one is judged by its score like any mail.
const FRAUD_SIGNS: &[&str] = &[
    "IP_URL",
    "TEXT_HREF_MISMATCH",
    "LOOKALIKE",
    "FORGED_NAME",
    "NAME_HAS_OTHER_ADDRESS",
    "REPLY_TO_ELSEWHERE",
    "HIDDEN_TEXT",
    "FARAWAY_SCRIPT",
    "USER_KEYWORD",
    "USER_DOMAIN",
    "USER_PATTERN",
];

/// What a phishing mail asks for (an ad never does).
const CREDENTIAL_ASKS: &[&str] = &[
    "אמת את חשבונך",
    "אמתו את חשבונכם",
    "עדכן את פרטי האשראי",
    "עדכנו את פרטי האשראי",
    "פרטי כרטיס האשראי",
    "חשבונך ייחסם",
    "חשבונך יושעה",
    "verify your account",
    "your account will be suspended",
    "confirm your password",
];

static ASKS_FOLDED: std::sync::LazyLock<Vec<String>> =
    std::sync::LazyLock::new(|| CREDENTIAL_ASKS.iter().map(|w| fold_text(w)).collect());

/// Commercial mail that is an ad, not spam, whatever its score: it says what it is (the legal
/// label, or a List-Unsubscribe header), authentication did not fail, and it shows no sign of
/// fraud (no rule of [`FRAUD_SIGNS`], no request for credentials). Mail whose headers carry no
/// authentication result at all is taken as it comes (many servers add none).
pub fn plain_ad(mail: &Mail<'_>, found: &Found) -> bool {
    let says_so = found.hits.iter().any(|h| h.rule == AD_LABEL.id)
        || mail.header("list-unsubscribe").is_some();
    found.advertisement
        && says_so
        && !found.auth_failed
        && !found.hits.iter().any(|h| FRAUD_SIGNS.contains(&h.rule))
        && !ASKS_FOLDED.iter().any(|w| has_words(mail.folded(), w))
}

fn hebrew(text: &str) -> bool {
    let (mut he, mut latin) = (0, 0);
    for c in text.chars().take(5_000) {
        if ('\u{05D0}'..='\u{05EA}').contains(&c) {
            he += 1;
        } else if c.is_ascii_alphabetic() {
            latin += 1;
        }
    }
    he > 30 && he >= latin
}

pub fn check(mail: &Mail<'_>, found: &mut Found) {
    if labelled(&mail.subject) {
        found.advertisement = true;
        found.hit(&AD_LABEL, 0.0, "");
        return;
    }
    let bulk = mail.header("list-unsubscribe").is_some()
        || mail
            .header("precedence")
            .is_some_and(|p| matches!(p.trim().to_ascii_lowercase().as_str(), "bulk" | "junk"));
    let folded = mail.folded();
    let promo: Vec<&str> = PROMO_FOLDED
        .iter()
        .enumerate()
        .filter(|(_, w)| has_words(folded, w))
        .map(|(i, _)| PROMO[i])
        .take(6)
        .collect();
    let discussion = mail.header("list-id").is_some()
        && mail.header("list-unsubscribe").is_some()
        && promo.len() < 3;
    if (bulk && promo.len() >= 2 && !discussion) || promo.len() >= 5 {
        found.advertisement = true;
        found.hit(&AD_BULK, 0.0, promo.join(", "));
        if hebrew(&format!("{} {}", mail.subject, mail.text)) {
            found.hit(&AD_UNLABELED, 1.0, "");
        }
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_legal_label() {
        assert!(super::labelled("פרסומת: מבצע"));
        assert!(super::labelled(" [פרסומת] מבצע"));
        assert!(!super::labelled("לא פרסומת"));
        for form in [
            "פרסומת | מבצע",
            "פרסומת - מבצע",
            "פרסומת– מבצע",
            "(פרסומת) מבצע",
            "*פרסומת* מבצע",
            "מבצע החורף | פרסומת",
            "מבצע החורף - פרסומת",
            "מבצע החורף (פרסומת)",
            "מבצע [פרסומת] לחברים",
            "מידע פרסומי: מבצע",
            "מבצע - מידע פרסומי",
        ] {
            assert!(super::labelled(form), "{form}");
        }
        assert!(!super::labelled("הפרסומת שלנו"));
        assert!(!super::labelled("על פרסומת ושיווק"));
    }
}
