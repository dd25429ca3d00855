//! The checks, one concern per file, each a function over the shared context ([`Mail`]) and
//! the user's [`Profile`] that adds the rules it found ([`Hit`]) with their points. The engine
//! sums them; the 'debug' button shows them.

pub mod ads;
pub mod content;
pub mod headers;
pub mod html;
pub mod learned;
pub mod links;
pub mod lists;
pub mod script;

use serde::Serialize;

use super::mail::Mail;
use super::profile::Profile;

/// A rule a check can fire: its id (stable, in the activity list) and what it means.
#[derive(Debug, PartialEq, Eq)]
pub struct Rule {
    pub id: &'static str,
    /// Hebrew, for the debug breakdown.
    pub label: &'static str,
}

/// One rule that fired on a mail, with its points and what it saw.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Hit {
    pub rule: &'static str,
    pub label: &'static str,
    pub points: f32,
    pub detail: String,
}

/// What the checks found so far.
#[derive(Debug, Default)]
pub struct Found {
    pub hits: Vec<Hit>,
    /// Commercial mail (the ads check).
    pub advertisement: bool,
    /// A list the user keeps lets it through, whatever its score (the lists check).
    pub pass: Option<&'static Rule>,
    /// The headers failed authentication: being a known person does not save it.
    pub auth_failed: bool,
    /// The learning classifier's opinion, 0 (ham) to 1 (spam).
    pub spamminess: Option<f64>,
}

impl Found {
    pub fn hit(&mut self, rule: &'static Rule, points: f32, detail: impl Into<String>) {
        self.hits.push(Hit {
            rule: rule.id,
            label: rule.label,
            points,
            detail: detail.into(),
        });
    }

    pub fn score(&self) -> f32 {
        self.hits.iter().map(|h| h.points).sum()
    }
}

/// Every check, in the order the breakdown lists them.
pub fn run(mail: &Mail<'_>, profile: &Profile) -> Found {
    let mut found = Found::default();
    headers::check(mail, &mut found);
    links::check(mail, &mut found);
    html::check(mail, &mut found);
    content::check(mail, profile, &mut found);
    script::check(mail, &mut found);
    ads::check(mail, &mut found);
    learned::check(mail, profile, &mut found);
    lists::check(mail, profile, &mut found);
    found
}

/// Tests: what one check finds in a raw mail, parsed as the engine parses it.
#[cfg(test)]
pub fn found_by(check: fn(&Mail<'_>, &mut Found), raw: &str) -> Found {
    let msg = crate::mail::parse::parse_guarded(raw.as_bytes());
    let mut found = Found::default();
    check(&Mail::of(msg.as_ref(), raw.as_bytes(), None), &mut found);
    found
}

/// The registrable part of a host, near enough for comparing senders and links: the last two
/// labels, or three under a two-letter country's second level (`shop.co.il` → `shop.co.il`,
/// `mail.bank.co.il` → `bank.co.il`).
pub fn site(host: &str) -> &str {
    let host = host.trim_end_matches('.');
    let labels: Vec<&str> = host.rsplitn(4, '.').collect();
    let keep = match labels.as_slice() {
        [tld, second, ..]
            if tld.len() == 2
                && matches!(
                    *second,
                    "co" | "org" | "net" | "ac" | "gov" | "com" | "muni" | "k12" | "edu"
                ) =>
        {
            3
        }
        _ => 2,
    };
    if labels.len() <= keep {
        return host;
    }
    let cut: usize = labels[..keep].iter().map(|l| l.len() + 1).sum::<usize>() - 1;
    &host[host.len() - cut..]
}

#[cfg(test)]
mod tests {
    #[test]
    fn sites_of_hosts() {
        assert_eq!(super::site("mail.bank.co.il"), "bank.co.il");
        assert_eq!(super::site("www.paypal.com"), "paypal.com");
        assert_eq!(super::site("paypal.com"), "paypal.com");
        assert_eq!(super::site("localhost"), "localhost");
        assert_eq!(super::site("a.b.example.org.uk"), "example.org.uk");
    }
}
