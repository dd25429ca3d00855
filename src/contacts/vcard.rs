//! vCard files (RFC 6350 4.0, and the 3.0 and 2.1 files phones and Google export): reading the
//! properties a contact keeps, and writing 4.0. No crate fits: the maintained ones read 4.0 only
//! and refuse the 3.0/2.1 files people actually have (quoted-printable Hebrew, `CHARSET=`).
//! Bounded: [`MAX_BYTES`] and [`MAX_CARDS`]; a malformed line is skipped, never a panic.

use super::model::ContactInput;

pub const MAX_BYTES: usize = 5 * 1024 * 1024;
pub const MAX_CARDS: usize = 5000;

/// One property line: name (upper case, group dropped), parameters (upper-cased names) and the
/// raw value.
struct Line {
    name: String,
    params: Vec<(String, String)>,
    value: String,
}

/// Joins folded lines (a line starting with a space or tab continues the one before) and
/// quoted-printable soft breaks (a line ending in `=` inside a QP value).
fn unfold(text: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut qp_open = false;
    for raw in text.split('\n') {
        let line = raw.strip_suffix('\r').unwrap_or(raw);
        if qp_open && let Some(last) = out.last_mut() {
            last.pop(); // the '='
            last.push_str(line);
        } else if (line.starts_with(' ') || line.starts_with('\t')) && !out.is_empty() {
            out.last_mut().expect("checked").push_str(&line[1..]);
        } else {
            out.push(line.to_string());
        }
        let last = out.last().map(String::as_str).unwrap_or("");
        qp_open = last.ends_with('=') && last.to_ascii_uppercase().contains("QUOTED-PRINTABLE");
    }
    out
}

/// The index of the ':' that ends the name and parameters (not one inside a quoted value).
fn colon(line: &str) -> Option<usize> {
    let mut quoted = false;
    for (i, c) in line.char_indices() {
        match c {
            '"' => quoted = !quoted,
            ':' if !quoted => return Some(i),
            _ => {}
        }
    }
    None
}

fn parse_line(line: &str) -> Option<Line> {
    let at = colon(line)?;
    let (head, value) = (&line[..at], &line[at + 1..]);
    let mut parts = head.split(';');
    let name = parts.next()?.trim();
    let name = name.rsplit('.').next().unwrap_or(name).to_ascii_uppercase();
    let params = parts
        .map(|p| match p.split_once('=') {
            Some((k, v)) => (
                k.trim().to_ascii_uppercase(),
                v.trim().trim_matches('"').to_string(),
            ),
            // 2.1's bare parameters: `TEL;CELL:` / `EMAIL;QUOTED-PRINTABLE:`.
            None => {
                let p = p.trim().to_ascii_uppercase();
                match p.as_str() {
                    "QUOTED-PRINTABLE" | "BASE64" | "B" => ("ENCODING".into(), p),
                    _ => ("TYPE".into(), p),
                }
            }
        })
        .collect();
    Some(Line {
        name,
        params,
        value: value.to_string(),
    })
}

fn param<'a>(l: &'a Line, name: &str) -> Option<&'a str> {
    l.params
        .iter()
        .find(|(k, _)| k == name)
        .map(|(_, v)| v.as_str())
}

fn hex(b: u8) -> Option<u8> {
    (b as char).to_digit(16).map(|d| d as u8)
}

fn decode_qp(s: &str) -> Vec<u8> {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'='
            && i + 2 < b.len() + 1
            && let (Some(h), Some(l)) = (
                b.get(i + 1).copied().and_then(hex),
                b.get(i + 2).copied().and_then(hex),
            )
        {
            out.push(h * 16 + l);
            i += 3;
            continue;
        }
        out.push(b[i]);
        i += 1;
    }
    out
}

/// Bytes in a legacy charset as text (the Hebrew ones phones used), else UTF-8.
fn text_of(bytes: Vec<u8>, charset: Option<&str>) -> String {
    let label = charset.unwrap_or("utf-8").to_ascii_lowercase();
    if label != "utf-8"
        && let Some(decode) =
            mail_parser::decoders::charsets::map::charset_decoder(label.as_bytes())
    {
        return decode(&bytes);
    }
    String::from_utf8_lossy(&bytes).into_owned()
}

/// The value with its encoding undone and its escapes (`\n`, `\,`, `\;`, `\\`) read.
fn value(l: &Line) -> String {
    let raw = if param(l, "ENCODING").is_some_and(|e| e.eq_ignore_ascii_case("QUOTED-PRINTABLE")) {
        text_of(decode_qp(&l.value), param(l, "CHARSET"))
    } else {
        l.value.clone()
    };
    unescape(&raw)
}

fn unescape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut it = s.chars();
    while let Some(c) = it.next() {
        if c == '\\' {
            match it.next() {
                Some('n' | 'N') => out.push('\n'),
                Some(o) => out.push(o),
                None => {}
            }
        } else {
            out.push(c);
        }
    }
    out
}

/// Splits a structured value on unescaped `sep`, each part unescaped.
fn components(l: &Line, sep: char) -> Vec<String> {
    let raw = if param(l, "ENCODING").is_some_and(|e| e.eq_ignore_ascii_case("QUOTED-PRINTABLE")) {
        text_of(decode_qp(&l.value), param(l, "CHARSET"))
    } else {
        l.value.clone()
    };
    let mut parts = vec![String::new()];
    let mut escaped = false;
    for c in raw.chars() {
        if escaped {
            parts
                .last_mut()
                .expect("one")
                .push(if c == 'n' || c == 'N' { '\n' } else { c });
            escaped = false;
        } else if c == '\\' {
            escaped = true;
        } else if c == sep {
            parts.push(String::new());
        } else {
            parts.last_mut().expect("one").push(c);
        }
    }
    parts.into_iter().map(|p| p.trim().to_string()).collect()
}

/// What a file holds: the cards read, and how many were malformed or had nothing to keep.
#[derive(Debug, Default)]
pub struct Read {
    pub cards: Vec<ContactInput>,
    pub skipped: usize,
}

/// Reads every card of `text` (already checked against [`MAX_BYTES`]).
pub fn read(text: &str) -> Read {
    let mut out = Read::default();
    let mut card: Option<ContactInput> = None;
    let mut structured_name = String::new();
    for line in unfold(text) {
        if line.trim().is_empty() {
            continue;
        }
        let Some(l) = parse_line(&line) else { continue };
        match (l.name.as_str(), card.as_mut()) {
            ("BEGIN", _) if l.value.trim().eq_ignore_ascii_case("VCARD") => {
                if card.is_some() {
                    out.skipped += 1; // a card never closed
                }
                card = Some(ContactInput::default());
                structured_name.clear();
            }
            ("END", Some(_)) if l.value.trim().eq_ignore_ascii_case("VCARD") => {
                let mut c = card.take().expect("open");
                if c.name.trim().is_empty() {
                    c.name = structured_name.clone();
                }
                if out.cards.len() >= MAX_CARDS
                    || c.name.trim().is_empty()
                    || c.email.trim().is_empty()
                {
                    out.skipped += 1;
                } else {
                    out.cards.push(c);
                }
            }
            ("FN", Some(c)) => c.name = value(&l).trim().to_string(),
            ("N", Some(_)) => {
                // family;given;additional;prefix;suffix → "given family"
                let p = components(&l, ';');
                let given = p.get(1).cloned().unwrap_or_default();
                let family = p.first().cloned().unwrap_or_default();
                structured_name = format!("{given} {family}").trim().to_string();
            }
            ("EMAIL", Some(c)) if c.email.is_empty() => c.email = value(&l).trim().to_string(),
            ("TEL", Some(c)) if c.phone.is_empty() => {
                c.phone = value(&l).trim().trim_start_matches("tel:").to_string()
            }
            ("ORG", Some(c)) => {
                c.company = components(&l, ';').into_iter().next().unwrap_or_default()
            }
            ("TITLE", Some(c)) => c.position = value(&l).trim().to_string(),
            ("NOTE", Some(c)) => c.notes = value(&l).trim().to_string(),
            ("CATEGORIES", Some(c)) => {
                c.groups = components(&l, ',')
                    .into_iter()
                    .filter(|g| !g.is_empty())
                    .collect()
            }
            _ => {}
        }
    }
    if card.is_some() {
        out.skipped += 1;
    }
    out
}

fn escape(s: &str) -> String {
    s.replace('\\', "\\\\")
        .replace(',', "\\,")
        .replace(';', "\\;")
        .replace("\r\n", "\\n")
        .replace('\n', "\\n")
        .replace('\r', "")
}

/// A content line folded at 75 octets, never inside a character.
fn fold_line(line: &str, out: &mut String) {
    let mut width = 0;
    for c in line.chars() {
        if width + c.len_utf8() > 75 {
            out.push_str("\r\n ");
            width = 1;
        }
        out.push(c);
        width += c.len_utf8();
    }
    out.push_str("\r\n");
}

/// One vCard 4.0 per contact.
pub fn write<'a>(contacts: impl IntoIterator<Item = &'a ContactInput>) -> String {
    let mut out = String::new();
    for c in contacts {
        out.push_str("BEGIN:VCARD\r\nVERSION:4.0\r\n");
        fold_line(&format!("FN:{}", escape(&c.name)), &mut out);
        // N is required by 3.0 readers: the name as given, unsplit.
        fold_line(&format!("N:{};;;;", escape(&c.name)), &mut out);
        for (prop, v) in [
            ("EMAIL", &c.email),
            ("TEL", &c.phone),
            ("ORG", &c.company),
            ("TITLE", &c.position),
            ("NOTE", &c.notes),
        ] {
            if !v.trim().is_empty() {
                fold_line(&format!("{prop}:{}", escape(v)), &mut out);
            }
        }
        if !c.groups.is_empty() {
            let groups: Vec<String> = c.groups.iter().map(|g| escape(g)).collect();
            fold_line(&format!("CATEGORIES:{}", groups.join(",")), &mut out);
        }
        out.push_str("END:VCARD\r\n");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hebrew_round_trips_through_4_0() {
        let c = ContactInput {
            name: "משה כהן, הבן; \"הגדול\"".into(),
            email: "moshe@example.co.il".into(),
            phone: "+972-50-1234567".into(),
            company: "חברה בע״מ".into(),
            position: "מנהל".into(),
            groups: vec!["משפחה".into(), "עבודה, צוות".into()],
            notes: "שורה ראשונה\nשורה שנייה ".repeat(8),
        };
        let text = write([&c]);
        assert!(text.lines().all(|l| l.len() <= 76), "{text}");
        let back = read(&text);
        assert_eq!(back.skipped, 0);
        assert_eq!(back.cards.len(), 1);
        let b = &back.cards[0];
        assert_eq!(b.name, c.name);
        assert_eq!(b.email, c.email);
        assert_eq!(b.company, c.company);
        assert_eq!(b.groups, c.groups);
        assert_eq!(b.notes, c.notes.trim());
    }

    #[test]
    fn reads_a_google_3_0_export_and_a_phone_2_1_file() {
        let google = "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:דנה לוי\r\nN:לוי;דנה;;;\r\n\
            EMAIL;TYPE=INTERNET;TYPE=HOME:dana@example.com\r\nTEL;TYPE=CELL:050-111\r\n\
            item1.ORG:מעבדה;מחקר\r\nCATEGORIES:myContacts,חברים\r\nEND:VCARD\r\n";
        let r = read(google);
        assert_eq!(r.cards.len(), 1);
        let c = &r.cards[0];
        assert_eq!(
            (c.name.as_str(), c.email.as_str()),
            ("דנה לוי", "dana@example.com")
        );
        assert_eq!((c.phone.as_str(), c.company.as_str()), ("050-111", "מעבדה"));
        assert_eq!(c.groups, vec!["myContacts", "חברים"]);
        // 2.1: quoted-printable UTF-8 split by a soft break, N only, bare TYPE parameters.
        let phone = "BEGIN:VCARD\nVERSION:2.1\nN;CHARSET=UTF-8;ENCODING=QUOTED-PRINTABLE:=D7=9B=D7=94=D7=9F;=D7=90=\n=D7=91=D7=99\nTEL;CELL:052\nEMAIL;INTERNET:avi@example.com\nEND:VCARD\n";
        let r = read(phone);
        assert_eq!(r.cards.len(), 1, "{r:?}");
        assert_eq!(r.cards[0].name, "אבי כהן");
        // A windows-1255 note.
        let legacy = "BEGIN:VCARD\nVERSION:2.1\nFN:x\nEMAIL:x@y.z\nNOTE;CHARSET=WINDOWS-1255;ENCODING=QUOTED-PRINTABLE:=F9=EC=E5=ED\nEND:VCARD\n";
        assert_eq!(read(legacy).cards[0].notes, "שלום");
    }

    #[test]
    fn malformed_cards_are_skipped_never_a_panic() {
        for junk in [
            "",
            "garbage",
            "BEGIN:VCARD\nFN:no end",
            "END:VCARD\nBEGIN:VCARD\nEND:VCARD",
            "BEGIN:VCARD\nFN:no email\nEND:VCARD",
            "BEGIN:VCARD\nEMAIL;QUOTED-PRINTABLE:=\n",
            "BEGIN:VCARD\nNOTE;ENCODING=QUOTED-PRINTABLE:=F\nEND:VCARD",
            "\u{0}\u{ffff}:;;\\",
        ] {
            let r = read(junk);
            assert!(r.cards.is_empty(), "{junk:?}");
        }
        assert_eq!(read("BEGIN:VCARD\nFN:no email\nEND:VCARD").skipped, 1);
    }
}
