//! What a mail says about the list it came from: `List-Id`, `List-Unsubscribe` (its `<https:>`
//! and `<mailto:>` URIs), `List-Unsubscribe-Post: List-Unsubscribe=One-Click` (RFC 8058) and a
//! bulk `Precedence`; and, when the header is missing, the removal links in the body ('הסרה',
//! which Israeli law makes advertisers offer; "unsubscribe") — offered to the user, never
//! followed by the server.
//!
//! RFC 8058 §4: one click applies only when the mail's DKIM signature covers `List-Unsubscribe`
//! and `List-Unsubscribe-Post`, else anyone who can put headers in a mail could make the server
//! POST to a URL of their choosing. So `signed` holds only when the receiving server's (topmost)
//! `Authentication-Results` says `dkim=pass` for a domain whose `DKIM-Signature` (`d=`) lists
//! both headers in `h=`; otherwise the https URL is a link offered to the user, and `mailto:`
//! comes first.

use serde::{Deserialize, Serialize};

/// Longest URI kept, and how many removal links.
const MAX_URI: usize = 2000;
const MAX_BODY_LINKS: usize = 3;
/// The header block read, at most.
const MAX_HEAD: usize = 64 * 1024;

/// The list headers of one mail.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ListHeaders {
    pub list_id: Option<String>,
    /// The URIs of List-Unsubscribe, in order.
    pub unsubscribe: Vec<String>,
    /// List-Unsubscribe-Post says one click works.
    pub one_click: bool,
    /// Precedence: bulk or list.
    pub bulk: bool,
    /// A passing DKIM signature covers List-Unsubscribe and List-Unsubscribe-Post (RFC 8058).
    pub signed: bool,
}

impl ListHeaders {
    /// Mail from a list or a bulk sender.
    pub fn is_list(&self) -> bool {
        self.list_id.is_some() || !self.unsubscribe.is_empty() || self.bulk
    }
}

/// How a sender can be left.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Methods {
    /// An https URL that takes RFC 8058's POST.
    #[serde(default)]
    pub one_click: Option<String>,
    /// A web page to open (http or https, no one-click).
    #[serde(default)]
    pub link: Option<String>,
    /// A `mailto:` URI.
    #[serde(default)]
    pub mailto: Option<String>,
    /// Removal links found in the body (no header).
    #[serde(default)]
    pub body_links: Vec<String>,
}

impl Methods {
    pub fn is_empty(&self) -> bool {
        self.one_click.is_none()
            && self.link.is_none()
            && self.mailto.is_none()
            && self.body_links.is_empty()
    }
}

/// The unfolded header block of a raw mail.
fn head(raw: &[u8]) -> String {
    let raw = &raw[..raw.len().min(MAX_HEAD)];
    let end = raw
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .or_else(|| raw.windows(2).position(|w| w == b"\n\n"))
        .unwrap_or(raw.len());
    let text = String::from_utf8_lossy(&raw[..end]);
    let mut out = String::with_capacity(text.len());
    for line in text.lines() {
        if line.starts_with([' ', '\t']) {
            out.push(' ');
            out.push_str(line.trim());
        } else {
            if !out.is_empty() {
                out.push('\n');
            }
            out.push_str(line.trim_end());
        }
    }
    out
}

fn header<'a>(head: &'a str, name: &str) -> Option<&'a str> {
    head.lines().find_map(|l| {
        let (k, v) = l.split_once(':')?;
        k.trim().eq_ignore_ascii_case(name).then(|| v.trim())
    })
}

fn headers<'a>(head: &'a str, name: &'a str) -> impl Iterator<Item = &'a str> + 'a {
    head.lines().filter_map(move |l| {
        let (k, v) = l.split_once(':')?;
        k.trim().eq_ignore_ascii_case(name).then(|| v.trim())
    })
}

/// The `tag=value` of a DKIM-Signature or an Authentication-Results clause, lower-cased.
fn tag(text: &str, name: &str) -> Option<String> {
    text.split([';', ' ']).find_map(|part| {
        let (k, v) = part.trim().split_once('=')?;
        k.trim()
            .eq_ignore_ascii_case(name)
            .then(|| v.trim().trim_matches('"').to_ascii_lowercase())
    })
}

/// Whether the topmost Authentication-Results (the receiving server's own; lower ones may be
/// the sender's) passes DKIM for a domain whose signature covers both list headers.
fn dkim_covers_list_headers(head: &str) -> bool {
    let Some(results) = headers(head, "authentication-results").next() else {
        return false;
    };
    let passed: Vec<String> = results
        .split(';')
        .filter(|clause| {
            clause
                .trim()
                .get(..9)
                .is_some_and(|p| p.eq_ignore_ascii_case("dkim=pass"))
        })
        .filter_map(|clause| {
            tag(clause, "header.d").or_else(|| {
                tag(clause, "header.i").and_then(|i| i.rsplit('@').next().map(str::to_string))
            })
        })
        .collect();
    headers(head, "dkim-signature").any(|sig| {
        let sig = sig.replace([' ', '\t'], "");
        let (Some(d), Some(h)) = (tag(&sig, "d"), tag(&sig, "h")) else {
            return false;
        };
        let covered: Vec<&str> = h.split(':').collect();
        passed.contains(&d)
            && covered.contains(&"list-unsubscribe")
            && covered.contains(&"list-unsubscribe-post")
    })
}

/// The list headers of a raw mail.
pub fn of(raw: &[u8]) -> ListHeaders {
    let head = head(raw);
    let unsubscribe = header(&head, "list-unsubscribe")
        .map(|v| {
            v.split(',')
                .filter_map(|part| {
                    let p = part.trim();
                    let inner = p.strip_prefix('<')?.split('>').next()?.trim();
                    (inner.len() <= MAX_URI && !inner.is_empty()).then(|| inner.to_string())
                })
                .take(5)
                .collect()
        })
        .unwrap_or_default();
    ListHeaders {
        list_id: header(&head, "list-id").map(|v| crate::kit::cut(v, 300).to_string()),
        unsubscribe,
        one_click: header(&head, "list-unsubscribe-post").is_some_and(|v| {
            v.replace(' ', "")
                .eq_ignore_ascii_case("List-Unsubscribe=One-Click")
        }),
        bulk: header(&head, "precedence")
            .is_some_and(|v| matches!(v.to_ascii_lowercase().as_str(), "bulk" | "list")),
        signed: dkim_covers_list_headers(&head),
    }
}

/// How to leave, from the headers (and the body's removal links when the headers have none).
pub fn methods(h: &ListHeaders, body_links: Vec<String>) -> Methods {
    let https = h.unsubscribe.iter().find(|u| {
        u.get(..8)
            .is_some_and(|p| p.eq_ignore_ascii_case("https://"))
    });
    let web = h.unsubscribe.iter().find(|u| {
        u.get(..7)
            .is_some_and(|p| p.eq_ignore_ascii_case("http://"))
            || https == Some(u)
    });
    let mailto = h.unsubscribe.iter().find(|u| {
        u.get(..7)
            .is_some_and(|p| p.eq_ignore_ascii_case("mailto:"))
    });
    let one_click = https.filter(|_| h.one_click && h.signed).cloned();
    Methods {
        link: if one_click.is_some() {
            None
        } else {
            web.cloned()
        },
        one_click,
        mailto: mailto.cloned(),
        body_links: if h.unsubscribe.is_empty() {
            body_links
        } else {
            Vec::new()
        },
    }
}

/// Words that name a removal link, in Hebrew and English.
const REMOVAL_WORDS: &[&str] = &[
    "הסרה",
    "להסרה",
    "הסר",
    "הסירו",
    "ביטול הרשמה",
    "ביטול המנוי",
    "להפסקת קבלת",
    "unsubscribe",
    "opt out",
    "opt-out",
    "remove me",
];

fn names_removal(text: &str) -> bool {
    let t = text.to_lowercase();
    REMOVAL_WORDS.iter().any(|w| t.contains(w))
}

/// An attribute's value in a tag's text (`href="…"`, `href='…'`, `href=…`).
fn attribute(tag: &str, name: &str) -> Option<String> {
    let lower = tag.to_ascii_lowercase();
    let at = lower.find(&format!("{name}="))? + name.len() + 1;
    let rest = &tag[at..];
    let value = match rest.chars().next()? {
        q @ ('"' | '\'') => rest[1..].split(q).next()?,
        _ => rest.split([' ', '>', '\t', '\n']).next()?,
    };
    Some(value.replace("&amp;", "&"))
}

fn web_url(u: &str) -> bool {
    let u = u.trim();
    u.len() <= MAX_URI
        && (u
            .get(..8)
            .is_some_and(|p| p.eq_ignore_ascii_case("https://"))
            || u.get(..7)
                .is_some_and(|p| p.eq_ignore_ascii_case("http://")))
        && !u.chars().any(|c| c.is_whitespace() || c.is_control())
}

/// Removal links in a mail's HTML (a link whose text, or the words just before it, names a
/// removal) or, without HTML, in its text (a URL on a line that names one).
pub fn removal_links(html: &str, text: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut push = |u: String| {
        let u = u.trim().to_string();
        if web_url(&u) && !out.contains(&u) && out.len() < MAX_BODY_LINKS {
            out.push(u);
        }
    };
    if !html.is_empty() {
        let lower = html.to_ascii_lowercase();
        let mut from = 0;
        while let Some(i) = lower[from..].find("<a") {
            let start = from + i;
            let Some(tag_end) = html[start..].find('>').map(|e| start + e) else {
                break;
            };
            let close = lower[tag_end..]
                .find("</a")
                .map_or(html.len(), |e| tag_end + e);
            let inner = &html[tag_end + 1..close];
            // The words just before the link, but not past the previous link: its own text
            // ('להסרה' on the link before) says nothing about this one.
            let before_at = html[..start]
                .char_indices()
                .rev()
                .nth(60)
                .map_or(0, |(i, _)| i)
                .max(from);
            let before = &html[before_at..start];
            if (names_removal(inner) || names_removal(before))
                && let Some(href) = attribute(&html[start..tag_end], "href")
            {
                push(href);
            }
            from = close.max(tag_end + 1);
            if from >= html.len() {
                break;
            }
        }
    } else {
        for line in text.lines().filter(|l| names_removal(l)) {
            for word in line.split_whitespace() {
                let w = word.trim_matches(|c: char| matches!(c, '<' | '>' | '(' | ')' | '"'));
                if web_url(w) {
                    push(w.to_string());
                }
            }
        }
    }
    out
}

/// A `mailto:` URI's address, subject and body.
pub struct Mailto {
    pub to: String,
    pub subject: String,
    pub body: String,
}

/// Reads a `mailto:` URI (RFC 6068); None without one plain address.
pub fn mailto(uri: &str) -> Option<Mailto> {
    let url = url::Url::parse(uri).ok()?;
    if url.scheme() != "mailto" {
        return None;
    }
    let to = percent_decode(url.path());
    if to.contains(',')
        || !to.contains('@')
        || to.len() > 254
        || to.chars().any(char::is_whitespace)
    {
        return None;
    }
    let (mut subject, mut body) = (String::new(), String::new());
    for (k, v) in url.query_pairs() {
        match k.to_ascii_lowercase().as_str() {
            "subject" => subject = crate::kit::cut(&v, 200).to_string(),
            "body" => body = crate::kit::cut(&v, 2000).to_string(),
            _ => {}
        }
    }
    Some(Mailto { to, subject, body })
}

fn percent_decode(s: &str) -> String {
    url::form_urlencoded::parse(format!("x={}", s.replace('+', "%2B")).as_bytes())
        .next()
        .map(|(_, v)| v.into_owned())
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn list_headers_folded_and_in_any_case() {
        let raw = b"Authentication-Results: mx.home.lan; dkim=pass header.d=shop.co.il header.s=s1\r\nDKIM-Signature: v=1; a=rsa-sha256; d=shop.co.il; s=s1;\r\n h=from:subject:list-unsubscribe:list-unsubscribe-post; bh=x; b=y\r\nFrom: Shop <news@shop.co.il>\r\nList-Unsubscribe: <mailto:unsub@shop.co.il?subject=remove>,\r\n <https://shop.co.il/u/abc?x=1>\r\nlist-unsubscribe-post: List-Unsubscribe=One-Click\r\nPrecedence: bulk\r\nList-ID: Shop news <news.shop.co.il>\r\n\r\nbody List-Unsubscribe: <https://evil>\r\n";
        let h = of(raw);
        assert_eq!(
            h.unsubscribe,
            [
                "mailto:unsub@shop.co.il?subject=remove",
                "https://shop.co.il/u/abc?x=1"
            ]
        );
        assert!(h.one_click && h.bulk && h.is_list());
        assert_eq!(h.list_id.as_deref(), Some("Shop news <news.shop.co.il>"));
        let m = methods(&h, vec!["https://body.example/x".into()]);
        assert_eq!(m.one_click.as_deref(), Some("https://shop.co.il/u/abc?x=1"));
        assert_eq!(m.link, None);
        assert_eq!(
            m.mailto.as_deref(),
            Some("mailto:unsub@shop.co.il?subject=remove")
        );
        assert!(m.body_links.is_empty(), "the header wins");
        // Without the Post header the https URL is a page to open; http is never one-click.
        let h = of(b"List-Unsubscribe: <http://shop.example/u>\r\nList-Unsubscribe-Post: List-Unsubscribe=One-Click\r\n\r\n");
        let m = methods(&h, Vec::new());
        assert_eq!(
            (m.one_click, m.link.as_deref()),
            (None, Some("http://shop.example/u"))
        );
        assert!(!of(b"From: a@b\r\nSubject: hi\r\n\r\n").is_list());
    }

    #[test]
    fn one_click_needs_a_passing_dkim_signature_over_both_list_headers() {
        let list = "From: Shop <news@shop.co.il>\r\nList-Unsubscribe: <https://shop.co.il/u/1>, <mailto:u@shop.co.il>\r\nList-Unsubscribe-Post: List-Unsubscribe=One-Click\r\n";
        let sig = |d: &str, h: &str| {
            format!("DKIM-Signature: v=1; a=rsa-sha256; d={d}; s=s1; h={h}; bh=x; b=y\r\n")
        };
        let both = "from:list-unsubscribe:list-unsubscribe-post";
        let cases = [
            // Passing, covering both: one click.
            (
                format!(
                    "Authentication-Results: mx; dkim=pass header.d=shop.co.il\r\n{}",
                    sig("shop.co.il", both)
                ),
                true,
            ),
            (
                format!(
                    "Authentication-Results: mx; dkim=pass header.i=@shop.co.il\r\n{}",
                    sig(
                        "Shop.co.il",
                        "From : List-Unsubscribe : List-Unsubscribe-Post"
                    )
                ),
                true,
            ),
            // No result, a failing one, another domain's pass, a signature without the Post header.
            (sig("shop.co.il", both), false),
            (
                format!(
                    "Authentication-Results: mx; dkim=fail header.d=shop.co.il\r\n{}",
                    sig("shop.co.il", both)
                ),
                false,
            ),
            (
                format!(
                    "Authentication-Results: mx; dkim=pass header.d=other.example\r\n{}{}",
                    sig("shop.co.il", both),
                    sig("other.example", "from:subject")
                ),
                false,
            ),
            (
                format!(
                    "Authentication-Results: mx; dkim=pass header.d=shop.co.il\r\n{}",
                    sig("shop.co.il", "from:list-unsubscribe")
                ),
                false,
            ),
            // The sender's own forged result under the receiving server's: the topmost counts.
            (
                format!(
                    "Authentication-Results: mx; dkim=fail header.d=shop.co.il\r\nAuthentication-Results: mx; dkim=pass header.d=shop.co.il\r\n{}",
                    sig("shop.co.il", both)
                ),
                false,
            ),
        ];
        for (auth, one_click) in cases {
            let h = of(format!("{auth}{list}\r\nbody\r\n").as_bytes());
            let m = methods(&h, Vec::new());
            assert_eq!(m.one_click.is_some(), one_click, "{auth}");
            if !one_click {
                // Not signed: the URL is only offered to the user, the mailto form still works.
                assert_eq!(m.link.as_deref(), Some("https://shop.co.il/u/1"), "{auth}");
                assert_eq!(m.mailto.as_deref(), Some("mailto:u@shop.co.il"));
            }
        }
    }

    #[test]
    fn removal_links_in_the_body_are_found_not_followed() {
        let html = r#"<p>מבצע!</p><p>לא מעוניינים? <a href="https://club.co.il/remove?id=5&amp;t=1">להסרה לחצו כאן</a></p>
            <a href="https://club.co.il/shop">לחנות</a> <a href='javascript:alert(1)'>הסרה</a>"#;
        assert_eq!(
            removal_links(html, ""),
            ["https://club.co.il/remove?id=5&t=1"]
        );
        let text = "Deals!\nTo unsubscribe visit https://deals.example.com/u/77 today\nhttps://deals.example.com/shop";
        assert_eq!(removal_links("", text), ["https://deals.example.com/u/77"]);
        assert!(removal_links("<a href=\"https://x.example/\">קנו עכשיו</a>", "").is_empty());
        // Hostile HTML never panics.
        for bad in ["<a", "<a href=", "<a href='", "<a>הסרה", "הסרה<a href=x>"] {
            removal_links(bad, "");
        }
    }

    #[test]
    fn mailto_uris() {
        let m =
            mailto("mailto:unsub%2B7@list.example?subject=unsubscribe%20me&body=please").unwrap();
        assert_eq!(
            (m.to.as_str(), m.subject.as_str(), m.body.as_str()),
            ("unsub+7@list.example", "unsubscribe me", "please")
        );
        assert!(mailto("mailto:a@x,b@y").is_none());
        assert!(mailto("https://x").is_none());
        assert!(mailto("mailto:").is_none());
    }
}
