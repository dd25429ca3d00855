//! Where a reply's own words end and the mail it quotes begins: `>` lines, the attribution line
//! mailers write above a quote ("On … wrote:" in English, Hebrew, Arabic and Russian Gmail and
//! Thunderbird forms), Outlook's "Original Message" and header blocks. Used to judge what the
//! writer asked (follow-ups) and which language they wrote in (the answer's language): a short
//! English reply above a long Hebrew thread is an English mail.

/// The bidirectional marks Gmail wraps its Hebrew and Arabic attribution lines in.
fn without_marks(line: &str) -> &str {
    line.trim_matches(|c: char| {
        c.is_whitespace() || matches!(c, '\u{200E}' | '\u{200F}' | '\u{202A}'..='\u{202E}')
    })
}

/// The endings of an attribution line ("…wrote:"), in the languages the answers are written in.
const WROTE: &[&str] = &[
    "wrote:",
    "כתב:",
    "כתבה:",
    "כתב/ה:",
    "كتب:",
    "كتبت:",
    "написал:",
    "написала:",
    "написал(а):",
];

/// Whether `line` starts the quoted mail a reply carries.
pub fn starts_quote(line: &str) -> bool {
    let l = without_marks(line);
    l.starts_with('>')
        || l.starts_with("-----Original Message-----")
        || l.starts_with("----- Original Message -----")
        || l.starts_with("-----הודעה מקורית-----")
        || l.starts_with("________________________________")
        || WROTE.iter().any(|w| l.ends_with(w))
        // Gmail in other languages: "чт, 26 нояб. 2026 г. в 08:10, Dana <d@x>:".
        || (l.ends_with(">:") && l.contains('@'))
        // Gmail in Hebrew: "בתאריך יום ב׳, 10 במרץ 2025 ב-10:00 מאת Dana <d@x>:".
        || (l.starts_with("בתאריך ") && l.ends_with(':'))
        || l.starts_with("From: ")
        || l.starts_with("מאת: ")
}

/// The writer's own words: the text before the quoted mail, at most about 20,000 bytes.
pub fn own_text(text: &str) -> String {
    let mut out = String::new();
    for line in text.lines() {
        if starts_quote(line) {
            break;
        }
        out.push_str(line);
        out.push('\n');
        if out.len() > 20_000 {
            break;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_quote_starts_at_each_mailers_attribution() {
        for (text, own) in [
            (
                "מעולה, תודה.\n\nבתאריך יום ב׳, 10 במרץ 2025, דנה כתבה:\n> מתי?",
                "מעולה, תודה.",
            ),
            (
                "Thanks!\n-----Original Message-----\nFrom: x\nCan you call me?",
                "Thanks!",
            ),
            (
                "Sure.\n\nOn Mon, Mar 10, 2025 Dana <d@x.com> wrote:\n> Sure?",
                "Sure.",
            ),
            (
                "Fine.\n\u{202B}בתאריך יום ב׳, 10 במרץ 2025 ב-10:00 מאת \u{202A}Dana\u{202C}\u{200F} <\u{202A}d@x\u{202C}\u{200F}>:\u{202C}\n> שאלה",
                "Fine.",
            ),
            (
                "حسنا.\nفي الاثنين، 10 مارس 2025 Dana <d@x> كتب:\n> سؤال",
                "حسنا.",
            ),
            (
                "Хорошо.\nпн, 10 мар. 2025 г. в 10:00, Dana <d@x> написал(а):\n> вопрос",
                "Хорошо.",
            ),
            (
                "Хорошо.\nчт, 26 нояб. 2026 г. в 08:10, Dana <d@x.com>:\n> вопрос",
                "Хорошо.",
            ),
            ("שורה אחת\nושנייה", "שורה אחת\nושנייה"),
        ] {
            assert_eq!(own_text(text).trim(), own, "{text}");
        }
    }
}
