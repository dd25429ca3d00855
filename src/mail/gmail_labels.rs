//! Gmail's labels as X-GM-LABELS gives them (X-GM-EXT-1), read off a raw FETCH line
//! (`imap::gmail_ids`) and from imap-proto's parse of the flags' FETCH (`sync::folder`), in one
//! form.

use super::imap_quoted::unescaped;

/// The items of an X-GM-LABELS list, from after its `(`, and the length of the list up to and
/// including its `)`: atoms (`\Inbox`, `Receipts`) and quoted strings (`"Muy Importante"`,
/// `"&BeIF0QXVBdMF1A-"`), a quoted one's escapes undone (`imap_quoted::unescaped`, as the
/// flags' FETCH and LIST's folder names are), so a label reads the same from this line, from
/// the flags' FETCH and as a folder.
/// None when the list does not end on the line (a label sent as a literal is not read here).
pub(super) fn label_list(text: &str) -> Option<(Vec<String>, usize)> {
    // Every delimiter is ASCII, so each cut falls between characters.
    let b = text.as_bytes();
    let mut labels = Vec::new();
    let mut i = 0;
    loop {
        match *b.get(i)? {
            b' ' => i += 1,
            b')' => return Some((labels, i + 1)),
            b'{' => return None,
            b'"' => {
                let start = i + 1;
                i = start;
                loop {
                    match *b.get(i)? {
                        b'\\' => i += 2,
                        b'"' => break,
                        _ => i += 1,
                    }
                }
                labels.push(unescaped(text.get(start..i)?).into_owned());
                i += 1;
            }
            _ => {
                let start = i;
                while b.get(i).is_some_and(|c| !matches!(c, b' ' | b')')) {
                    i += 1;
                }
                labels.push(text[start..i].to_string());
            }
        }
    }
}

/// The user's labels among X-GM-LABELS's items, sorted and each once: Gmail's own (`\Inbox`,
/// `\Important`, `\Starred`, `\Sent`...) start with a backslash and are not the user's.
pub fn user_labels<S: AsRef<str>>(items: impl IntoIterator<Item = S>) -> Vec<String> {
    let mut labels: Vec<String> = items
        .into_iter()
        .map(|l| l.as_ref().to_string())
        .filter(|l| !l.starts_with('\\') && !l.is_empty())
        .collect();
    labels.sort();
    labels.dedup();
    labels
}
