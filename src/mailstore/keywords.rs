//! Triage statuses and priorities as IMAP keywords, so they live in the mailbox: they survive a
//! re-sync and other clients (Thunderbird shows keywords as tags) see them. `$Junk` is the
//! keyword other clients and server-side filters already use for spam.

/// (status, keyword), in the order a status is read back when a message carries several.
const STATUS_KEYWORDS: [(&str, &str); 7] = [
    ("spam", "$Junk"),
    ("suspicious", "$Suspicious"),
    ("advertisement", "$Advertisement"),
    ("needs_reply", "$NeedsReply"),
    ("unread", "$StatusUnread"),
    ("info", "$Info"),
    ("processed", "$Processed"),
];

const PRIORITY_KEYWORDS: [(&str, &str); 2] = [("urgent", "$Urgent"), ("high", "$HighPriority")];

/// Keywords this client manages; anything else (labels, `$Forwarded`, …) is left alone.
pub fn managed() -> impl Iterator<Item = &'static str> {
    STATUS_KEYWORDS
        .iter()
        .chain(PRIORITY_KEYWORDS.iter())
        .map(|(_, k)| *k)
        .chain(std::iter::once("$NotJunk"))
}

pub fn is_managed(keyword: &str) -> bool {
    managed().any(|k| k.eq_ignore_ascii_case(keyword))
}

/// The family of `$` keywords that are labels: this client's mapped names (`$label_…`, see
/// `labels::keyword`) and Thunderbird's own tags (`$label1` … `$label5`).
pub const LABEL_FAMILY: &str = "$label";

/// Whether a keyword on a mail is a label the user sees: a plain keyword (no `$`: another
/// client's tag, an older rule's label) or one of the `$label` family. `$Forwarded`, `$Junk`
/// and the other `$` keywords are state, not labels.
pub fn is_label(keyword: &str) -> bool {
    !keyword.is_empty()
        && !keyword.starts_with('\\')
        && (!keyword.starts_with('$')
            || keyword
                .get(..LABEL_FAMILY.len())
                .is_some_and(|p| p.eq_ignore_ascii_case(LABEL_FAMILY)))
}

fn find(table: &[(&'static str, &'static str)], keywords: &[String]) -> Option<&'static str> {
    table
        .iter()
        .find(|(_, k)| keywords.iter().any(|x| x.eq_ignore_ascii_case(k)))
        .map(|(v, _)| *v)
}

/// The status a message's keywords say, if any.
pub fn status_of(keywords: &[String]) -> Option<&'static str> {
    find(&STATUS_KEYWORDS, keywords)
}

pub fn priority_of(keywords: &[String]) -> Option<&'static str> {
    find(&PRIORITY_KEYWORDS, keywords)
}

/// Whether the keywords carry any triage state at all.
pub fn has_triage(keywords: &[String]) -> bool {
    status_of(keywords).is_some() || priority_of(keywords).is_some()
}

/// The managed keywords a message with this status and priority carries.
pub fn for_triage(status: Option<&str>, priority: Option<&str>) -> Vec<String> {
    let mut out = Vec::new();
    if let Some(s) = status
        && let Some((_, k)) = STATUS_KEYWORDS.iter().find(|(v, _)| *v == s)
    {
        out.push((*k).to_string());
    }
    if let Some(p) = priority
        && let Some((_, k)) = PRIORITY_KEYWORDS.iter().find(|(v, _)| *v == p)
    {
        out.push((*k).to_string());
    }
    out
}

/// `keywords` with the managed ones replaced by those of this status and priority.
pub fn with_triage(
    keywords: &[String],
    status: Option<&str>,
    priority: Option<&str>,
) -> Vec<String> {
    let mut out: Vec<String> = keywords
        .iter()
        .filter(|k| !is_managed(k))
        .cloned()
        .collect();
    out.extend(for_triage(status, priority));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kw(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn round_trips_every_status_and_priority() {
        for (status, _) in STATUS_KEYWORDS {
            for priority in [None, Some("high"), Some("urgent")] {
                let k = for_triage(Some(status), priority);
                assert_eq!(status_of(&k), Some(status));
                assert_eq!(priority_of(&k), priority);
            }
        }
        assert!(for_triage(None, None).is_empty());
    }

    #[test]
    fn reads_keywords_case_insensitively_and_prefers_spam() {
        assert_eq!(status_of(&kw(&["$junk"])), Some("spam"));
        assert_eq!(status_of(&kw(&["$Processed", "$Junk"])), Some("spam"));
        assert_eq!(status_of(&kw(&["work", "$Forwarded"])), None);
    }

    #[test]
    fn labels_are_plain_keywords_and_the_label_family() {
        for k in ["work", "$label_0a1b2c3d4e", "$Label1", "חשבונות"] {
            assert!(is_label(k), "{k}");
        }
        for k in ["$Junk", "$Forwarded", "$Snoozed", "\\Seen", "", "$lab"] {
            assert!(!is_label(k), "{k}");
        }
    }

    #[test]
    fn replacing_keeps_foreign_keywords() {
        let k = with_triage(&kw(&["work", "$Junk", "$Urgent"]), Some("processed"), None);
        assert_eq!(k, kw(&["work", "$Processed"]));
        assert!(!has_triage(&with_triage(&k, None, None)));
    }
}
