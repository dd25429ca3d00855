//! A folder's path as the user reads it: the server's personal prefix (`INBOX.` on Courier and
//! Cyrus) and its delimiter hidden, each level decoded from modified UTF-7, so
//! `INBOX.&BdcF6QXRBdUF0AXZBdUF6gXq- 2024` reads `חשבוניות 2024` and a nested folder reads
//! `חשבוניות 2024/ארכיון`.

use super::mutf7;

/// The separator shown between levels of a plain path.
pub const SHOWN_SEPARATOR: &str = "/";

/// The prefix every folder of the user's own lives under, when the server keeps them under
/// INBOX (`INBOX.` with `.` as its delimiter): every folder but INBOX itself starts with it.
pub fn personal_prefix<'a>(folders: impl IntoIterator<Item = (&'a str, &'a str)>) -> String {
    let mut prefix: Option<String> = None;
    let mut any = false;
    for (name, delimiter) in folders {
        if name.eq_ignore_ascii_case("INBOX") {
            continue;
        }
        any = true;
        let Some(d) = delimiter.chars().next() else {
            return String::new();
        };
        let candidate = format!("INBOX{d}");
        if !name.starts_with(&candidate) || prefix.as_ref().is_some_and(|p| *p != candidate) {
            return String::new();
        }
        prefix = Some(candidate);
    }
    if any {
        prefix.unwrap_or_default()
    } else {
        String::new()
    }
}

/// The decoded levels of `name` below `prefix` (Gmail's own folder without a role by the name
/// Gmail gives it in Hebrew, see [`gmails_own`]).
pub fn levels(name: &str, delimiter: &str, prefix: &str) -> Vec<String> {
    if let Some(shown) = gmails_own(name) {
        return vec![shown.to_string()];
    }
    let rest = name
        .strip_prefix(prefix)
        .filter(|r| !r.is_empty())
        .unwrap_or(name);
    match delimiter.chars().next() {
        Some(d) => rest.split(d).map(mutf7::decode).collect(),
        None => vec![mutf7::decode(rest)],
    }
}

/// Gmail's own folders that have no role here (`\Important`; the others are INBOX, Sent,
/// Drafts, Spam, Trash, All Mail, and Starred, which is not synced), by the name Gmail's Hebrew
/// interface gives them: `[Gmail]/` (`[Google Mail]/` in some countries) is Gmail's container,
/// no folder of the user's, and its names are English.
pub fn gmails_own(name: &str) -> Option<&'static str> {
    let own = name
        .strip_prefix("[Gmail]/")
        .or_else(|| name.strip_prefix("[Google Mail]/"))?;
    match own {
        "Important" => Some("חשוב"),
        _ => None,
    }
}

/// The plain path: the levels joined by [`SHOWN_SEPARATOR`].
pub fn plain(name: &str, delimiter: &str, prefix: &str) -> String {
    levels(name, delimiter, prefix).join(SHOWN_SEPARATOR)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gmails_important_reads_in_hebrew_and_a_label_as_named() {
        assert_eq!(plain("[Gmail]/Important", "/", ""), "חשוב");
        assert_eq!(levels("[Google Mail]/Important", "/", ""), ["חשוב"]);
        assert_eq!(plain("[Gmail]/Receipts", "/", ""), "[Gmail]/Receipts");
        assert_eq!(plain("Important", "/", ""), "Important");
    }

    #[test]
    fn courier_prefix_and_dots_are_hidden_and_hebrew_decoded() {
        let inv = format!("INBOX.{} 2024", mutf7::encode("חשבוניות"));
        let nested = format!("{inv}.{}", mutf7::encode("ארכיון"));
        let all = [
            ("INBOX", "."),
            (inv.as_str(), "."),
            (nested.as_str(), "."),
            ("INBOX.Sent", "."),
        ];
        let prefix = personal_prefix(all);
        assert_eq!(prefix, "INBOX.");
        assert_eq!(plain(&nested, ".", &prefix), "חשבוניות 2024/ארכיון");
        assert_eq!(plain("INBOX", ".", &prefix), "INBOX");
        assert_eq!(levels(&inv, ".", &prefix), ["חשבוניות 2024"]);
    }

    #[test]
    fn dovecot_layout_keeps_its_names() {
        let all = [("INBOX", "/"), ("Clients/Junk", "/"), ("Sent", "/")];
        let prefix = personal_prefix(all);
        assert_eq!(prefix, "");
        assert_eq!(plain("Clients/Junk", "/", &prefix), "Clients/Junk");
        assert_eq!(plain("INBOX/x", "/", ""), "INBOX/x");
        assert_eq!(personal_prefix([("INBOX", ".")]), "");
        assert_eq!(plain("flat", "", ""), "flat");
    }
}
