//! The words: the user's own keywords, domains and regular expressions (the spam settings and
//! the AI training page's spam tab), and built-in lists of spam phrases in Hebrew and English.
//! Text is folded as search folds it, so a keyword matches with or without niqqud and final
//! letters.

use std::sync::LazyLock;

use super::headers::has_words;
use super::{Found, Rule, site};
use crate::search::analyzer::fold_text;
use crate::spam::mail::Mail;
use crate::spam::profile::Profile;

pub const USER_KEYWORD: Rule = Rule {
    id: "USER_KEYWORD",
    label: "מילת מפתח מרשימת הספאם שלך",
};
pub const USER_DOMAIN: Rule = Rule {
    id: "USER_DOMAIN",
    label: "דומיין מרשימת הספאם שלך",
};
pub const USER_PATTERN: Rule = Rule {
    id: "USER_PATTERN",
    label: "תבנית (ביטוי רגולרי) מרשימת הספאם שלך",
};
pub const SPAM_PHRASE: Rule = Rule {
    id: "SPAM_PHRASE",
    label: "ביטויים נפוצים בספאם",
};
pub const SHOUTING_SUBJECT: Rule = Rule {
    id: "SHOUTING_SUBJECT",
    label: "נושא באותיות גדולות או עם סימני קריאה רבים",
};

/// Regular expressions run over this much text at most.
pub const PATTERN_TEXT: usize = 64_000;

const PHRASES: &[&str] = &[
    // English
    "click here",
    "act now",
    "limited time offer",
    "100% free",
    "risk free",
    "risk-free",
    "no obligation",
    "you have won",
    "you've won",
    "congratulations you",
    "viagra",
    "cialis",
    "casino",
    "lottery",
    "wire transfer",
    "million dollars",
    "earn money",
    "work from home",
    "make money fast",
    "lowest price",
    "double your",
    "no credit check",
    "weight loss",
    "this is not spam",
    "dear friend",
    "order now",
    "cash bonus",
    "guaranteed income",
    "miracle",
    "be your own boss",
    "remove yourself",
    "verify your account",
    "your account will be suspended",
    "bitcoin investment",
    // Hebrew
    "זכית",
    "זכיתם",
    "הזדמנות חד פעמית",
    "ללא התחייבות",
    "לחץ כאן",
    "לחצו כאן",
    "הלוואה חוץ בנקאית",
    "כסף מהיר",
    "הכנסה נוספת מהבית",
    "עבודה מהבית",
    "ללא ריבית",
    "הימורים",
    "קזינו",
    "הגרלה",
    "מבצע בלעדי",
    "רק היום",
    "אל תפספסו",
    "אל תפספס",
    "חשבונך ייחסם",
    "חשבונך יושעה",
    "אמת את חשבונך",
    "אמתו את חשבונכם",
    "עדכן את פרטי האשראי",
    "פרטי כרטיס האשראי",
    "השקעה בביטקוין",
    "תשואה מובטחת",
];

static FOLDED: LazyLock<Vec<String>> =
    LazyLock::new(|| PHRASES.iter().map(|p| fold_text(p)).collect());

pub fn check(mail: &Mail<'_>, p: &Profile, found: &mut Found) {
    let folded = mail.folded();
    let mut seen = Vec::new();
    for k in &p.keywords {
        if seen.len() < 4 && has_words(folded, k) {
            seen.push(k.as_str());
        }
    }
    if !seen.is_empty() {
        found.hit(
            &USER_KEYWORD,
            2.5 * seen.len().min(2) as f32,
            seen.join(", "),
        );
    }
    let sites = std::iter::once(mail.from_domain.as_str())
        .chain(mail.links.iter().map(|l| l.host.as_str()))
        .chain(mail.text_hosts.iter().map(String::as_str))
        .filter(|h| !h.is_empty());
    for h in sites {
        let hit = p
            .domains
            .iter()
            .find(|d| h == d.as_str() || site(h) == d.as_str() || h.ends_with(&format!(".{d}")));
        if let Some(d) = hit {
            found.hit(&USER_DOMAIN, 4.0, d.clone());
            break;
        }
    }
    if let Some(set) = &p.patterns {
        let mut text =
            String::with_capacity(mail.subject.len() + 1 + mail.text.len().min(PATTERN_TEXT));
        text.push_str(&mail.subject);
        text.push('\n');
        text.push_str(crate::kit::cut(&mail.text, PATTERN_TEXT));
        let matched: Vec<usize> = set.matches(&text).into_iter().take(2).collect();
        if !matched.is_empty() {
            let shown: Vec<&str> = matched
                .iter()
                .map(|i| set.patterns()[*i].as_str())
                .collect();
            found.hit(&USER_PATTERN, 3.0 * matched.len() as f32, shown.join(" | "));
        }
    }
    let phrases: Vec<&str> = FOLDED
        .iter()
        .enumerate()
        .filter(|(_, f)| has_words(folded, f))
        .map(|(i, _)| PHRASES[i])
        .take(5)
        .collect();
    if !phrases.is_empty() {
        found.hit(&SPAM_PHRASE, 0.6 * phrases.len() as f32, phrases.join(", "));
    }
    let letters: Vec<char> = mail
        .subject
        .chars()
        .filter(|c| c.is_ascii_alphabetic())
        .collect();
    let upper = letters.iter().filter(|c| c.is_ascii_uppercase()).count();
    if (letters.len() >= 12 && upper * 10 >= letters.len() * 9)
        || mail.subject.contains("!!!")
        || mail.subject.contains("$$$")
    {
        found.hit(
            &SHOUTING_SUBJECT,
            0.8,
            mail.subject.chars().take(80).collect::<String>(),
        );
    }
}
