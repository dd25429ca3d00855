//! The headers: what the receiving server's authentication said (SPF, DKIM, DMARC), a sender
//! whose Reply-To or Return-Path lives elsewhere, a missing or malformed Date or Message-ID,
//! and a display name that claims a brand the address does not belong to.

use super::{Found, Rule, site};
use crate::spam::mail::{Mail, domain_of};

pub const SPF_FAIL: Rule = Rule {
    id: "SPF_FAIL",
    label: "בדיקת SPF של השרת המקבל נכשלה",
};
pub const SPF_SOFTFAIL: Rule = Rule {
    id: "SPF_SOFTFAIL",
    label: "בדיקת SPF נכשלה חלקית (softfail)",
};
pub const DKIM_FAIL: Rule = Rule {
    id: "DKIM_FAIL",
    label: "חתימת DKIM לא תקינה",
};
pub const DMARC_FAIL: Rule = Rule {
    id: "DMARC_FAIL",
    label: "מדיניות DMARC של השולח נכשלה",
};
pub const REPLY_TO_ELSEWHERE: Rule = Rule {
    id: "REPLY_TO_ELSEWHERE",
    label: "כתובת התשובה (Reply-To) בדומיין אחר מהשולח",
};
pub const RETURN_PATH_ELSEWHERE: Rule = Rule {
    id: "RETURN_PATH_ELSEWHERE",
    label: "כתובת ההחזרה (Return-Path) בדומיין אחר מהשולח",
};
pub const NO_DATE: Rule = Rule {
    id: "NO_DATE",
    label: "אין כותרת תאריך",
};
pub const BAD_DATE: Rule = Rule {
    id: "BAD_DATE",
    label: "כותרת התאריך שגויה או בעתיד",
};
pub const DATE_SKEW: Rule = Rule {
    id: "DATE_SKEW",
    label: "תאריך המייל רחוק מהזמן שבו התקבל",
};
pub const NO_MESSAGE_ID: Rule = Rule {
    id: "NO_MESSAGE_ID",
    label: "אין מזהה הודעה (Message-ID)",
};
pub const BAD_MESSAGE_ID: Rule = Rule {
    id: "BAD_MESSAGE_ID",
    label: "מזהה ההודעה (Message-ID) שגוי",
};
pub const FORGED_NAME: Rule = Rule {
    id: "FORGED_NAME",
    label: "שם השולח מתחזה למותג שהכתובת אינה שלו",
};
pub const NAME_HAS_OTHER_ADDRESS: Rule = Rule {
    id: "NAME_HAS_OTHER_ADDRESS",
    label: "שם השולח מכיל כתובת מייל אחרת",
};

/// Brands phishing claims, with the sites that are really theirs.
pub const BRANDS: &[(&str, &[&str])] = &[
    ("paypal", &["paypal.com", "paypal.co.il"]),
    ("apple", &["apple.com", "icloud.com"]),
    (
        "microsoft",
        &[
            "microsoft.com",
            "outlook.com",
            "live.com",
            "office.com",
            "office365.com",
        ],
    ),
    ("google", &["google.com", "gmail.com", "youtube.com"]),
    (
        "amazon",
        &["amazon.com", "amazon.co.uk", "amazon.de", "amazonses.com"],
    ),
    ("netflix", &["netflix.com"]),
    (
        "facebook",
        &["facebook.com", "facebookmail.com", "meta.com"],
    ),
    ("dhl", &["dhl.com", "dhl.co.il"]),
    ("fedex", &["fedex.com"]),
    ("בנק הפועלים", &["bankhapoalim.co.il", "poalim.co.il"]),
    ("בנק לאומי", &["leumi.co.il", "bankleumi.co.il"]),
    ("דיסקונט", &["discountbank.co.il", "discount.co.il"]),
    ("מזרחי טפחות", &["mizrahi-tefahot.co.il", "umtb.co.il"]),
    ("ביטוח לאומי", &["btl.gov.il"]),
    ("רשות המסים", &["taxes.gov.il", "gov.il"]),
    ("דואר ישראל", &["israelpost.co.il"]),
    ("ישראכרט", &["isracard.co.il"]),
];

/// Whether `words` stands in `text` as whole words (so "pineapple" is not "apple").
pub fn has_words(text: &str, words: &str) -> bool {
    text.match_indices(words).any(|(i, _)| {
        let before = text[..i].chars().next_back();
        let after = text[i + words.len()..].chars().next();
        !before.is_some_and(char::is_alphanumeric) && !after.is_some_and(char::is_alphanumeric)
    })
}

/// The result of one method in `Authentication-Results` headers (`spf=fail`, …): the worst
/// one seen.
fn auth_result<'a>(mail: &'a Mail<'_>, method: &str) -> Option<&'a str> {
    let mut worst: Option<&str> = None;
    for (_, v) in mail
        .headers
        .iter()
        .filter(|(n, _)| n == "authentication-results")
    {
        let lower = v.as_bytes();
        let mut i = 0;
        while let Some(off) = v[i..].to_ascii_lowercase().find(&format!("{method}=")) {
            let at = i + off;
            let before_ok = at == 0 || !lower[at - 1].is_ascii_alphanumeric();
            let rest = &v[at + method.len() + 1..];
            let word = rest
                .split(|c: char| !c.is_ascii_alphanumeric())
                .next()
                .unwrap_or("");
            if before_ok {
                let w = word.to_ascii_lowercase();
                let rank = |r: &str| match r {
                    "fail" => 3,
                    "softfail" => 2,
                    _ => 1,
                };
                if worst.is_none_or(|x| rank(&w) > rank(x)) {
                    worst = Some(match w.as_str() {
                        "fail" => "fail",
                        "softfail" => "softfail",
                        "pass" => "pass",
                        _ => "other",
                    });
                }
            }
            i = at + method.len() + 1;
        }
    }
    worst
}

pub fn check(mail: &Mail<'_>, found: &mut Found) {
    if mail.summary.is_some_and(|s| !s.parsed) && mail.from.is_empty() {
        return;
    }
    match auth_result(mail, "spf") {
        Some("fail") => {
            found.hit(&SPF_FAIL, 2.0, "spf=fail");
            found.auth_failed = true;
        }
        Some("softfail") => found.hit(&SPF_SOFTFAIL, 0.7, "spf=softfail"),
        _ => {}
    }
    if auth_result(mail, "dkim") == Some("fail") {
        found.hit(&DKIM_FAIL, 1.5, "dkim=fail");
        found.auth_failed = true;
    }
    if auth_result(mail, "dmarc") == Some("fail") {
        found.hit(&DMARC_FAIL, 2.5, "dmarc=fail");
        found.auth_failed = true;
    }
    let from_site = site(&mail.from_domain);
    if !from_site.is_empty() && !mail.list_mail {
        if let Some(rt) = &mail.reply_to_domain
            && site(rt) != from_site
        {
            found.hit(&REPLY_TO_ELSEWHERE, 1.0, rt.clone());
        }
        if let Some(rp) = &mail.return_path_domain
            && site(rp) != from_site
        {
            found.hit(&RETURN_PATH_ELSEWHERE, 0.3, rp.clone());
        }
    }
    if !mail.has_date {
        found.hit(&NO_DATE, 1.2, "");
    } else if !mail.date_ok {
        found.hit(&BAD_DATE, 1.0, mail.header("date").unwrap_or(""));
    } else if let (Some(date), Some(received)) = (mail.date, mail.received_at) {
        // Written days before it was sent, or from the future: a forged or default date.
        let hours = (received - date) / 3600;
        if !(-24..=96).contains(&hours) {
            found.hit(&DATE_SKEW, 1.5, format!("{hours}h"));
        }
    }
    match &mail.message_id {
        None => found.hit(&NO_MESSAGE_ID, 1.0, ""),
        Some(id) => {
            let id = id.trim();
            let ok = id.starts_with('<')
                && id.ends_with('>')
                && id.contains('@')
                && !id.contains(char::is_whitespace);
            if !ok {
                found.hit(
                    &BAD_MESSAGE_ID,
                    0.8,
                    id.chars().take(80).collect::<String>(),
                );
            }
        }
    }
    forged_name(mail, from_site, found);
}

fn forged_name(mail: &Mail<'_>, from_site: &str, found: &mut Found) {
    let name = mail.from_name.to_lowercase();
    if name.is_empty() || from_site.is_empty() {
        return;
    }
    for (brand, sites) in BRANDS {
        let theirs = sites.contains(&from_site);
        if has_words(&name, brand) && !theirs {
            found.hit(&FORGED_NAME, 3.0, format!("{brand} / {}", mail.from_domain));
            return;
        }
    }
    if let Some(word) = name.split_whitespace().find(|w| w.contains('@')) {
        let other = domain_of(word.trim_matches(|c: char| !c.is_alphanumeric()));
        if !other.is_empty() && site(&other) != from_site {
            found.hit(&NAME_HAS_OTHER_ADDRESS, 1.5, other);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn found(raw: &str) -> Found {
        crate::spam::checks::found_by(check, raw)
    }

    fn rules(f: &Found) -> Vec<&str> {
        f.hits.iter().map(|h| h.rule).collect()
    }

    const OK: &str = "Date: Mon, 2 Mar 2026 10:00:00 +0200\r\nMessage-ID: <a@b.test>\r\n";

    #[test]
    fn a_clean_mail_fires_nothing() {
        let f = found(&format!(
            "From: Dana <dana@b.test>\r\n{OK}Subject: hi\r\n\r\nhi\r\n"
        ));
        assert!(f.hits.is_empty(), "{:?}", f.hits);
    }

    #[test]
    fn authentication_failures_count_and_mark_the_mail() {
        let f = found(&format!(
            "Authentication-Results: mx.test; spf=fail smtp.mailfrom=x.test; dkim=pass; dmarc=fail (p=reject)\r\nFrom: a@x.test\r\n{OK}\r\nhi\r\n"
        ));
        assert_eq!(rules(&f), ["SPF_FAIL", "DMARC_FAIL"]);
        assert!(f.auth_failed);
    }

    #[test]
    fn replies_elsewhere_missing_headers_and_forged_brands() {
        let f = found(
            "From: \"PayPal Service\" <service@secure-pay.test>\r\nReply-To: x@other.test\r\nSubject: hi\r\n\r\nhi\r\n",
        );
        assert_eq!(
            rules(&f),
            [
                "REPLY_TO_ELSEWHERE",
                "NO_DATE",
                "NO_MESSAGE_ID",
                "FORGED_NAME"
            ]
        );
        let f = found(&format!(
            "From: \"בנק הפועלים\" <info@bankhapoalim.co.il>\r\n{OK}\r\nhi\r\n"
        ));
        assert!(f.hits.is_empty());
        let f = found(&format!(
            "From: \"בנק הפועלים - עדכון\" <info@poalim-secure.test>\r\n{OK}\r\nhi\r\n"
        ));
        assert_eq!(rules(&f), ["FORGED_NAME"]);
        let f = found("From: a@b.test\r\nDate: nonsense\r\nMessage-ID: nothing\r\n\r\nhi\r\n");
        assert_eq!(rules(&f), ["BAD_DATE", "BAD_MESSAGE_ID"]);
    }
}
