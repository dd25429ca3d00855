//! HTML tricks: text hidden from the reader (display:none, zero or one-pixel fonts, white on
//! white) that is there for filters, a mail that is one image and almost no text, and a
//! text part that says something else than the HTML part.

use std::collections::HashSet;

use super::{Found, Rule};
use crate::spam::mail::{Mail, strip_tags};

pub const HIDDEN_TEXT: Rule = Rule {
    id: "HIDDEN_TEXT",
    label: "טקסט מוסתר מהקורא ב-HTML",
};
pub const IMAGE_ONLY: Rule = Rule {
    id: "IMAGE_ONLY",
    label: "המייל הוא תמונה כמעט בלי טקסט",
};
pub const TEXT_HTML_MISMATCH: Rule = Rule {
    id: "TEXT_HTML_MISMATCH",
    label: "חלק הטקסט וחלק ה-HTML אומרים דברים שונים",
};

const HIDING: &[&str] = &[
    "display:none",
    "visibility:hidden",
    "font-size:0",
    "font-size:1px",
    "font-size:0px",
    "color:#ffffff;background-color:#ffffff",
    "color:#fff;background:#fff",
    "opacity:0;",
];

fn words(text: &str) -> HashSet<String> {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|w| w.chars().count() >= 4)
        .take(2_000)
        .map(crate::search::analyzer::fold_text)
        .collect()
}

pub fn check(mail: &Mail<'_>, found: &mut Found) {
    if mail.html.is_empty() {
        return;
    }
    let compact: String = mail
        .html
        .chars()
        .filter(|c| !c.is_whitespace())
        .take(crate::spam::mail::MAX_HTML)
        .collect::<String>()
        .to_ascii_lowercase();
    if let Some(trick) = HIDING.iter().find(|t| compact.contains(**t))
        // A hidden preheader is common in honest newsletters: only text worth hiding counts.
        && hidden_text_len(&compact, trick) >= 40
    {
        found.hit(&HIDDEN_TEXT, 1.5, *trick);
    }
    let visible = strip_tags(&mail.html);
    let letters = visible.chars().filter(|c| c.is_alphabetic()).count();
    if mail.images > 0 && letters < 60 {
        found.hit(&IMAGE_ONLY, 1.5, format!("{} / {letters}", mail.images));
    }
    if mail.plain.trim().len() > 200 && letters > 200 {
        let (a, b) = (words(&mail.plain), words(&visible));
        let shared = a.intersection(&b).count();
        let smaller = a.len().min(b.len()).max(1);
        if shared * 10 < smaller * 2 {
            found.hit(&TEXT_HTML_MISMATCH, 1.0, format!("{shared}/{smaller}"));
        }
    }
}

/// How much text sits in the element the trick hides (to its closing tag, bounded).
fn hidden_text_len(compact: &str, trick: &str) -> usize {
    let Some(at) = compact.find(trick) else {
        return 0;
    };
    let after = &compact[at..];
    let Some(open_end) = after.find('>') else {
        return 0;
    };
    let inner = &after[open_end + 1..];
    let close = inner.find("</").unwrap_or(inner.len()).min(2_000);
    strip_tags(&inner[..close])
        .chars()
        .filter(|c| c.is_alphanumeric())
        .count()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn found(raw: &str) -> Vec<&'static str> {
        let f = crate::spam::checks::found_by(check, raw);
        f.hits.iter().map(|h| h.rule).collect()
    }

    #[test]
    fn tricks() {
        let head = "From: a@b.test\r\nContent-Type: text/html\r\n\r\n";
        assert_eq!(
            found(&format!(
                "{head}<p>Hi</p><div style=\"display: none\">cheap meds cheap meds cheap meds cheap meds cheap</div><p>{}</p>\r\n",
                "words ".repeat(20)
            )),
            ["HIDDEN_TEXT"]
        );
        assert_eq!(
            found(&format!(
                "{head}<a href=x><img src=\"http://x.test/a.png\"></a>\r\n"
            )),
            ["IMAGE_ONLY"]
        );
        assert!(
            found(&format!(
                "{head}<span style=\"display:none\">preheader</span><p>{}</p>\r\n",
                "hello ".repeat(30)
            ))
            .is_empty()
        );
    }
}
