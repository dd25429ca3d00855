//! Commercial mail. Israeli law (the Communications Law, §30A) makes an advertiser start the
//! subject with 'פרסומת'; with that, a List-Unsubscribe header, bulk precedence and promotional
//! wording tell an advertisement from personal or list mail. An ad is not spam: it goes to
//! Promotions. A Hebrew ad that hides what it is (no 'פרסומת') earns a point toward spam.

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

/// Whether the subject carries the legal label (also as `[פרסומת]` or `פרסומת:`).
pub fn labelled(subject: &str) -> bool {
    subject
        .trim_start_matches(|c: char| c.is_whitespace() || matches!(c, '[' | '(' | '*' | '"'))
        .starts_with("פרסומת")
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
    }
}
