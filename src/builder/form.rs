//! Builder's form block, delivered by the server (spec 001 §3 "Builder form block
//! configuration", §4, §5, §7). The browser sends the block's id and the field values; the
//! block's settings (where to, method, content type, headers) are read from the content entry
//! the server fetched, never from the browser, so a signed-in user cannot make the server post
//! to an address of their choosing.
//!
//! - `sendSubmissionsTo: "email"`: mailed from the user's own mailbox through the outbox when
//!   `sendSubmissionsToEmail` is set and the user has a mailbox; otherwise posted as
//!   multipart/form-data to Builder's form-submit endpoint (query apiKey, to = base64 of the
//!   address, name), as Builder's SDK does.
//! - `"custom"`: posted to the block's `action` with its `method` (POST by default) and
//!   `contentType` (JSON by default, or form-urlencoded, or multipart); the block's
//!   `customHeaders` go along. Another content type is refused (and logged), not sent.

use base64::Engine;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use ts_rs::TS;

use super::Builder;
use crate::error::{AppError, Result};
use crate::messages;

pub const JSON: &str = "application/json";
pub const URLENCODED: &str = "application/x-www-form-urlencoded";
pub const MULTIPART: &str = "multipart/form-data";

/// At most this many fields in one submission.
pub const MAX_FIELDS: usize = 100;
/// At most this many bytes of names and values together.
pub const MAX_FORM_BYTES: usize = 256 * 1024;
/// The longest field name, in bytes.
pub const MAX_KEY_BYTES: usize = 256;
/// The most parts of a dotted field name (`a.b.c` has three): the JSON body nests one object
/// per part, and a nesting as deep as a client likes would overflow the stack when the body is
/// written or dropped (both recurse), which aborts the whole process.
pub const MAX_KEY_DEPTH: usize = 32;
/// The part of the action's answer that is read (the form shows it on error).
pub const MAX_REPLY_BYTES: usize = 256 * 1024;
const MAX_HEADERS: usize = 20;

/// One input of the form, as the block's JavaScript reads it (`name` → value; a number input
/// gives a number, a checkbox a boolean).
#[derive(Debug, Clone, Deserialize, TS)]
#[ts(rename = "BuilderFormField")]
pub struct Field {
    pub key: String,
    #[ts(type = "string | number | boolean | null")]
    pub value: Value,
}

/// `POST /api/builder/form`.
#[derive(Debug, Clone, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(rename = "BuilderFormRequest")]
pub struct Submission {
    /// The page the form is on (its entry holds the block).
    pub url_path: String,
    /// The form block's id in that entry.
    pub block_id: String,
    pub fields: Vec<Field>,
}

/// What the form's destination answered, for the block's success and error states.
#[derive(Debug, Clone, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(rename = "BuilderFormAnswer")]
pub struct Answer {
    pub ok: bool,
    pub status: u16,
    pub content_type: String,
    /// The answer's text (at most 256 KB).
    pub body: String,
    /// How it went: `mail` (through the user's mailbox), `builder` (Builder's form-submit),
    /// `custom` (the block's action URL).
    pub delivered_by: String,
}

/// Where one submission goes, read from the block's options.
#[derive(Debug, Clone, PartialEq)]
pub enum Delivery {
    /// `sendSubmissionsTo: "email"`; `to` may be empty.
    Email { to: String, name: String },
    Custom {
        url: reqwest::Url,
        method: reqwest::Method,
        content_type: String,
        headers: Vec<(String, String)>,
    },
}

fn text<'a>(options: &'a Value, key: &str) -> &'a str {
    options
        .get(key)
        .and_then(Value::as_str)
        .unwrap_or("")
        .trim()
}

/// Reads the block's options (`component.options` of a `Form:Form` block).
pub fn plan(options: &Value) -> Result<Delivery> {
    let to = text(options, "sendSubmissionsTo");
    // Builder's default is e-mail.
    if to.is_empty() || to == "email" {
        return Ok(Delivery::Email {
            to: text(options, "sendSubmissionsToEmail").to_string(),
            name: text(options, "name").to_string(),
        });
    }
    let action = text(options, "action");
    if action.is_empty() {
        return Err(AppError::bad_request(messages::BUILDER_FORM_NO_ACTION));
    }
    let url = reqwest::Url::parse(action)
        .ok()
        .filter(|u| matches!(u.scheme(), "http" | "https") && u.host_str().is_some())
        .ok_or_else(|| AppError::bad_request(messages::BUILDER_FORM_BAD_ACTION))?;
    let method = match text(options, "method").to_ascii_uppercase().as_str() {
        "" | "POST" => reqwest::Method::POST,
        "PUT" => reqwest::Method::PUT,
        "PATCH" => reqwest::Method::PATCH,
        _ => return Err(AppError::bad_request(messages::BUILDER_FORM_BAD_ACTION)),
    };
    let content_type = match text(options, "contentType") {
        "" => JSON.to_string(),
        t => t.to_ascii_lowercase(),
    };
    if ![JSON, URLENCODED, MULTIPART].contains(&content_type.as_str()) {
        tracing::error!(
            content_type,
            "builder form: unsupported content type, not sent"
        );
        return Err(AppError::bad_request(messages::BUILDER_FORM_CONTENT_TYPE));
    }
    let headers = options
        .get("customHeaders")
        .and_then(Value::as_object)
        .map(|map| {
            map.iter()
                .filter_map(|(k, v)| Some((k.trim().to_ascii_lowercase(), v.as_str()?.to_string())))
                .filter(|(k, v)| {
                    reqwest::header::HeaderName::from_bytes(k.as_bytes()).is_ok()
                        && reqwest::header::HeaderValue::from_str(v).is_ok()
                        && !matches!(
                            k.as_str(),
                            "host"
                                | "content-length"
                                | "content-type"
                                | "transfer-encoding"
                                | "connection"
                                | "cookie"
                        )
                })
                .take(MAX_HEADERS)
                .collect()
        })
        .unwrap_or_default();
    Ok(Delivery::Custom {
        url,
        method,
        content_type,
        headers,
    })
}

/// Checks the fields' count and size, each name's length and depth, and that each value is a
/// scalar (what a form input gives): nothing a submission carries nests deeper than
/// [`MAX_KEY_DEPTH`].
pub fn check_fields(fields: &[Field]) -> Result<()> {
    if fields.len() > MAX_FIELDS {
        return Err(AppError::bad_request(
            messages::BUILDER_FORM_TOO_MANY_FIELDS,
        ));
    }
    for f in fields {
        if key_parts(&f.key).count() > MAX_KEY_DEPTH {
            return Err(AppError::bad_request(messages::BUILDER_FORM_KEY_TOO_DEEP));
        }
        if f.key.len() > MAX_KEY_BYTES {
            return Err(AppError::bad_request(messages::BUILDER_FORM_KEY_TOO_LONG));
        }
        if f.value.is_array() || f.value.is_object() {
            return Err(AppError::bad_request(messages::BUILDER_FORM_BAD_VALUE));
        }
    }
    let size: usize = fields
        .iter()
        .map(|f| f.key.len() + f.value.to_string().len())
        .sum();
    if size > MAX_FORM_BYTES {
        return Err(AppError::bad_request(messages::BUILDER_FORM_TOO_LARGE));
    }
    Ok(())
}

/// A value as a form field's text.
pub fn as_text(value: &Value) -> String {
    match value {
        Value::String(s) => s.clone(),
        Value::Null => String::new(),
        v => v.to_string(),
    }
}

/// The non-empty parts of a dotted field name.
fn key_parts(key: &str) -> impl Iterator<Item = &str> {
    key.split('.').filter(|p| !p.is_empty())
}

/// The JSON body: each field set at its dotted path (`a.b` → `{"a": {"b": …}}`), as the SDK's
/// `set` does. The depth is [`check_fields`]'s bound; past it (a caller that did not check) the
/// rest of the name stays one key, so the body never nests deeper.
pub fn json_body(fields: &[Field]) -> Value {
    let mut root = Map::new();
    for f in fields {
        let mut parts: Vec<String> = key_parts(&f.key).map(str::to_string).collect();
        if parts.len() > MAX_KEY_DEPTH {
            let rest = parts.split_off(MAX_KEY_DEPTH - 1).join(".");
            parts.push(rest);
        }
        let Some((last, path)) = parts.split_last() else {
            continue;
        };
        let mut here = &mut root;
        for p in path {
            let slot = here
                .entry(p.clone())
                .or_insert_with(|| Value::Object(Map::new()));
            if !slot.is_object() {
                *slot = Value::Object(Map::new());
            }
            here = slot.as_object_mut().expect("made an object");
        }
        here.insert(last.clone(), f.value.clone());
    }
    Value::Object(root)
}

pub fn urlencoded_body(fields: &[Field]) -> String {
    let mut out = url::form_urlencoded::Serializer::new(String::new());
    for f in fields {
        out.append_pair(&f.key, &as_text(&f.value));
    }
    out.finish()
}

/// A multipart/form-data body of text fields; returns (boundary, body).
pub fn multipart_body(fields: &[Field]) -> (String, Vec<u8>) {
    let mut random = [0u8; 12];
    let _ = getrandom::fill(&mut random);
    let boundary = format!("----mailclient{}", hex::encode(random));
    let mut body = Vec::new();
    for f in fields {
        // Quotes and line breaks in a name would break the part's header (RFC 7578 §4.2).
        let name: String = f
            .key
            .chars()
            .map(|c| match c {
                '"' => '\'',
                '\r' | '\n' => ' ',
                c => c,
            })
            .collect();
        body.extend_from_slice(
            format!(
                "--{boundary}\r\nContent-Disposition: form-data; name=\"{name}\"\r\n\r\n{}\r\n",
                as_text(&f.value)
            )
            .as_bytes(),
        );
    }
    body.extend_from_slice(format!("--{boundary}--\r\n").as_bytes());
    (boundary, body)
}

impl Builder {
    /// Builder's form-submit URL for an e-mail form.
    pub fn form_submit_url(&self, to: &str, name: &str) -> Result<reqwest::Url> {
        let mut url = reqwest::Url::parse(&self.config.form_submit_url)
            .map_err(|_| AppError::Upstream(messages::BUILDER_UPSTREAM_UNREACHABLE.into()))?;
        url.query_pairs_mut()
            .append_pair("apiKey", self.config.api_key.trim())
            .append_pair(
                "to",
                &base64::engine::general_purpose::STANDARD.encode(to.as_bytes()),
            )
            .append_pair("name", name);
        Ok(url)
    }

    /// Posts the fields to Builder's form-submit endpoint.
    pub async fn post_to_builder(&self, to: &str, name: &str, fields: &[Field]) -> Result<Answer> {
        let url = self.form_submit_url(to, name)?;
        let (boundary, body) = multipart_body(fields);
        let request = self.http.post(url).header(
            "content-type",
            format!("multipart/form-data; boundary={boundary}"),
        );
        answer(request.body(body).send().await, "builder").await
    }

    /// Posts the fields to the block's own action URL, after the host policy allowed it.
    pub async fn post_to_action(&self, delivery: &Delivery, fields: &[Field]) -> Result<Answer> {
        let Delivery::Custom {
            url,
            method,
            content_type,
            headers,
        } = delivery
        else {
            return Err(AppError::bad_request(messages::BUILDER_FORM_BAD_ACTION));
        };
        self.check_action(url).await?;
        let mut request = self.forms.request(method.clone(), url.clone());
        for (k, v) in headers {
            request = request.header(k.as_str(), v.as_str());
        }
        request = match content_type.as_str() {
            JSON => request
                .header("content-type", JSON)
                .body(json_body(fields).to_string()),
            URLENCODED => request
                .header("content-type", URLENCODED)
                .body(urlencoded_body(fields)),
            _ => {
                let (boundary, body) = multipart_body(fields);
                request
                    .header(
                        "content-type",
                        format!("multipart/form-data; boundary={boundary}"),
                    )
                    .body(body)
            }
        };
        answer(request.send().await, "custom").await
    }
}

async fn answer(
    sent: std::result::Result<reqwest::Response, reqwest::Error>,
    by: &str,
) -> Result<Answer> {
    let response = sent.map_err(|e| super::upstream_error(&e))?;
    let status = response.status();
    let content_type = response
        .headers()
        .get(reqwest::header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("")
        .to_string();
    let bytes = super::read_bounded(response, MAX_REPLY_BYTES).await?;
    Ok(Answer {
        ok: status.is_success(),
        status: status.as_u16(),
        content_type,
        body: String::from_utf8_lossy(&bytes).into_owned(),
        delivered_by: by.to_string(),
    })
}

/// The mail a submission becomes when it goes through the user's mailbox: a table of the
/// fields (escaped).
pub fn mail_html(form_name: &str, url_path: &str, fields: &[Field]) -> String {
    let esc = |s: &str| {
        s.replace('&', "&amp;")
            .replace('<', "&lt;")
            .replace('>', "&gt;")
            .replace('"', "&quot;")
    };
    let rows: String = fields
        .iter()
        .map(|f| {
            format!(
                "<tr><th style=\"text-align:right;padding:4px 8px\">{}</th><td style=\"padding:4px 8px\">{}</td></tr>",
                esc(&f.key),
                esc(&as_text(&f.value))
            )
        })
        .collect();
    format!(
        "<p>הטופס „{}” נשלח מהעמוד {}.</p><table>{rows}</table>",
        esc(form_name),
        esc(url_path)
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn fields(pairs: &[(&str, Value)]) -> Vec<Field> {
        pairs
            .iter()
            .map(|(k, v)| Field {
                key: (*k).into(),
                value: v.clone(),
            })
            .collect()
    }

    #[test]
    fn json_sets_dotted_paths() {
        let f = fields(&[
            ("name", json!("דנה")),
            ("address.city", json!("חיפה")),
            ("age", json!(30)),
            ("agree", json!(true)),
        ]);
        assert_eq!(
            json_body(&f),
            json!({"name": "דנה", "address": {"city": "חיפה"}, "age": 30, "agree": true})
        );
    }

    #[test]
    fn urlencoded_and_multipart_carry_every_field() {
        let f = fields(&[("שם", json!("דנה כהן")), ("n", json!(2))]);
        assert_eq!(
            urlencoded_body(&f),
            "%D7%A9%D7%9D=%D7%93%D7%A0%D7%94+%D7%9B%D7%94%D7%9F&n=2"
        );
        let (boundary, body) = multipart_body(&f);
        let body = String::from_utf8(body).unwrap();
        assert!(body.contains("name=\"שם\"\r\n\r\nדנה כהן\r\n"), "{body}");
        assert!(body.ends_with(&format!("--{boundary}--\r\n")));
    }

    #[test]
    fn plan_reads_the_block_options() {
        assert_eq!(
            plan(&json!({"sendSubmissionsToEmail": "a@b.co", "name": "צור קשר"})).unwrap(),
            Delivery::Email {
                to: "a@b.co".into(),
                name: "צור קשר".into()
            }
        );
        let Delivery::Custom {
            method,
            content_type,
            headers,
            ..
        } = plan(
            &json!({"sendSubmissionsTo": "custom", "action": "https://x.example/f",
            "customHeaders": {"X-Token": "abc", "Host": "evil", "bad header": "x"}}),
        )
        .unwrap()
        else {
            panic!("custom")
        };
        assert_eq!(method, reqwest::Method::POST);
        assert_eq!(content_type, JSON);
        assert_eq!(headers, vec![("x-token".to_string(), "abc".to_string())]);
        for bad in [
            json!({"sendSubmissionsTo": "custom"}),
            json!({"sendSubmissionsTo": "custom", "action": "ftp://x/"}),
            json!({"sendSubmissionsTo": "custom", "action": "https://x/", "method": "GET"}),
            json!({"sendSubmissionsTo": "custom", "action": "https://x/", "contentType": "text/xml"}),
        ] {
            assert!(plan(&bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn fields_are_bounded() {
        let many: Vec<Field> = (0..=MAX_FIELDS)
            .map(|i| Field {
                key: format!("f{i}"),
                value: json!("x"),
            })
            .collect();
        assert!(check_fields(&many).is_err());
        assert!(check_fields(&fields(&[("big", json!("x".repeat(MAX_FORM_BYTES)))])).is_err());
        assert!(check_fields(&fields(&[("ok", json!("x"))])).is_ok());
    }

    #[test]
    fn names_are_bounded_in_length_and_depth_and_values_are_scalars() {
        let deep = vec!["a"; MAX_KEY_DEPTH + 1].join(".");
        let err = |f: &[Field]| check_fields(f).unwrap_err().user_message();
        assert_eq!(
            err(&fields(&[(deep.as_str(), json!("x"))])),
            messages::BUILDER_FORM_KEY_TOO_DEEP
        );
        let long = "a".repeat(MAX_KEY_BYTES + 1);
        assert_eq!(
            err(&fields(&[(long.as_str(), json!("x"))])),
            messages::BUILDER_FORM_KEY_TOO_LONG
        );
        for v in [json!([1]), json!({"a": 1})] {
            assert_eq!(err(&fields(&[("k", v)])), messages::BUILDER_FORM_BAD_VALUE);
        }
        let ok = vec!["a"; MAX_KEY_DEPTH].join(".");
        assert!(check_fields(&fields(&[(ok.as_str(), json!(1)), ("..x..", json!(null))])).is_ok());
    }

    #[test]
    fn the_json_body_never_nests_past_the_bound() {
        // 130,000 parts (the request that aborted the server) made as many nested objects.
        let key = vec!["a"; 130_000].join(".");
        let body = json_body(&fields(&[(key.as_str(), json!("x"))]));
        let mut depth = 0;
        let mut here = &body;
        while let Some(map) = here.as_object() {
            depth += 1;
            here = map.values().next().unwrap();
        }
        assert_eq!(depth, MAX_KEY_DEPTH);
        assert!(body.to_string().len() > 130_000);
    }

    #[test]
    fn the_mail_escapes_what_the_visitor_typed() {
        let html = mail_html(
            "טופס",
            "/builder-demo",
            &fields(&[("<b>", json!("<script>"))]),
        );
        assert!(
            !html.contains("<script>") && html.contains("&lt;script&gt;"),
            "{html}"
        );
    }
}
