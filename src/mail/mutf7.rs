//! IMAP's modified UTF-7 for mailbox names (RFC 3501 §5.1.3): Hebrew folder names arrive as
//! `&BdAF0QXS-` and must be shown as `אבג`.

use base64::Engine;
use base64::alphabet::IMAP_MUTF7;
use base64::engine::general_purpose::{GeneralPurpose, NO_PAD};

const ENGINE: GeneralPurpose = GeneralPurpose::new(&IMAP_MUTF7, NO_PAD);

/// Decodes a mailbox name; a malformed one is returned as it came.
pub fn decode(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    let mut rest = name;
    while let Some(p) = rest.find('&') {
        out.push_str(&rest[..p]);
        let after = &rest[p + 1..];
        let Some(end) = after.find('-') else {
            return name.to_string();
        };
        let chunk = &after[..end];
        if chunk.is_empty() {
            out.push('&');
        } else {
            let Ok(bytes) = ENGINE.decode(chunk) else {
                return name.to_string();
            };
            if bytes.len() % 2 != 0 {
                return name.to_string();
            }
            let units: Vec<u16> = bytes
                .chunks(2)
                .map(|c| u16::from_be_bytes([c[0], c[1]]))
                .collect();
            match String::from_utf16(&units) {
                Ok(s) => out.push_str(&s),
                Err(_) => return name.to_string(),
            }
        }
        rest = &after[end + 1..];
    }
    out.push_str(rest);
    out
}

/// Encodes a mailbox name: printable ASCII stays, `&` becomes `&-`, every other run of
/// characters is UTF-16 in IMAP's base64 between `&` and `-`.
pub fn encode(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    let mut run: Vec<u16> = Vec::new();
    let flush = |run: &mut Vec<u16>, out: &mut String| {
        if !run.is_empty() {
            let bytes: Vec<u8> = run.iter().flat_map(|u| u.to_be_bytes()).collect();
            out.push('&');
            out.push_str(&ENGINE.encode(bytes));
            out.push('-');
            run.clear();
        }
    };
    for c in name.chars() {
        if (' '..='~').contains(&c) {
            flush(&mut run, &mut out);
            if c == '&' {
                out.push_str("&-");
            } else {
                out.push(c);
            }
        } else {
            run.extend(c.encode_utf16(&mut [0; 2]).iter());
        }
    }
    flush(&mut run, &mut out);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decodes_hebrew_and_ampersand() {
        assert_eq!(decode("INBOX"), "INBOX");
        assert_eq!(decode("&BdAF0QXS-"), "אבג");
        assert_eq!(decode("A&-B"), "A&B");
        assert_eq!(decode("broken&AAA"), "broken&AAA");
    }

    #[test]
    fn encodes_what_it_decodes() {
        assert_eq!(encode("אבג"), "&BdAF0QXS-");
        assert_eq!(encode("A&B"), "A&-B");
        for name in ["חשבוניות 2024", "Clients", "a&b ג-ד", "😀 x", ""] {
            assert_eq!(decode(&encode(name)), name);
        }
    }
}
