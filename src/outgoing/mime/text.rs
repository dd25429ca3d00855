//! The parts of a mail that are text: the HTML document that carries the direction of its
//! first strong character (so Hebrew reads right to left in the recipient's client), and the
//! plain-text alternative made from the HTML.

/// The HTML part: a whole document whose body carries the direction of the text (its first
/// strong character), unless the editor already set one on its root. No `text-align` on the
/// wrapper: it is inherited, and would push an English paragraph (`<p dir="ltr">`) of a Hebrew
/// mail to the right; `dir` aligns each paragraph to its own start.
pub fn html_document(html: &str) -> String {
    let dir = direction(&crate::mail::preview::strip_html(html));
    format!(
        "<!DOCTYPE html>\r\n<html dir=\"{dir}\"><head><meta charset=\"utf-8\"></head>\r\n\
         <body dir=\"{dir}\"><div dir=\"{dir}\" style=\"direction:{dir}\">{html}</div></body></html>\r\n"
    )
}

/// `rtl` when the first strong character is Hebrew or Arabic, else `ltr`.
pub fn direction(text: &str) -> &'static str {
    for c in text.chars() {
        if matches!(c, '\u{0590}'..='\u{08FF}' | '\u{FB1D}'..='\u{FDFF}' | '\u{FE70}'..='\u{FEFF}')
        {
            return "rtl";
        }
        if c.is_alphabetic() {
            return "ltr";
        }
    }
    "rtl"
}

/// The plain-text alternative: block ends become line breaks, list items get a dash, links
/// keep their address, entities are decoded.
pub fn html_to_text(html: &str) -> String {
    let mut marked = String::with_capacity(html.len());
    let mut links: Vec<Option<String>> = Vec::new();
    let lower = html.to_ascii_lowercase();
    let mut i = 0;
    while let Some(p) = lower[i..].find('<') {
        let start = i + p;
        marked.push_str(&crate::mail::preview::decode_entities(&html[i..start]));
        let end = lower[start..]
            .find('>')
            .map_or(lower.len(), |e| start + e + 1);
        let tag = &lower[start..end];
        let name: String = tag
            .trim_start_matches(['<', '/'])
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric())
            .collect();
        let closing = tag.starts_with("</");
        i = end;
        match (name.as_str(), closing) {
            ("script" | "style" | "head" | "title", false) => {
                // Their content is not text.
                let close = format!("</{name}");
                i = lower[i..].find(&close).map_or(lower.len(), |q| {
                    let at = i + q;
                    lower[at..].find('>').map_or(lower.len(), |e| at + e + 1)
                });
            }
            ("br", _) => marked.push('\n'),
            ("p" | "div" | "h1" | "h2" | "h3" | "h4" | "blockquote" | "ul" | "ol" | "tr", true) => {
                marked.push('\n')
            }
            ("li", false) => marked.push_str("\n- "),
            ("a", false) => links.push(attribute(&html[start..end], "href")),
            ("a", true) => {
                // After the link text: "text <https://…>" (a mailto: shows as its text).
                if let Some(Some(href)) = links.pop()
                    && !href.starts_with("mailto:")
                {
                    marked.push_str(&format!(" <{href}>"));
                }
            }
            _ => {}
        }
    }
    marked.push_str(&crate::mail::preview::decode_entities(&html[i..]));
    let with_links = marked;
    let lines: Vec<String> = with_links
        .lines()
        .map(|l| l.split_whitespace().collect::<Vec<_>>().join(" "))
        .collect();
    let mut out = String::new();
    let mut blank = 0;
    for line in lines {
        if line.is_empty() {
            blank += 1;
            continue;
        }
        if !out.is_empty() {
            out.push_str(if blank > 0 { "\r\n\r\n" } else { "\r\n" });
        }
        blank = 0;
        out.push_str(&line);
    }
    out.push_str("\r\n");
    out
}

/// The value of attribute `name` in an HTML start tag, quoted or not.
fn attribute(tag: &str, name: &str) -> Option<String> {
    let lower = tag.to_ascii_lowercase();
    let p = lower.find(&format!("{name}="))? + name.len() + 1;
    let rest = &tag[p..];
    let (value, _) = match rest.chars().next()? {
        q @ ('"' | '\'') => rest[1..].split_once(q)?,
        _ => rest
            .split_once(|c: char| c.is_whitespace() || c == '>')
            .unwrap_or((rest, "")),
    };
    Some(value.to_string())
}
