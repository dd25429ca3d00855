//! A stand-in for Gmail's IMAP extension (X-GM-EXT-1) in front of a Gmail-shaped Dovecot: the
//! relay adds `X-GM-EXT-1` to CAPABILITY (and takes QRESYNC away, as Gmail has none), asks Dovecot for the ENVELOPE where the client asks
//! for `X-GM-MSGID` / `X-GM-THRID`, and answers with ids derived from it: the same mail (the
//! same Message-ID) has the same `X-GM-MSGID` in every folder, as on Gmail; `X-GM-THRID` is
//! the id of the mail it replies to, else its own. `X-GM-LABELS` answers what the test set in
//! `labels` for the mail's Message-ID (nothing set: no labels), where the client asks for it
//! beside the ids (a new copy) or with the flags (a flag pass).

use std::collections::HashMap;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

use crate::common::imap_relay::{Act, ClientLine, Rewrite};

#[derive(Default)]
pub struct Gmail {
    /// FETCH commands that asked for X-GM-MSGID.
    pub msgid_fetches: AtomicUsize,
    /// The X-GM-LABELS list (what goes between its parentheses) by Message-ID (`<...>`).
    pub labels: Mutex<HashMap<String, String>>,
}

impl Rewrite for Gmail {
    fn client_line(&self, line: &ClientLine<'_>) -> Act {
        let text = String::from_utf8_lossy(line.raw);
        let upper = text.to_ascii_uppercase();
        if !upper.contains("X-GM-") {
            return Act::Forward;
        }
        if !upper.contains("X-GM-MSGID") {
            // The labels asked with the flags: the ENVELOPE says whose.
            return Act::Replace(text.replace("X-GM-LABELS", "ENVELOPE").into_bytes());
        }
        self.msgid_fetches.fetch_add(1, Ordering::Relaxed);
        let mut out = text.replace("X-GM-MSGID", "ENVELOPE");
        out = out
            .replace(" X-GM-THRID", "")
            .replace("X-GM-THRID", "ENVELOPE")
            .replace(" X-GM-LABELS", "");
        Act::Replace(out.into_bytes())
    }

    fn server_line(&self, _conn: usize, line: Vec<u8>) -> Vec<Vec<u8>> {
        let text = String::from_utf8_lossy(&line).into_owned();
        if text.starts_with("* CAPABILITY ") || text.contains("[CAPABILITY ") {
            let end = text.find(']').unwrap_or_else(|| text.trim_end().len());
            let mut out = text.clone();
            out.insert_str(end, " X-GM-EXT-1");
            // Gmail offers CONDSTORE without QRESYNC: flag (and label) changes are asked for.
            return vec![out.replace(" QRESYNC", "").into_bytes()];
        }
        if text.starts_with("* ")
            && text.contains(" FETCH ")
            && let Some(out) = envelope_to_ids(&text, &self.labels.lock().unwrap())
        {
            return vec![out.into_bytes()];
        }
        vec![line]
    }
}

/// The FETCH line with its `ENVELOPE (...)` replaced by `X-GM-MSGID n X-GM-THRID t
/// X-GM-LABELS (...)`.
fn envelope_to_ids(text: &str, labels: &HashMap<String, String>) -> Option<String> {
    let start = text.find("ENVELOPE (")?;
    let open = start + "ENVELOPE ".len();
    let (end, fields) = top_level(text, open)?;
    let message_id = fields.get(9)?.clone();
    let in_reply_to = fields.get(8)?.clone();
    let msgid = id_of(&message_id);
    let thrid = if in_reply_to == "NIL" {
        msgid
    } else {
        id_of(&in_reply_to)
    };
    let labels = labels
        .get(message_id.trim_matches('"'))
        .map_or("", String::as_str);
    Some(format!(
        "{}X-GM-MSGID {msgid} X-GM-THRID {thrid} X-GM-LABELS ({labels}){}",
        &text[..start],
        &text[end + 1..]
    ))
}

/// The top-level items of the parenthesized list opening at `open`, and where it closes.
fn top_level(text: &str, open: usize) -> Option<(usize, Vec<String>)> {
    let bytes = text.as_bytes();
    let (mut depth, mut i, mut quoted) = (0usize, open, false);
    let mut items = Vec::new();
    let mut item_start = open + 1;
    while i < bytes.len() {
        let b = bytes[i];
        if quoted {
            match b {
                b'\\' => i += 1,
                b'"' => quoted = false,
                _ => {}
            }
        } else {
            match b {
                b'"' => quoted = true,
                b'(' => depth += 1,
                b')' => {
                    depth -= 1;
                    if depth == 0 {
                        items.push(text[item_start..i].trim().to_string());
                        return Some((i, items));
                    }
                }
                b' ' if depth == 1 => {
                    items.push(text[item_start..i].trim().to_string());
                    item_start = i + 1;
                }
                _ => {}
            }
        }
        i += 1;
    }
    None
}

/// A stable 63-bit id of a Message-ID (FNV-1a).
pub fn id_of(message_id: &str) -> u64 {
    let mut h: u64 = 0xcbf29ce484222325;
    for b in message_id.trim_matches('"').bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x100000001b3);
    }
    h >> 1
}
