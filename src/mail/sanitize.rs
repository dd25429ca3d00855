//! Mail HTML made safe to show. ammonia with a configuration for mail: keep `dir`, `align`,
//! tables and a list of harmless inline CSS properties; drop scripts, event handlers, forms,
//! frames, SVG, `<base>`, `<meta>`, and every URL scheme but http, https, mailto and cid.
//! Remote images and CSS `url()` are replaced by a placeholder unless the user allowed remote
//! content for this message or its sender; inline (cid:) images become data: URIs so the
//! sandboxed frame needs no credentials to show them. HTML nested past 512 elements is flattened
//! first (`html_depth.rs`).

use std::collections::{HashMap, HashSet};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use ammonia::{Builder, UrlRelative};

/// What stands in for a blocked remote image: a light grey box.
pub const REMOTE_PLACEHOLDER: &str = "data:image/svg+xml;base64,PHN2ZyB4bWxucz0iaHR0cDovL3d3dy53My5vcmcvMjAwMC9zdmciIHdpZHRoPSIyNCIgaGVpZ2h0PSIyNCI+PHJlY3Qgd2lkdGg9IjI0IiBoZWlnaHQ9IjI0IiBmaWxsPSIjZWVlIi8+PC9zdmc+";

const STYLE_PROPERTIES: &[&str] = &[
    "color",
    "background-color",
    "background",
    "font",
    "font-family",
    "font-size",
    "font-weight",
    "font-style",
    "font-variant",
    "text-align",
    "text-decoration",
    "text-indent",
    "text-transform",
    "direction",
    "unicode-bidi",
    "line-height",
    "letter-spacing",
    "word-spacing",
    "white-space",
    "word-break",
    "overflow-wrap",
    "margin",
    "margin-top",
    "margin-bottom",
    "margin-left",
    "margin-right",
    "margin-inline-start",
    "margin-inline-end",
    "padding",
    "padding-top",
    "padding-bottom",
    "padding-left",
    "padding-right",
    "padding-inline-start",
    "padding-inline-end",
    "border",
    "border-top",
    "border-bottom",
    "border-left",
    "border-right",
    "border-color",
    "border-style",
    "border-width",
    "border-radius",
    "border-collapse",
    "border-spacing",
    "width",
    "height",
    "max-width",
    "min-width",
    "max-height",
    "min-height",
    "vertical-align",
    "display",
    "list-style-type",
    "table-layout",
    "float",
    "clear",
];

const EXTRA_TAGS: &[&str] = &[
    "font", "center", "span", "div", "u", "s", "strike", "big", "small",
];

const GENERIC_ATTRIBUTES: &[&str] = &[
    "dir",
    "align",
    "style",
    "valign",
    "width",
    "height",
    "bgcolor",
    "color",
    "border",
    "cellpadding",
    "cellspacing",
    "colspan",
    "rowspan",
    "face",
    "size",
    "background",
    "lang",
    "title",
];

pub struct Sanitized {
    pub html: String,
    /// True when remote images or styles were replaced: the UI then offers to show them.
    pub remote_blocked: bool,
}

/// Sanitizes `html`. `inline_image` maps a Content-ID to a data: URI for inline images.
pub fn sanitize(
    html: &str,
    allow_remote: bool,
    inline_image: &dyn Fn(&str) -> Option<String>,
) -> Sanitized {
    let blocked = Arc::new(AtomicBool::new(false));
    let flag = blocked.clone();
    let mut builder = Builder::default();
    builder
        .add_tags(EXTRA_TAGS)
        .add_generic_attributes(GENERIC_ATTRIBUTES)
        .url_schemes(HashSet::from(["http", "https", "mailto", "cid"]))
        // A relative URL in a mail can only mean this server: never let one through.
        .url_relative(UrlRelative::Deny)
        .link_rel(Some("noopener noreferrer nofollow"))
        .set_tag_attribute_value("a", "target", "_blank")
        .strip_comments(true)
        .attribute_filter(move |element, attribute, value| {
            filter_attribute(element, attribute, value, allow_remote, &flag)
        });
    // Nested deeper than a browser keeps: flattened first (html5ever is quadratic in depth).
    let cleaned = builder.clean(&super::html_depth::limited(html)).to_string();
    let html = replace_cid_images(&cleaned, inline_image);
    Sanitized {
        html,
        remote_blocked: blocked.load(Ordering::Relaxed),
    }
}

fn filter_attribute<'u>(
    element: &str,
    attribute: &str,
    value: &'u str,
    allow_remote: bool,
    blocked: &AtomicBool,
) -> Option<std::borrow::Cow<'u, str>> {
    use std::borrow::Cow;
    let remote = is_remote;
    // `http:/api/app/me` is "absolute" to a URL parser but the browser resolves it against the
    // frame's base, which is this app: a mail must never address this server.
    if matches!(
        attribute,
        "href" | "src" | "background" | "cite" | "longdesc"
    ) && addresses_this_server(value)
    {
        return None;
    }
    match attribute {
        "src" if element == "img" => {
            if remote(value) && !allow_remote {
                blocked.store(true, Ordering::Relaxed);
                Some(Cow::Borrowed(REMOTE_PLACEHOLDER))
            } else {
                Some(Cow::Borrowed(value))
            }
        }
        // `background` holds a URL that ammonia does not treat as one: check it here.
        "background" => {
            if !remote(value) {
                None
            } else if allow_remote {
                Some(Cow::Borrowed(value))
            } else {
                blocked.store(true, Ordering::Relaxed);
                None
            }
        }
        "style" => filter_style(value, allow_remote, blocked).map(Cow::Owned),
        _ => Some(Cow::Borrowed(value)),
    }
}

/// A URL the way the browser reads it (the URL standard's basic parser): leading and trailing
/// C0 controls and spaces stripped — not `str::trim`'s Unicode whitespace, which keeps U+0001
/// and strips U+00A0 — tabs and newlines removed anywhere, backslashes as slashes, lower case.
fn browser_form(v: &str) -> String {
    v.trim_matches(|c: char| c <= ' ')
        .chars()
        .filter(|c| !matches!(c, '\t' | '\n' | '\r'))
        .map(|c| if c == '\\' { '/' } else { c })
        .collect::<String>()
        .to_ascii_lowercase()
}

/// Whether the browser would fetch `v` from another host: an absolute http(s) URL as the URL
/// standard parses it (the `url` crate implements it), or a scheme-relative `//host`.
fn is_remote(v: &str) -> bool {
    let form = browser_form(v);
    if form.starts_with("//") {
        return true;
    }
    let by_standard = url::Url::parse(v)
        .is_ok_and(|u| matches!(u.scheme(), "http" | "https") && u.host().is_some());
    by_standard || form.starts_with("http://") || form.starts_with("https://")
}

/// `http:` or `https:` without `//`: resolved against the page, i.e. this app.
fn addresses_this_server(v: &str) -> bool {
    let v = browser_form(v);
    (v.starts_with("http:") && !v.starts_with("http://"))
        || (v.starts_with("https:") && !v.starts_with("https://"))
}

/// Keeps the declarations whose property is on the list and whose value is inert.
pub fn filter_style(style: &str, allow_remote: bool, blocked: &AtomicBool) -> Option<String> {
    let mut kept = Vec::new();
    for decl in style.split(';') {
        let Some((prop, value)) = decl.split_once(':') else {
            continue;
        };
        let prop = prop.trim().to_ascii_lowercase();
        let value = value.trim();
        let lower = value.to_ascii_lowercase();
        if !STYLE_PROPERTIES.contains(&prop.as_str())
            || lower.contains("expression")
            || lower.contains("javascript:")
            || lower.contains('\\')
            || lower.contains("@import")
            // image-set() and friends load images without url(): not inert.
            || lower.contains("image-set")
            || lower.contains("image(")
            || lower.contains("element(")
            // CSS src() is url() by another name.
            || lower.contains("src(")
            || lower.contains('<')
        {
            continue;
        }
        if lower.contains("url(") {
            let remote_only = lower.match_indices("url(").all(|(i, _)| {
                let arg = lower[i + 4..].trim_start_matches([' ', '"', '\'']);
                let arg = browser_form(arg);
                arg.starts_with("https://") || arg.starts_with("http://")
            });
            if !remote_only {
                continue;
            }
            if !allow_remote {
                blocked.store(true, Ordering::Relaxed);
                continue;
            }
        }
        kept.push(format!("{prop}: {value}"));
    }
    (!kept.is_empty()).then(|| kept.join("; "))
}

/// ammonia serializes attributes as `src="..."` with `&` and `"` escaped; cid values are
/// message tokens, so a literal search is enough.
fn replace_cid_images(html: &str, inline_image: &dyn Fn(&str) -> Option<String>) -> String {
    const NEEDLE: &str = "src=\"cid:";
    if !html.contains(NEEDLE) {
        return html.to_string();
    }
    let mut out = String::with_capacity(html.len());
    let mut rest = html;
    while let Some(p) = rest.find(NEEDLE) {
        // Only inside a tag: in text, ammonia escapes `<` but not `"`, so the same characters
        // can appear there and must stay text.
        let before = &rest[..p];
        let in_tag = before.rfind('<').map(|i| i as isize) > before.rfind('>').map(|i| i as isize);
        if !in_tag {
            out.push_str(&rest[..p + NEEDLE.len()]);
            rest = &rest[p + NEEDLE.len()..];
            continue;
        }
        out.push_str(&rest[..p]);
        let after = &rest[p + NEEDLE.len()..];
        let end = after.find('"').unwrap_or(after.len());
        let cid = after[..end].replace("&amp;", "&");
        match inline_image(&cid) {
            Some(data_uri) => out.push_str(&format!("src=\"{data_uri}\"")),
            None => out.push_str(&format!("src=\"{REMOTE_PLACEHOLDER}\"")),
        }
        rest = &after[(end + 1).min(after.len())..];
    }
    out.push_str(rest);
    out
}

/// Plain text as HTML: escaped, a paragraph per blank-line block, each `dir="auto"` so Hebrew
/// and English paragraphs each read their own way.
pub fn text_to_html(text: &str) -> String {
    let mut out = String::new();
    for para in text.replace("\r\n", "\n").split("\n\n") {
        if para.trim().is_empty() {
            continue;
        }
        out.push_str("<p dir=\"auto\">");
        out.push_str(&escape(para.trim_matches('\n')).replace('\n', "<br>"));
        out.push_str("</p>");
    }
    out
}

pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

const INLINE_IMAGE_TYPES: [&str; 6] = [
    "image/png",
    "image/jpeg",
    "image/jpg",
    "image/gif",
    "image/webp",
    "image/bmp",
];

/// Inline images of a message by Content-ID, as data: URIs (images only, up to `max_bytes`
/// in all, so a mail cannot blow up the reading pane).
pub fn inline_images(
    parts: impl Iterator<Item = (Option<String>, String, Vec<u8>)>,
    max_bytes: usize,
) -> HashMap<String, String> {
    use base64::Engine;
    let mut total = 0;
    let mut map = HashMap::new();
    for (cid, content_type, bytes) in parts {
        let Some(cid) = cid else { continue };
        // The type goes into an attribute: only a known one, never the mail's own text (a
        // Content-Type like `image/x" onerror="…` would break out of the attribute).
        let Some(content_type) = INLINE_IMAGE_TYPES
            .iter()
            .find(|t| content_type.eq_ignore_ascii_case(t))
        else {
            continue;
        };
        total += bytes.len();
        if total > max_bytes {
            break;
        }
        let b64 = base64::engine::general_purpose::STANDARD.encode(&bytes);
        map.insert(cid, format!("data:{content_type};base64,{b64}"));
    }
    map
}

#[cfg(test)]
mod tests {
    use super::*;

    fn clean(html: &str, remote: bool) -> Sanitized {
        sanitize(html, remote, &|_| None)
    }

    #[test]
    fn scripts_handlers_and_dangerous_urls_go() {
        let s = clean(
            r#"<p onclick="x()">hi<script>alert(1)</script></p><a href="javascript:alert(1)">j</a><a href="data:text/html,x">d</a><iframe src="https://e.test"></iframe><form action="https://e.test"><input></form><svg><script>1</script></svg><base href="https://evil.test/"><meta http-equiv="refresh" content="0;url=https://e.test">"#,
            false,
        );
        for bad in [
            "script",
            "onclick",
            "javascript",
            "data:text",
            "iframe",
            "form",
            "input",
            "svg",
            "base",
            "meta",
            "refresh",
        ] {
            assert!(!s.html.contains(bad), "{bad} survived: {}", s.html);
        }
        assert!(s.html.contains("hi"));
    }

    #[test]
    fn keeps_direction_alignment_tables_and_safe_css() {
        let s = clean(
            r##"<div dir="rtl" align="right" style="color: red; position: fixed; background: url(https://t.test/x.png)"><table><tr><td bgcolor="#fff">שלום</td></tr></table></div>"##,
            false,
        );
        assert!(s.html.contains(r#"dir="rtl""#), "{}", s.html);
        assert!(s.html.contains(r#"align="right""#));
        assert!(s.html.contains("color: red"));
        assert!(!s.html.contains("position"));
        assert!(!s.html.contains("t.test"));
        assert!(s.html.contains("<td"));
        assert!(s.remote_blocked);
    }

    #[test]
    fn remote_images_wait_for_permission() {
        let html = r#"<img src="https://tracker.test/p.gif" alt="x">"#;
        let blocked = clean(html, false);
        assert!(!blocked.html.contains("tracker.test"));
        assert!(blocked.html.contains(REMOTE_PLACEHOLDER));
        assert!(blocked.remote_blocked);
        let allowed = clean(html, true);
        assert!(allowed.html.contains("https://tracker.test/p.gif"));
        assert!(!allowed.remote_blocked);
    }

    #[test]
    fn scheme_without_slashes_never_reaches_this_server() {
        for remote in [false, true] {
            let s = sanitize(
                r#"<a href="http:/api/app/logout">a</a><a href="HTTP:api/app/me">b</a><img src="http:/api/app/me"><img src="http:\\evil.test/x.png"><table background="https:/api/x"><tr><td>t</td></tr></table><div style="background: url(http:/api/app/me); color: red">c</div>"#,
                remote,
                &|_| None,
            );
            assert!(!s.html.contains("/api/"), "{remote}: {}", s.html);
            // A backslash URL is a remote one to the browser: blocked until remote is allowed.
            assert_eq!(s.html.contains("evil.test"), remote, "{}", s.html);
        }
    }

    #[test]
    fn urls_are_read_as_the_url_standard_reads_them() {
        // Each of these is https://t.test/... to a browser: C0 controls and spaces around it
        // are stripped, tabs and newlines inside it dropped, backslashes read as slashes.
        for src in [
            "\u{1}https://t.test/c0.png",
            "\u{1f} https://t.test/c0-space.png",
            "https://t.test/trailing.png\u{1}",
            "ht\ttps://t.test/tab.png",
            "h\nttps://t.test/newline.png",
            "https:\\\\t.test/backslashes.png",
            "HTTPS://t.test/upper.png",
            "\u{c}//t.test/scheme-relative.png",
        ] {
            let html = format!(
                r#"<img src="{}" alt="x"><table background="{0}"><tr><td>t</td></tr></table><div style="background: url('{0}'); color: red">x</div>"#,
                src.replace('"', "&quot;")
            );
            let out = clean(&html, false);
            assert!(out.remote_blocked, "{src:?}");
            assert!(!out.html.contains("t.test"), "{src:?} leaked: {}", out.html);
            let shown = clean(&html, true);
            assert!(
                shown.html.contains("t.test"),
                "{src:?} shown on request: {}",
                shown.html
            );
        }
        // U+00A0 is not stripped by a browser: the URL is relative, so it is dropped.
        let out = clean("<img src=\"\u{a0}https://t.test/nbsp.png\">", false);
        assert!(!out.html.contains("t.test"), "{}", out.html);
    }

    #[test]
    fn css_src_function_is_dropped() {
        let s = sanitize(
            r#"<div style="background: src(&quot;https://t.test/x.png&quot;); color: red">x</div>"#,
            true,
            &|_| None,
        );
        assert!(!s.html.contains("src("), "{}", s.html);
        assert!(s.html.contains("color: red"));
    }

    #[test]
    fn inline_image_types_come_from_a_fixed_list() {
        let parts = vec![
            (
                Some("a".to_string()),
                "image/x\" onerror=\"alert(1)//".to_string(),
                vec![1u8],
            ),
            (Some("b".to_string()), "image/PNG".to_string(), vec![1u8]),
            (
                Some("c".to_string()),
                "image/svg+xml".to_string(),
                vec![1u8],
            ),
        ];
        let map = inline_images(parts.into_iter(), 1024);
        assert_eq!(map.len(), 1, "{map:?}");
        assert!(map["b"].starts_with("data:image/png;base64,"));
    }

    #[test]
    fn links_open_safely_and_relative_urls_are_dropped() {
        let s = clean(
            r#"<a href="https://ok.test">ok</a><img src="/api/app/logout">"#,
            true,
        );
        assert!(s.html.contains(r#"rel="noopener noreferrer nofollow""#));
        assert!(s.html.contains(r#"target="_blank""#));
        assert!(!s.html.contains("/api/app/logout"));
    }

    #[test]
    fn cid_images_become_data_uris() {
        let s = sanitize(r#"<img src="cid:logo@x">"#, false, &|cid| {
            (cid == "logo@x").then(|| "data:image/png;base64,AAAA".to_string())
        });
        assert!(s.html.contains("data:image/png;base64,AAAA"), "{}", s.html);
    }

    #[test]
    fn image_set_is_not_a_way_around_the_remote_block() {
        let s = clean(
            r#"<div style="background: image-set('https://t.test/p.gif' 1x); color: blue">x</div>"#,
            false,
        );
        assert!(!s.html.contains("t.test"), "{}", s.html);
        assert!(s.html.contains("color: blue"));
    }

    #[test]
    fn cid_text_in_a_text_node_stays_text() {
        let s = sanitize(
            r#"<p>write src="cid:x" here</p><img src="cid:x">"#,
            false,
            &|_| Some("data:image/png;base64,AAAA".to_string()),
        );
        assert!(s.html.contains("write src=\"cid:x\" here"), "{}", s.html);
        assert!(
            s.html.contains(r#"<img src="data:image/png;base64,AAAA">"#),
            "{}",
            s.html
        );
    }

    #[test]
    fn text_becomes_directional_paragraphs() {
        assert_eq!(
            text_to_html("שלום <b>\nשורה\n\nEnglish"),
            "<p dir=\"auto\">שלום &lt;b&gt;<br>שורה</p><p dir=\"auto\">English</p>"
        );
    }
}
