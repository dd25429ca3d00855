//! IMAP quoted strings (RFC 3501 §4.3: `"` and `\` escaped by a backslash) both ways, for
//! mailbox names and Gmail's labels. imap-proto hands a quoted string's content over as sent,
//! escapes included, and async-imap escapes every name it sends: so a name is unescaped where
//! it comes in (LIST, STATUS, X-GM-LABELS) and kept as the server means it, or a folder named
//! `Clients "A"` could not be selected, and a label `Muy "Importante"` would show backslashes.
//! imap-proto does not say whether a string came quoted or as a literal: a name sent as a literal
//! (no escapes) holding `\\` or `\"` would be read one backslash short. Servers send names as
//! literals only for 8-bit or line-end characters, which modified UTF-7 names do not hold.

use std::borrow::Cow;

/// A mailbox name as an IMAP quoted string, for the commands built here (the ones async-imap
/// builds quote it themselves). Names come from the server's LIST, in modified UTF-7: ASCII.
pub fn quoted(name: &str) -> anyhow::Result<String> {
    anyhow::ensure!(
        !name.contains(['\r', '\n']),
        "a folder name with a line end cannot be selected"
    );
    Ok(format!(
        "\"{}\"",
        name.replace('\\', "\\\\").replace('"', "\\\"")
    ))
}

/// A quoted string's content with its escapes undone (`\"` → `"`, `\\` → `\`). An atom passes
/// unchanged: it holds no `\` but as a flag's first character (`\Inbox`), which no escape takes.
pub fn unescaped(content: &str) -> Cow<'_, str> {
    if !content.contains('\\') {
        return Cow::Borrowed(content);
    }
    let mut out = String::with_capacity(content.len());
    let mut chars = content.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.clone().next() {
            Some(next @ ('\\' | '"')) => {
                out.push(next);
                chars.next();
            }
            _ => out.push(c),
        }
    }
    Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn folder_names_are_quoted_and_line_ends_refused() {
        assert_eq!(quoted("INBOX.a \"b\\").unwrap(), "\"INBOX.a \\\"b\\\\\"");
        assert!(quoted("a\r\nb").is_err());
    }

    #[test]
    fn escapes_are_undone_once_and_atoms_pass() {
        assert_eq!(unescaped(r#"Muy \"Importante\""#), r#"Muy "Importante""#);
        assert_eq!(unescaped(r"a\\b"), r"a\b");
        assert_eq!(unescaped(r"a\\\\b"), r"a\\b");
        assert_eq!(unescaped(r"\Inbox"), r"\Inbox");
        assert_eq!(
            unescaped("INBOX.&BdcF6QXRBdUF0AXZBdUF6gXq-"),
            "INBOX.&BdcF6QXRBdUF0AXZBdUF6gXq-"
        );
        for name in [r#"Clients "A""#, r"back\slash", r#"\"#, r#"""#] {
            let q = quoted(name).unwrap();
            assert_eq!(unescaped(&q[1..q.len() - 1]), name, "round trip of {name}");
        }
    }
}
