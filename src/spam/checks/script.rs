//! Text in a script far from a Hebrew reader's: Chinese, Japanese, Korean or Thai, by the
//! decoded letters of the subject and text, or by a far charset the mail declares for a part,
//! its Subject or its From (SpamAssassin's CHARSET_FARAWAY judges by that label alone; the
//! letters also catch far text sent as UTF-8). Latin, Cyrillic and Arabic are near enough: a
//! Hebrew speaker gets those from people. Worth 3 points: suspicious alone, spam with any other
//! clue (measured with `spam_cv --time-split`; docs/BENCHMARKS.md issue 18, looks 7 and 8).

use super::{Found, Rule};
use crate::spam::mail::Mail;

pub const FARAWAY_SCRIPT: Rule = Rule {
    id: "FARAWAY_SCRIPT",
    label: "טקסט בסינית, ביפנית, בקוריאנית או בתאילנדית",
};

pub const POINTS: f32 = 3.0;
/// Characters of the subject and of the text looked at.
const SUBJECT_CHARS: usize = 1_000;
const TEXT_CHARS: usize = 5_000;

pub fn check(mail: &Mail<'_>, found: &mut Found) {
    let (far, letters) = far_letters(&mail.subject, &mail.text);
    // A few far letters in an English or Hebrew mail (a name, a product) are not enough.
    if far >= 20 && far * 3 >= letters {
        found.hit(
            &FARAWAY_SCRIPT,
            POINTS,
            format!("{far} מתוך {letters} אותיות"),
        );
    } else if mail.far_charset {
        found.hit(
            &FARAWAY_SCRIPT,
            POINTS,
            "המייל מוצהר בקידוד תווים של כתב זה",
        );
    }
}

/// Whether the bytes of `s`'s first `chars` characters (at most 4 bytes each) hold a lead byte
/// of a three-byte UTF-8 sequence.
fn has_far_lead(s: &str, chars: usize) -> bool {
    s.as_bytes()[..s.len().min(chars * 4)]
        .iter()
        .any(|b| (0xE0..=0xEF).contains(b))
}

/// Thai, Hangul, kana (also half-width) and Han.
fn is_far(c: char) -> bool {
    const RANGES: &[(u32, u32)] = &[
        (0x0E00, 0x0E7F), // Thai
        (0x1100, 0x11FF), // Hangul jamo
        (0x3040, 0x30FF), // kana
        (0x3400, 0x4DBF), // Han, extension A
        (0x4E00, 0x9FFF), // Han
        (0xAC00, 0xD7AF), // Hangul syllables
        (0xFF66, 0xFF9F), // half-width kana
    ];
    let u = c as u32;
    RANGES.iter().any(|&(lo, hi)| (lo..=hi).contains(&u))
}

/// Letters of the subject and the text's first characters in a far script, and all letters.
fn far_letters(subject: &str, text: &str) -> (usize, usize) {
    // Every far letter is three bytes in UTF-8, led by 0xE0-0xEF; Latin and Hebrew text has
    // none of those, so most mail is passed over by a byte scan.
    if !has_far_lead(subject, SUBJECT_CHARS) && !has_far_lead(text, TEXT_CHARS) {
        return (0, 0);
    }
    let (mut far, mut letters) = (0, 0);
    for c in subject
        .chars()
        .take(SUBJECT_CHARS)
        .chain(text.chars().take(TEXT_CHARS))
    {
        if !c.is_alphabetic() {
            continue;
        }
        letters += 1;
        if is_far(c) {
            far += 1;
        }
    }
    (far, letters)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fired(raw: &str) -> bool {
        let found = crate::spam::checks::found_by(check, raw);
        found.hits.iter().any(|h| h.rule == FARAWAY_SCRIPT.id)
    }

    #[test]
    fn far_text_fires() {
        let chinese = "我们的产品质量最好价格最低欢迎您来订购我们的产品质量最好价格最低";
        assert!(fired(&format!(
            "From: a@b.test\r\nSubject: hi\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n{chinese}\r\n"
        )));
        let thai = "สวัสดีครับขอเสนอสินค้าราคาพิเศษสำหรับคุณวันนี้เท่านั้น";
        assert!(fired(&format!(
            "From: a@b.test\r\nSubject: x\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n{thai}\r\n"
        )));
    }

    #[test]
    fn a_declared_far_charset_fires() {
        assert!(fired(
            "From: a@b.test\r\nSubject: x\r\nContent-Type: text/plain; charset=\"ISO-2022-JP\"\r\n\r\nhello\r\n"
        ));
        assert!(fired(
            "From: a@b.test\r\nSubject: =?gb2312?B?xOO6ww==?=\r\n\r\nhello\r\n"
        ));
        // An alias, and an encoded word naming its language.
        assert!(fired(
            "From: a@b.test\r\nSubject: x\r\nContent-Type: text/plain; charset=Windows-31J\r\n\r\nhello\r\n"
        ));
        assert!(fired(
            "From: =?ISO-2022-JP*ja?B?GyRCJUYlOSVIGyhC?= <a@b.test>\r\nSubject: x\r\n\r\nhello\r\n"
        ));
        // Not a far charset.
        assert!(!fired(
            "From: a@b.test\r\nSubject: =?windows-1255?B?+ezl7Q==?=\r\n\r\nhello\r\n"
        ));
    }

    #[test]
    fn near_scripts_and_a_few_far_letters_do_not() {
        assert!(!fired(
            "From: a@b.test\r\nSubject: שלום\r\nContent-Type: text/plain; charset=utf-8\r\n\r\nמה שלומך? נפגש מחר בתל אביב\r\n"
        ));
        assert!(!fired(
            "From: a@b.test\r\nSubject: Привет\r\nContent-Type: text/plain; charset=koi8-r\r\n\r\nhello\r\n"
        ));
        // A Japanese restaurant's name in an English mail.
        let english = "Let us meet at the new place downtown, the food is great. ".repeat(4);
        assert!(!fired(&format!(
            "From: a@b.test\r\nSubject: dinner\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n{english} 寿司の店\r\n"
        )));
    }
}
