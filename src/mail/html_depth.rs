//! Mail HTML nested deeper than a browser keeps is flattened before it is parsed. html5ever
//! walks the stack of open elements for every end tag ("has an element in scope"), so a mail of
//! 100,000 nested `<div>`s costs the sanitizer time quadratic in its depth (a minute of a core
//! for half a megabyte). Browsers stop nesting at 512 (Chrome's parser: deeper elements become
//! siblings); so do we: past [`MAX_DEPTH`] open elements, further start tags (and as many end
//! tags) are left out, and their text stays.
//!
//! A light scan, not a parser: it knows comments, quoted attribute values, void elements,
//! elements whose end tag may be left out (`p`, `li`, `td`, …: they do not count) and raw-text
//! elements (`script`, `style`, …: skipped to their end tag). It only matters for mail nested
//! past the bound; anything shallower is given back as it is.

use std::borrow::Cow;

/// The deepest nesting of elements kept.
pub const MAX_DEPTH: usize = 512;

/// Elements with no end tag.
const VOID: &[&str] = &[
    "area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "param", "source",
    "track", "wbr", "keygen",
];
/// Elements whose end tag may be left out: the parser closes them itself, so they never pile up.
const OPTIONAL_END: &[&str] = &[
    "p", "li", "dt", "dd", "tr", "td", "th", "option", "optgroup", "rb", "rt", "rp", "rtc",
    "thead", "tbody", "tfoot", "colgroup", "caption",
];
/// Elements whose content is text up to their end tag.
const RAW_TEXT: &[&str] = &[
    "script", "style", "textarea", "title", "xmp", "iframe", "noembed", "noframes", "noscript",
];

/// Where the `>` closing a tag that starts at `from` is (quoted values may hold one).
fn tag_end(bytes: &[u8], from: usize) -> Option<usize> {
    let mut quote = None;
    for (i, &b) in bytes.iter().enumerate().skip(from) {
        match (quote, b) {
            (Some(q), _) if b == q => quote = None,
            (Some(_), _) => {}
            (None, b'"' | b'\'') => quote = Some(b),
            (None, b'>') => return Some(i),
            _ => {}
        }
    }
    None
}

/// Finds `needle` (ASCII, lower case) in `bytes` from `from`, ignoring ASCII case.
fn find_ci(bytes: &[u8], from: usize, needle: &[u8]) -> Option<usize> {
    if needle.is_empty() || bytes.len() < needle.len() {
        return None;
    }
    (from..=bytes.len() - needle.len())
        .find(|&i| bytes[i..i + needle.len()].eq_ignore_ascii_case(needle))
}

/// `html` with elements past [`MAX_DEPTH`] open ones left out (see the module's doc).
pub fn limited(html: &str) -> Cow<'_, str> {
    limited_to(html, MAX_DEPTH)
}

fn limited_to(html: &str, max: usize) -> Cow<'_, str> {
    let bytes = html.as_bytes();
    let (mut depth, mut dropped) = (0usize, 0usize);
    // Built only once something is left out: the text up to `copied` is in it.
    let mut out: Option<String> = None;
    let mut copied = 0;
    let mut i = 0;
    while let Some(at) = bytes[i..].iter().position(|&b| b == b'<').map(|p| p + i) {
        let rest = &bytes[at + 1..];
        if rest.starts_with(b"!--") {
            let Some(end) = find_ci(bytes, at + 4, b"-->") else {
                break;
            };
            i = end + 3;
            continue;
        }
        let closing = rest.first() == Some(&b'/');
        let name_start = at + 1 + usize::from(closing);
        let name_len = bytes[name_start..]
            .iter()
            .take_while(|b| b.is_ascii_alphanumeric() || **b == b'-')
            .count();
        if name_len == 0 || !bytes[name_start].is_ascii_alphabetic() {
            // `<!DOCTYPE`, `<?…`, or a `<` in text.
            i = at + 1;
            continue;
        }
        let Some(end) = tag_end(bytes, name_start + name_len) else {
            break;
        };
        let name = html[name_start..name_start + name_len].to_ascii_lowercase();
        let mut next = end + 1;
        // `<div/>` opens a div in HTML: a trailing slash is not trusted.
        let counts = !VOID.contains(&name.as_str()) && !OPTIONAL_END.contains(&name.as_str());
        let keep = if !counts {
            true
        } else if closing {
            if dropped > 0 {
                dropped -= 1;
                false
            } else {
                depth = depth.saturating_sub(1);
                true
            }
        } else if depth >= max {
            dropped += 1;
            false
        } else {
            depth += 1;
            true
        };
        if !closing && keep && RAW_TEXT.contains(&name.as_str()) {
            // Its text may hold `<`: on to its end tag (which the scan then reads).
            let end_tag = format!("</{name}");
            next = find_ci(bytes, next, end_tag.as_bytes()).unwrap_or(bytes.len());
        }
        if !keep {
            let o = out.get_or_insert_with(|| String::with_capacity(html.len()));
            o.push_str(&html[copied..at]);
            copied = end + 1;
        }
        i = next;
        if i >= bytes.len() {
            break;
        }
    }
    match out {
        None => Cow::Borrowed(html),
        Some(mut o) => {
            o.push_str(&html[copied..]);
            Cow::Owned(o)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ordinary_html_is_given_back_as_it_is() {
        let html = "<!doctype html><html><body><p>a<p>b<table><tr><td>x<td>y</table>\
                    <img src=\"a>b\"><br/><!-- <div><div> --><script>if (a<b) {}</script>\
                    <div title='>'>שלום</div></body></html>";
        assert!(matches!(limited_to(html, 4), Cow::Borrowed(_)));
        // Many unclosed paragraphs and list items do not pile up.
        let many = "<p>x".repeat(2000) + &"<li>y".repeat(2000);
        assert!(matches!(limited_to(&many, 4), Cow::Borrowed(_)));
    }

    #[test]
    fn nesting_past_the_bound_is_flattened_and_its_text_kept() {
        let html = format!("{}x{}", "<div>".repeat(6), "</div>".repeat(6));
        assert_eq!(
            limited_to(&html, 3),
            format!("{}x{}", "<div>".repeat(3), "</div>".repeat(3))
        );
        let html = "<div><span><b>a<i>b</i>c</b></span>d</div>";
        assert_eq!(limited_to(html, 2), "<div><span>abc</span>d</div>");
        // A trailing slash opens the element all the same in HTML.
        assert_eq!(limited_to("<div/><div/><div/>x", 2), "<div/><div/>x");
    }

    #[test]
    fn a_deep_mail_costs_little_to_sanitize() {
        let html = format!("{}x{}", "<div>".repeat(100_000), "</div>".repeat(100_000));
        let started = std::time::Instant::now();
        let out = crate::mail::sanitize::sanitize(&html, false, &|_| None);
        assert!(out.html.contains('x'));
        assert!(
            started.elapsed() < std::time::Duration::from_secs(10),
            "{:?}",
            started.elapsed()
        );
    }
}
