//! The user's lists: whitelisted senders and domains always pass; the user's contacts and the
//! people they wrote to pass too, unless the headers failed authentication (a forged sender
//! can borrow a friend's address, not their domain's signature).

use super::{Found, Rule, site};
use crate::spam::mail::Mail;
use crate::spam::profile::Profile;

pub const WHITELISTED: Rule = Rule {
    id: "WHITELISTED",
    label: "השולח ברשימה הלבנה",
};
pub const KNOWN_PERSON: Rule = Rule {
    id: "KNOWN_PERSON",
    label: "השולח באנשי הקשר שלך או שכתבת אליו",
};

pub fn check(mail: &Mail<'_>, p: &Profile, found: &mut Found) {
    if mail.from.is_empty() {
        return;
    }
    let domain = mail.from_domain.as_str();
    let white = p.white_senders.contains(&mail.from)
        || p.white_domains.iter().any(|d| {
            let d = d.trim_start_matches('@');
            domain == d || site(domain) == d || domain.ends_with(&format!(".{d}"))
        });
    if white {
        found.pass = Some(&WHITELISTED);
        found.hit(&WHITELISTED, 0.0, mail.from.clone());
    } else if p.known.contains(&mail.from) && !found.auth_failed {
        found.pass = Some(&KNOWN_PERSON);
        found.hit(&KNOWN_PERSON, 0.0, mail.from.clone());
    }
}
