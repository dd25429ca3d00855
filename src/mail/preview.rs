//! The spec's preview rule (strip styles, scripts and tags, decode entities, keep only Latin
//! and Hebrew printable characters, cut to 300 characters) and its base64 rule (body text in
//! base64 is decoded only if it is valid base64 and the result contains angle brackets).

use base64::Engine;
use base64::engine::general_purpose::STANDARD as B64;

pub const PREVIEW_CHARS: usize = 300;

pub fn preview(text: &str) -> String {
    let text = if text.contains('<') && text.contains('>') {
        strip_html(text)
    } else {
        text.to_string()
    };
    let mut out = String::with_capacity(PREVIEW_CHARS);
    let mut count = 0;
    let mut last_space = true;
    for c in text.chars() {
        if count >= PREVIEW_CHARS {
            break;
        }
        let c = if c.is_whitespace() { ' ' } else { c };
        if c == ' ' {
            if last_space {
                continue;
            }
            last_space = true;
        } else if keep(c) {
            last_space = false;
        } else {
            continue;
        }
        out.push(c);
        count += 1;
    }
    out.trim_end().to_string()
}

/// Latin (ASCII, Latin-1 and Latin Extended letters), Hebrew (with niqqud and presentation
/// forms), and the dashes and quotes both scripts use.
fn keep(c: char) -> bool {
    matches!(c,
        ' '..='~'
        | '\u{00A1}'..='\u{024F}'
        | '\u{0591}'..='\u{05F4}'
        | '\u{FB1D}'..='\u{FB4F}'
        | '\u{2010}'..='\u{2027}'
        | '\u{20AA}')
}

pub use crate::kit::cut;

/// Tags out, `<script>`/`<style>`/`<head>` with their content out, entities decoded.
pub fn strip_html(html: &str) -> String {
    let mut out = String::with_capacity(html.len() / 2);
    let lower = html.to_ascii_lowercase();
    let mut i = 0;
    let bytes = html.as_bytes();
    while i < bytes.len() {
        if bytes[i] == b'<' {
            let rest = &lower[i..];
            let skip_to = ["script", "style", "head", "title"].iter().find_map(|tag| {
                let open = format!("<{tag}");
                if rest.starts_with(&open)
                    && rest[open.len()..].starts_with(|c: char| c == '>' || c.is_whitespace())
                {
                    let close = format!("</{tag}");
                    Some(rest.find(&close).map_or(lower.len(), |p| {
                        i + p + rest[p..].find('>').map_or(rest.len() - p, |e| e + 1)
                    }))
                } else {
                    None
                }
            });
            let end =
                skip_to.unwrap_or_else(|| lower[i..].find('>').map_or(lower.len(), |p| i + p + 1));
            out.push(' ');
            i = end;
            continue;
        }
        let next = html[i..].find('<').map_or(html.len(), |p| i + p);
        out.push_str(&decode_entities(&html[i..next]));
        i = next;
    }
    out
}

pub(crate) fn decode_entities(s: &str) -> String {
    if !s.contains('&') {
        return s.to_string();
    }
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    while let Some(p) = rest.find('&') {
        out.push_str(&rest[..p]);
        rest = &rest[p..];
        // At most 12 bytes ahead, cut at a character boundary (Hebrew is 2 bytes a letter).
        let window = rest
            .char_indices()
            .take_while(|(i, _)| *i <= 12)
            .last()
            .map_or(0, |(i, c)| i + c.len_utf8());
        let end = rest[..window].find(';');
        let decoded = end.and_then(|e| {
            let name = &rest[1..e];
            let c = match name {
                "amp" => Some('&'),
                "lt" => Some('<'),
                "gt" => Some('>'),
                "quot" => Some('"'),
                "apos" | "#39" => Some('\''),
                "nbsp" => Some(' '),
                "ndash" => Some('–'),
                "mdash" => Some('—'),
                "rlm" | "lrm" | "zwnj" | "zwj" => Some('\u{200B}'),
                _ if name.starts_with("#x") || name.starts_with("#X") => {
                    u32::from_str_radix(&name[2..], 16)
                        .ok()
                        .and_then(char::from_u32)
                }
                _ if name.starts_with('#') => name[1..].parse().ok().and_then(char::from_u32),
                _ => None,
            };
            c.map(|c| (c, e + 1))
        });
        match decoded {
            Some((c, len)) => {
                if c != '\u{200B}' {
                    out.push(c);
                }
                rest = &rest[len..];
            }
            None => {
                out.push('&');
                rest = &rest[1..];
            }
        }
    }
    out.push_str(rest);
    out
}

/// The spec's base64 rule: returns the decoded text when `text` is entirely valid base64 and
/// decodes to UTF-8 containing angle brackets (an HTML body that arrived double-encoded).
pub fn maybe_decode_base64_html(text: &str) -> Option<String> {
    // Most text has a character base64 never uses within its first words: answered before
    // copying the whole text (this ran over every mail's body, a few percent of a sync).
    let alphabet = |c: char| c.is_ascii_alphanumeric() || matches!(c, '+' | '/' | '=');
    if text.chars().any(|c| !alphabet(c) && !c.is_whitespace()) {
        return None;
    }
    let compact: String = text.chars().filter(|c| !c.is_whitespace()).collect();
    if compact.len() < 16 || !compact.len().is_multiple_of(4) {
        return None;
    }
    let bytes = B64.decode(compact.as_bytes()).ok()?;
    let decoded = String::from_utf8(bytes).ok()?;
    (decoded.contains('<') && decoded.contains('>')).then_some(decoded)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_latin_and_hebrew_only_and_cuts_at_300() {
        assert_eq!(preview("שלום  world 🙂\n\nשורה"), "שלום world שורה");
        let long = "א".repeat(400);
        assert_eq!(preview(&long).chars().count(), 300);
    }

    #[test]
    fn strips_scripts_styles_and_tags_and_decodes_entities() {
        let html = "<html><head><style>p{}</style></head><body><script>alert(1)</script><p>A &amp; B&nbsp;&#1513;</p></body></html>";
        assert_eq!(preview(html), "A & B ש");
    }

    #[test]
    fn hebrew_after_an_ampersand_does_not_split_a_character() {
        let text = "Dana <d@x.com> wrote: קפה & שלום עולם";
        assert!(preview(text).contains("שלום"));
        assert_eq!(decode_entities("& שלום עולם &amp; x"), "& שלום עולם & x");
    }

    #[test]
    fn base64_rule() {
        let enc = B64.encode("<p>שלום</p>");
        assert_eq!(
            maybe_decode_base64_html(&enc).as_deref(),
            Some("<p>שלום</p>")
        );
        let plain = B64.encode("no brackets here at all");
        assert_eq!(maybe_decode_base64_html(&plain), None);
        assert_eq!(maybe_decode_base64_html("hello world, not base64!"), None);
        // Folded over lines (and a non-breaking space) as a mailer would wrap it.
        let (a, b) = enc.split_at(8);
        assert_eq!(
            maybe_decode_base64_html(&format!("{a}\r\n {b}\u{a0}")).as_deref(),
            Some("<p>שלום</p>")
        );
        assert_eq!(maybe_decode_base64_html(&format!("{a}-{b}")), None);
    }
}
