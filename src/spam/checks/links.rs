//! The links: a raw IP address instead of a name, URL shorteners that hide where a link goes,
//! a link whose text shows one site while it goes to another, and names made to look like a
//! brand's (one letter off, digits for letters, punycode).

use super::headers::BRANDS;
use super::{Found, Rule, site};
use crate::spam::mail::{Mail, host_of};

pub const IP_URL: Rule = Rule {
    id: "IP_URL",
    label: "קישור לכתובת IP במקום לשם אתר",
};
pub const SHORTENER: Rule = Rule {
    id: "SHORTENER",
    label: "קישור מקוצר שמסתיר את היעד",
};
pub const TEXT_HREF_MISMATCH: Rule = Rule {
    id: "TEXT_HREF_MISMATCH",
    label: "טקסט הקישור מציג אתר אחד והקישור מוביל לאחר",
};
pub const LOOKALIKE: Rule = Rule {
    id: "LOOKALIKE",
    label: "דומיין שמתחזה לאתר מוכר",
};

const SHORTENERS: &[&str] = &[
    "bit.ly",
    "tinyurl.com",
    "goo.gl",
    "t.co",
    "ow.ly",
    "is.gd",
    "buff.ly",
    "cutt.ly",
    "rebrand.ly",
    "tiny.cc",
    "shorturl.at",
    "rb.gy",
    "t.ly",
    "s.id",
    "bl.ink",
    "lnkd.in",
    "qr.ae",
    "v.gd",
    "x.co",
    "tr.im",
];

fn is_ip(host: &str) -> bool {
    host.parse::<std::net::IpAddr>().is_ok()
        || (host.split('.').count() == 4
            && host
                .split('.')
                .all(|p| !p.is_empty() && p.chars().all(|c| c.is_ascii_digit())))
}

/// One edit (substitution, insertion or deletion) apart.
fn one_edit(a: &str, b: &str) -> bool {
    let (a, b): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
    if a == b || a.len().abs_diff(b.len()) > 1 {
        return false;
    }
    let (mut i, mut j, mut edits) = (0, 0, 0);
    while i < a.len() && j < b.len() {
        if a[i] == b[j] {
            i += 1;
            j += 1;
            continue;
        }
        edits += 1;
        if edits > 1 {
            return false;
        }
        match a.len().cmp(&b.len()) {
            std::cmp::Ordering::Greater => i += 1,
            std::cmp::Ordering::Less => j += 1,
            std::cmp::Ordering::Equal => {
                i += 1;
                j += 1;
            }
        }
    }
    edits + (a.len() - i) + (b.len() - j) <= 1
}

/// The brand site a host imitates, if it does.
pub fn lookalike(host: &str) -> Option<&'static str> {
    let s = site(host);
    let label = s.split('.').next().unwrap_or("");
    let undigit: String = label
        .chars()
        .map(|c| match c {
            '0' => 'o',
            '1' => 'l',
            '3' => 'e',
            '5' => 's',
            '4' => 'a',
            c => c,
        })
        .collect();
    for (_, sites) in BRANDS {
        for real in *sites {
            if s == *real {
                return None;
            }
        }
    }
    for (_, sites) in BRANDS {
        for real in *sites {
            let real_label = real.split('.').next().unwrap_or("");
            if real_label.len() < 6 {
                continue;
            }
            if label.starts_with("xn--") && host.contains(real_label) {
                return Some(real);
            }
            if one_edit(label, real_label) || (undigit != label && undigit == real_label) {
                return Some(real);
            }
            // The brand as a part of another name: paypal-secure.test, login-paypal.com.
            if label != real_label && label.split('-').any(|part| part == real_label) {
                return Some(real);
            }
        }
    }
    None
}

pub fn check(mail: &Mail<'_>, found: &mut Found) {
    let hosts: Vec<&str> = mail
        .links
        .iter()
        .map(|l| l.host.as_str())
        .chain(mail.text_hosts.iter().map(String::as_str))
        .filter(|h| !h.is_empty())
        .collect();
    if let Some(h) = hosts.iter().find(|h| is_ip(h)) {
        found.hit(&IP_URL, 2.0, *h);
    }
    if let Some(h) = hosts.iter().find(|h| SHORTENERS.contains(&site(h))) {
        found.hit(&SHORTENER, 1.0, *h);
    }
    for l in &mail.links {
        let shown = l
            .text
            .split_whitespace()
            .find_map(|w| {
                host_of(w.trim_matches(|c: char| {
                    !c.is_alphanumeric() && c != '/' && c != ':' && c != '.'
                }))
            })
            .filter(|h| h.contains('.'));
        if let Some(shown) = shown
            && !l.host.is_empty()
            && site(&shown) != site(&l.host)
        {
            found.hit(&TEXT_HREF_MISMATCH, 2.5, format!("{shown} → {}", l.host));
            break;
        }
    }
    let from = std::iter::once(mail.from_domain.as_str()).filter(|d| !d.is_empty());
    for h in from.chain(hosts.iter().copied()) {
        if let Some(real) = lookalike(h) {
            found.hit(&LOOKALIKE, 3.0, format!("{h} ≈ {real}"));
            break;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lookalikes() {
        assert_eq!(lookalike("paypa1.com"), Some("paypal.com"));
        assert_eq!(lookalike("www.paypall.com"), Some("paypal.com"));
        assert_eq!(lookalike("paypal-secure.test"), Some("paypal.com"));
        assert_eq!(lookalike("www.paypal.com"), None);
        assert_eq!(lookalike("leumi.co.il"), None);
        assert_eq!(lookalike("example.com"), None);
        assert_eq!(
            lookalike("apples.test"),
            None,
            "short brand labels are not compared"
        );
    }

    #[test]
    fn ips_and_edits() {
        assert!(is_ip("192.168.1.10") && is_ip("::1") && !is_ip("1.2.example"));
        assert!(
            one_edit("paypal", "paypa")
                && one_edit("paypal", "paypel")
                && !one_edit("paypal", "paypal")
        );
    }
}
