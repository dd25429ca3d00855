//! Known mail providers and a guess for the rest, so the account form can fill in servers
//! from the address alone.

use serde::Serialize;

use super::servers::MailServersCamel;

#[derive(Debug, Clone, Serialize, PartialEq, ts_rs::TS)]
#[serde(rename_all = "camelCase")]
#[ts(rename = "MailProvider")]
pub struct Provider {
    pub id: &'static str,
    /// Shown in the UI (brand names stay in their own script).
    pub name: &'static str,
    pub domains: &'static [&'static str],
    /// `imapServer`, `imapPort`, … (flat keys).
    #[serde(flatten)]
    #[ts(flatten)]
    pub servers: MailServersCamel<&'static str>,
    /// A short Hebrew hint, e.g. that an app password is needed.
    pub note: &'static str,
    /// `international` or `israeli` (the settings page groups the list by it).
    #[ts(type = "\"international\" | \"israeli\"")]
    pub region: &'static str,
}

const APP_PASSWORD: &str = "נדרשת סיסמת אפליקציה (App Password) מהגדרות האבטחה של החשבון";

macro_rules! provider {
    ($id:literal, $name:literal, [$($d:literal),*], $imap:literal, $ip:literal, $is:literal,
     $smtp:literal, $sp:literal, $ss:literal, $note:expr) => {
        Provider {
            id: $id, name: $name, domains: &[$($d),*],
            servers: MailServersCamel {
                imap_server: $imap, imap_port: $ip, imap_ssl: $is,
                smtp_server: $smtp, smtp_port: $sp, smtp_ssl: $ss,
            },
            note: $note,
            region: region_of($id),
        }
    };
}

/// The Israeli providers of spec 001 §2's list; the rest are international.
const fn region_of(id: &str) -> &'static str {
    match id.as_bytes() {
        b"walla" | b"bezeqint" | b"netvision" => "israeli",
        _ => "international",
    }
}

pub const PROVIDERS: &[Provider] = &[
    provider!(
        "gmail",
        "Gmail",
        ["gmail.com", "googlemail.com"],
        "imap.gmail.com",
        993,
        true,
        "smtp.gmail.com",
        465,
        true,
        APP_PASSWORD
    ),
    provider!(
        "outlook",
        "Outlook / Hotmail",
        [
            "outlook.com",
            "hotmail.com",
            "live.com",
            "msn.com",
            "outlook.co.il",
            "hotmail.co.il"
        ],
        "outlook.office365.com",
        993,
        true,
        "smtp-mail.outlook.com",
        587,
        false,
        ""
    ),
    provider!(
        "yahoo",
        "Yahoo",
        ["yahoo.com", "ymail.com", "yahoo.co.uk"],
        "imap.mail.yahoo.com",
        993,
        true,
        "smtp.mail.yahoo.com",
        465,
        true,
        APP_PASSWORD
    ),
    provider!(
        "icloud",
        "iCloud",
        ["icloud.com", "me.com", "mac.com"],
        "imap.mail.me.com",
        993,
        true,
        "smtp.mail.me.com",
        587,
        false,
        APP_PASSWORD
    ),
    provider!(
        "protonmail",
        "ProtonMail Bridge",
        ["proton.me", "protonmail.com", "pm.me"],
        "127.0.0.1",
        1143,
        false,
        "127.0.0.1",
        1025,
        false,
        "דרך Proton Mail Bridge שרץ על המחשב; הסיסמה היא סיסמת ה-Bridge"
    ),
    provider!(
        "zoho",
        "Zoho",
        ["zoho.com", "zohomail.com"],
        "imap.zoho.com",
        993,
        true,
        "smtp.zoho.com",
        465,
        true,
        ""
    ),
    provider!(
        "aol",
        "AOL",
        ["aol.com"],
        "imap.aol.com",
        993,
        true,
        "smtp.aol.com",
        465,
        true,
        APP_PASSWORD
    ),
    provider!(
        "gmx",
        "GMX",
        ["gmx.com", "gmx.net", "gmx.de"],
        "imap.gmx.com",
        993,
        true,
        "mail.gmx.com",
        465,
        true,
        ""
    ),
    provider!(
        "fastmail",
        "Fastmail",
        ["fastmail.com", "fastmail.fm"],
        "imap.fastmail.com",
        993,
        true,
        "smtp.fastmail.com",
        465,
        true,
        APP_PASSWORD
    ),
    provider!(
        "yandex",
        "Yandex",
        ["yandex.com", "yandex.ru", "ya.ru"],
        "imap.yandex.com",
        993,
        true,
        "smtp.yandex.com",
        465,
        true,
        ""
    ),
    provider!(
        "walla",
        "וואלה",
        ["walla.com", "walla.co.il"],
        "imap.walla.co.il",
        993,
        true,
        "smtp.walla.co.il",
        587,
        false,
        ""
    ),
    provider!(
        "bezeqint",
        "בזק בינלאומי",
        ["bezeqint.net"],
        "imap.bezeqint.net",
        993,
        true,
        "smtp.bezeqint.net",
        465,
        true,
        ""
    ),
    provider!(
        "netvision",
        "נטוויז'ן",
        ["netvision.net.il"],
        "imap.netvision.net.il",
        993,
        true,
        "smtp.netvision.net.il",
        465,
        true,
        ""
    ),
];

/// The provider for an address's domain, or `imap.<domain>` / `smtp.<domain>` with the spec's
/// sample ports (993 and 465, SSL) for a domain we do not know.
pub fn detect(email: &str) -> Option<Detected> {
    let domain = email.rsplit_once('@')?.1.trim().to_ascii_lowercase();
    if domain.is_empty() || !domain.contains('.') {
        return None;
    }
    if let Some(p) = PROVIDERS
        .iter()
        .find(|p| p.domains.contains(&domain.as_str()))
    {
        return Some(Detected {
            known: true,
            id: p.id.to_string(),
            name: p.name.to_string(),
            servers: p.servers.clone().map_hosts(String::from),
            note: p.note.to_string(),
        });
    }
    Some(Detected {
        known: false,
        id: "guess".into(),
        name: domain.clone(),
        servers: MailServersCamel {
            imap_server: format!("imap.{domain}"),
            imap_port: 993,
            imap_ssl: true,
            smtp_server: format!("smtp.{domain}"),
            smtp_port: 465,
            smtp_ssl: true,
        },
        note: String::new(),
    })
}

#[derive(Debug, Clone, Serialize, PartialEq, ts_rs::TS)]
#[serde(rename_all = "camelCase")]
#[ts(rename = "DetectedProvider")]
pub struct Detected {
    pub known: bool,
    pub id: String,
    pub name: String,
    /// `imapServer`, `imapPort`, … (flat keys).
    #[serde(flatten)]
    #[ts(flatten)]
    pub servers: MailServersCamel,
    pub note: String,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_domains_and_a_guess() {
        let g = detect("Dana@Gmail.com").unwrap();
        assert!(g.known);
        assert_eq!(g.servers.imap_server, "imap.gmail.com");
        let w = detect("x@walla.co.il").unwrap();
        assert_eq!(w.id, "walla");
        let b = detect("x@bezeqint.net").unwrap();
        assert_eq!(b.id, "bezeqint");
        let other = detect("me@home.example").unwrap();
        assert!(!other.known);
        assert_eq!(other.servers.imap_server, "imap.home.example");
        assert_eq!(
            (other.servers.imap_port, other.servers.smtp_port),
            (993, 465)
        );
        assert!(detect("no-at-sign").is_none());
    }

    #[test]
    fn every_required_provider_is_listed() {
        for id in [
            "gmail",
            "outlook",
            "yahoo",
            "icloud",
            "protonmail",
            "zoho",
            "aol",
            "gmx",
            "fastmail",
            "yandex",
            "walla",
            "bezeqint",
            "netvision",
        ] {
            assert!(PROVIDERS.iter().any(|p| p.id == id), "{id}");
        }
    }
}
