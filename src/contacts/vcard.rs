//! vCard files (RFC 6350 4.0, and the 3.0 and 2.1 files phones and Google export): reading the
//! properties a contact keeps, and writing 4.0. No crate fits: the maintained ones read 4.0 only
//! and refuse the 3.0/2.1 files people actually have (quoted-printable Hebrew, `CHARSET=`).
//! Bounded: [`MAX_BYTES`] and [`MAX_CARDS`]; a malformed line is skipped, never a panic.

use std::sync::atomic::{AtomicBool, Ordering};

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

/// The longest logical line kept (a property with its folded continuations), in bytes. A
/// contact's fields are short; a longer line (a phone's embedded photo, a hostile file) is
/// dropped as it is read, never kept whole.
pub const MAX_LINE: usize = 64 * 1024;
/// Physical lines read between two looks at the request's stop flag.
const CHECK_EVERY: usize = 4096;

/// The logical line being joined. Linear in what it reads: each physical line is scanned once
/// (for the head's colon while it is not found), and the quoted-printable question is asked of
/// the head once, never of the whole accumulated line again.
struct Logical {
    text: String,
    /// Where the head (name and parameters) ends, once its colon was read.
    head_end: Option<usize>,
    /// Inside a quoted parameter value while looking for the colon.
    quoted: bool,
    /// The head says QUOTED-PRINTABLE: a line ending in `=` continues on the next one.
    qp: bool,
    /// Longer than [`MAX_LINE`]: only its last few bytes are kept (to tell whether a soft
    /// break follows), and it is dropped when it ends.
    too_long: bool,
}

impl Logical {
    fn new(line: &str) -> Self {
        let mut l = Self {
            text: String::new(),
            head_end: None,
            quoted: false,
            qp: false,
            too_long: false,
        };
        l.push(line);
        l
    }

    fn push(&mut self, piece: &str) {
        let start = self.text.len();
        self.text.push_str(piece);
        if self.head_end.is_none() && !self.too_long {
            for (i, c) in self.text[start..].char_indices() {
                match c {
                    '"' => self.quoted = !self.quoted,
                    ':' if !self.quoted => {
                        let end = start + i;
                        self.head_end = Some(end);
                        self.qp = self.text[..end]
                            .to_ascii_uppercase()
                            .contains("QUOTED-PRINTABLE");
                        break;
                    }
                    _ => {}
                }
            }
        }
        if self.text.len() > MAX_LINE {
            self.too_long = true;
        }
        if self.too_long {
            // Keep the tail only: a soft break is a last `=`.
            let mut cut = self.text.len().saturating_sub(4);
            while !self.text.is_char_boundary(cut) {
                cut -= 1;
            }
            self.text.drain(..cut);
        }
    }

    /// Whether the next physical line continues this one as a quoted-printable soft break.
    fn soft_break(&self) -> bool {
        self.qp && self.text.ends_with('=')
    }
}

/// Logical lines, and how many were dropped for their length.
#[derive(Default)]
struct Unfolded {
    lines: Vec<String>,
    too_long: usize,
}

impl Unfolded {
    fn end(&mut self, l: Logical) {
        if l.too_long {
            self.too_long += 1;
        } else {
            self.lines.push(l.text);
        }
    }
}

/// Joins folded lines (a line starting with a space or tab continues the one before) and
/// quoted-printable soft breaks (a line ending in `=` inside a QP value). `None` when `stop`
/// was raised (the request that asked is gone).
fn unfold(text: &str, stop: &AtomicBool) -> Option<Unfolded> {
    let mut out = Unfolded::default();
    let mut current: Option<Logical> = None;
    for (n, raw) in text.split('\n').enumerate() {
        if n % CHECK_EVERY == 0 && stop.load(Ordering::Relaxed) {
            return None;
        }
        let line = raw.strip_suffix('\r').unwrap_or(raw);
        match current.as_mut() {
            Some(l) if l.soft_break() => {
                l.text.pop(); // the '='
                l.push(line);
            }
            Some(l) if line.starts_with(' ') || line.starts_with('\t') => l.push(&line[1..]),
            _ => {
                if let Some(done) = current.replace(Logical::new(line)) {
                    out.end(done);
                }
            }
        }
    }
    if let Some(done) = current {
        out.end(done);
    }
    Some(out)
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
    /// Properties longer than [`MAX_LINE`], dropped.
    pub too_long: usize,
}

/// Reads every card of `text` (already checked against [`MAX_BYTES`]).
pub fn read(text: &str) -> Read {
    read_until(text, &AtomicBool::new(false)).expect("never stopped")
}

/// [`read`], giving up (`None`) once `stop` is raised: the route raises it when its request
/// ends, so a file's work never outlives the request that sent it.
pub fn read_until(text: &str, stop: &AtomicBool) -> Option<Read> {
    let unfolded = unfold(text, stop)?;
    let mut out = Read {
        too_long: unfolded.too_long,
        ..Read::default()
    };
    let mut card: Option<ContactInput> = None;
    let mut structured_name = String::new();
    for (n, line) in unfolded.lines.into_iter().enumerate() {
        if n % CHECK_EVERY == 0 && stop.load(Ordering::Relaxed) {
            return None;
        }
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
    Some(out)
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
    /// Runs `f` on another thread; `None` when it takes longer than `limit` (the thread is
    /// left to finish: on the old, quadratic reader that took minutes).
    fn within<T: Send + 'static>(
        limit: std::time::Duration,
        f: impl FnOnce() -> T + Send + 'static,
    ) -> Option<T> {
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let _ = tx.send(f());
        });
        rx.recv_timeout(limit).ok()
    }

    #[test]
    fn a_hostile_5_mb_file_reads_in_linear_time() {
        // Quoted-printable soft breaks: each continuation used to upper-case the whole line
        // joined so far (minutes of a core for 5 MB). Folded lines ending in `=`: the same.
        let mut soft =
            String::from("BEGIN:VCARD\nFN:x\nEMAIL:x@y.z\nNOTE;ENCODING=QUOTED-PRINTABLE:a=\n");
        let mut folded = String::from("BEGIN:VCARD\nFN:x\nEMAIL:x@y.z\nNOTE:a=\n");
        while soft.len() < MAX_BYTES - 100 {
            soft.push_str("a=\n");
            folded.push_str(" a=\n");
        }
        // An empty line ends the soft breaks; then the card ends.
        soft.push_str("\nEND:VCARD\n");
        folded.push_str("END:VCARD\n");
        // The yardstick, on this machine under its load now: an ordinary file of that size.
        let card = "BEGIN:VCARD\nFN:x\nEMAIL:x@y.z\nNOTE:a\nEND:VCARD\n";
        let ordinary = card.repeat(MAX_BYTES / card.len());
        let started = std::time::Instant::now();
        assert!(!read(&ordinary).cards.is_empty());
        let limit = started.elapsed() * 4 + std::time::Duration::from_millis(500);
        for text in [soft, folded] {
            let r = within(limit, move || read(&text))
                .unwrap_or_else(|| panic!("not read within {limit:?}, 4 times an ordinary file"));
            // The one huge property is dropped, the card kept.
            assert_eq!((r.cards.len(), r.too_long), (1, 1), "{r:?}");
            assert_eq!(r.cards[0].notes, "");
        }
    }

    #[test]
    fn a_logical_line_past_the_cap_is_dropped_and_the_rest_kept() {
        let mut long = String::from("BEGIN:VCARD\r\nFN:דנה\r\nNOTE:start");
        for _ in 0..MAX_LINE / 74 + 2 {
            long.push_str("\r\n ");
            long.push_str(&"y".repeat(74));
        }
        long.push_str("\r\nEMAIL:dana@example.test\r\nEND:VCARD\r\n");
        let r = read(&long);
        assert_eq!(r.too_long, 1);
        assert_eq!(r.cards.len(), 1, "{r:?}");
        assert_eq!(r.cards[0].email, "dana@example.test");
        assert_eq!(r.cards[0].notes, "", "the note past the cap is not kept");
        // Just under the cap stays.
        let fits = format!(
            "BEGIN:VCARD\nFN:x\nEMAIL:x@y.z\nNOTE:{}\nEND:VCARD\n",
            "z".repeat(MAX_LINE - 10)
        );
        let r = read(&fits);
        assert_eq!((r.too_long, r.cards[0].notes.len()), (0, MAX_LINE - 10));
    }

    #[test]
    fn reading_stops_when_the_request_is_gone() {
        let text = "BEGIN:VCARD\nFN:x\nEMAIL:x@y.z\nEND:VCARD\n".repeat(10);
        assert!(read_until(&text, &AtomicBool::new(true)).is_none());
        assert_eq!(
            read_until(&text, &AtomicBool::new(false))
                .unwrap()
                .cards
                .len(),
            10
        );
    }
}
