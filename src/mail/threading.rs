//! Thread keys. A thread is named by its root Message-ID (spec 000 §3: threadId, else
//! messageId, else id): the first entry of References, else In-Reply-To, else the message's
//! own id. Messages without those headers fall back to their normalized subject.

/// Reply and forward prefixes in the forms mail clients write them, Hebrew ones included.
const PREFIXES: &[&str] = &[
    "re",
    "fw",
    "fwd",
    "aw",
    "wg",
    "sv",
    "vs",
    "tr",
    "rv",
    "השב",
    "הועבר",
    "תשובה",
    "תגובה",
    "העבר",
];

/// `Re: [list] RE[2]: השב: Subject` → `subject`, and whether any reply prefix was present.
pub fn normalize_subject(subject: &str) -> (String, bool) {
    let mut s = subject.trim();
    let mut was_reply = false;
    loop {
        let before = s;
        // Mailing-list tags: "[SAtalk] Re: x".
        if s.starts_with('[')
            && let Some(end) = s.find(']')
        {
            s = s[end + 1..].trim_start();
        }
        if let Some(rest) = strip_prefix(s) {
            s = rest.trim_start();
            was_reply = true;
        }
        if s == before {
            break;
        }
    }
    let normalized = s
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .to_lowercase();
    (normalized, was_reply)
}

/// Strips one `Re:`, `RE[2]:`, `Fwd(3):` or `השב:` prefix (also with a full-width colon).
fn strip_prefix(s: &str) -> Option<&str> {
    let word_end = s
        .char_indices()
        .find(|(_, c)| !c.is_alphabetic())
        .map_or(s.len(), |(i, _)| i);
    let word = &s[..word_end];
    if !PREFIXES.iter().any(|p| p.eq_ignore_ascii_case(word)) {
        return None;
    }
    let mut rest = &s[word_end..];
    // Numbered forms: Re[2]: Re(2): Re^2:
    if let Some(r) = rest.strip_prefix(['[', '(']) {
        let close = r.find([']', ')'])?;
        if !r[..close].chars().all(|c| c.is_ascii_digit()) {
            return None;
        }
        rest = &r[close + 1..];
    } else if let Some(r) = rest.strip_prefix('^') {
        rest = r.trim_start_matches(|c: char| c.is_ascii_digit());
    }
    let rest = rest.trim_start();
    rest.strip_prefix(':').or_else(|| rest.strip_prefix('：'))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strips_every_prefix_form() {
        for (input, want) in [
            ("Re: Hello", "hello"),
            ("RE[2]: Fwd: hello", "hello"),
            ("השב: פגישה מחר", "פגישה מחר"),
            ("הועבר: השב: פגישה  מחר", "פגישה מחר"),
            ("תשובה: x", "x"),
            ("[SAtalk] Re: [SAtalk] spam filters", "spam filters"),
            ("Re(3):  x", "x"),
        ] {
            let (got, reply) = normalize_subject(input);
            assert_eq!(got, want, "{input}");
            assert!(reply, "{input}");
        }
        assert_eq!(normalize_subject("Hello"), ("hello".to_string(), false));
        assert!(!normalize_subject("Regarding: x").1);
        assert_eq!(normalize_subject("Reply-to x").0, "reply-to x");
    }
}
