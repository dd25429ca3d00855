//! The records of the mail store: a folder's sync state, a message's record, the flags a
//! server reports, a fetched message, a queued change for the server.

use serde::{Deserialize, Serialize};

use super::index::{IndexRow, flags, thread_hash};
use super::keywords;
use crate::mail::mutf7;
use crate::mail::parse::Summary;
use crate::mail::threading;

/// The triage of a mail whose move is queued, put back on the copy the target folder yields
/// (its last activity always; its status when the server keeps no keywords there).
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq)]
pub struct Carried {
    pub status: Option<String>,
    pub priority: Option<String>,
    pub last_activity: Option<i64>,
    /// Spam detection's score and ad mark, kept on the copy (the Junk copy of detected spam
    /// would otherwise show no score).
    #[serde(default)]
    pub spam_score: Option<f32>,
    #[serde(default)]
    pub advertisement: bool,
    /// The date the copy is listed under instead of its own (a snoozed mail back in the inbox
    /// at the top, at its wake-up time).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub date: Option<i64>,
}

/// Sync state of one folder.
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq)]
pub struct FolderState {
    pub name: String,
    /// Decoded (modified UTF-7) name for display.
    pub display_name: String,
    /// inbox, sent, drafts, junk, trash, archive, snoozed, or "" for the user's own folders.
    pub role: String,
    pub uidvalidity: u32,
    /// UIDNEXT seen when the newest messages were last fetched: everything at or above it is
    /// new.
    pub top: u32,
    /// The lowest UID of the range [down_to, top) already fetched; the initial sync walks it
    /// down to 1, newest first, and resumes from here after a restart.
    pub down_to: u32,
    pub highest_modseq: u64,
    pub exists: u32,
    #[serde(default)]
    pub last_sync: i64,
    /// The server lets us set our own keywords here (PERMANENTFLAGS has `\*`): its keywords
    /// then decide the status; without, the status stays local.
    #[serde(default)]
    pub keywords_ok: bool,
    /// The server's hierarchy delimiter for this folder (LIST), "" before it was listed or on
    /// a flat server.
    #[serde(default)]
    pub delimiter: String,
    /// Gmail's model (a mailbox with a `\All` folder): a label folder, whose mail is stored
    /// once under its home folder and is a place here ([`Place`]), listed and counted in this
    /// folder but never a second time in a view across folders.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub labels: bool,
    /// Gmail's `[Gmail]/All Mail` (`\All`): every mail again. Its presence makes the account
    /// Gmail-shaped: each mail is downloaded once and its other folders are its places.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub all_mail: bool,
    /// Gmail (X-GM-EXT-1): the labels of this folder's mail were read in full once
    /// (`X-GM-LABELS`); later passes ask only those of mail whose MODSEQ moved.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub labels_read: bool,
}

impl FolderState {
    /// A folder of a local account (no server): UIDs are numbered here from 1, the role comes
    /// from the name, keywords are always ours to set.
    pub fn local(name: &str) -> Self {
        Self {
            name: name.to_string(),
            display_name: name.to_string(),
            role: role_by_name(name).to_string(),
            uidvalidity: 1,
            top: 1,
            down_to: 1,
            keywords_ok: true,
            ..Self::default()
        }
    }
}

#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq)]
pub struct MessageMeta {
    pub id: u64,
    pub account_id: u64,
    pub folder: String,
    pub uid: u32,
    pub thread_id: String,
    /// Date header, else INTERNALDATE (unix seconds): the list's order.
    pub date: i64,
    pub size: u32,
    pub seen: bool,
    pub flagged: bool,
    #[serde(default)]
    pub answered: bool,
    #[serde(default)]
    pub draft: bool,
    /// Other IMAP keywords ($Junk, the statuses later, ...).
    #[serde(default)]
    pub keywords: Vec<String>,
    #[serde(default)]
    pub status: Option<String>,
    #[serde(default)]
    pub priority: Option<String>,
    #[serde(default)]
    pub hidden: bool,
    /// When its status last changed (spec 000 §3 lastActivity); the date until then.
    #[serde(default)]
    pub last_activity: Option<i64>,
    /// Spam detection's score in points, when it scored this mail.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub spam_score: Option<f32>,
    /// Spam detection found it to be commercial mail (listed under Promotions only when the
    /// user lets detection move ads; otherwise it stays in the inbox with this mark).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub advertisement: bool,
    pub summary: Summary,
    /// Its other places on the server (Gmail: INBOX, All Mail, its labels), each a UID in
    /// another folder of the same mail; `folder` and `uid` are its home.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub places: Vec<Place>,
    /// The key its copies are recognised by in a Gmail-shaped mailbox (see [`Identity`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub identity: Option<String>,
    /// Its labels as Gmail's X-GM-LABELS last said (see [`ServerFlags::labels`]): with its
    /// places in label folders, the labels shown; a label hidden from IMAP has no folder.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub gm_labels: Vec<String>,
}

/// Another place of a stored mail: the same mail under another UID in another folder (Gmail's
/// labels are folders, and All Mail holds every mail again).
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq)]
pub struct Place {
    pub folder: String,
    pub uid: u32,
    /// The folder is a label folder: the mail has an index row there (listed and counted in
    /// that folder, not in views across folders).
    #[serde(default)]
    pub listed: bool,
}

/// How a Gmail-shaped mailbox's copies of one mail are recognised before their bodies are
/// downloaded.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Identity {
    /// Gmail's own id (X-GM-EXT-1's `X-GM-MSGID`): the same mail in every folder.
    GmailMsgId,
    /// Without X-GM-EXT-1 (a server shaped like Gmail): the Message-ID and RFC822.SIZE
    /// together. Copies are the same bytes, so the same size; two distinct mails that share a
    /// Message-ID (the sent copy and the one a list sent back, a resent mail) differ in their
    /// headers and so almost always in size. INTERNALDATE is left out: a server need not keep
    /// it on COPY, and a differing one would download the mail again.
    MessageIdSize,
}

impl Identity {
    /// The key of a copy: `gm:<X-GM-MSGID>` or `mid:<Message-ID>:<size>`; None when the copy
    /// has nothing to be recognised by (no Message-ID): it is downloaded as its own mail.
    pub fn key(self, gm_msgid: Option<u64>, message_id: Option<&str>, size: u32) -> Option<String> {
        match self {
            Self::GmailMsgId => gm_msgid.map(|id| format!("gm:{id}")),
            Self::MessageIdSize => message_id
                .map(str::trim)
                .filter(|m| !m.is_empty() && m.len() <= 900)
                .map(|m| format!("mid:{m}:{size}")),
        }
    }
}

impl MessageMeta {
    pub fn bits(&self) -> u16 {
        let mut b = 0;
        for (on, bit) in [
            (self.seen, flags::SEEN),
            (self.flagged, flags::FLAGGED),
            (self.hidden, flags::HIDDEN),
            (self.draft, flags::DRAFT),
            (self.answered, flags::ANSWERED),
            (self.has_attachments(), flags::ATTACHMENT),
            (
                self.priority.as_deref() == Some("high"),
                flags::PRIORITY_HIGH,
            ),
            (
                self.priority.as_deref() == Some("urgent"),
                flags::PRIORITY_URGENT,
            ),
        ] {
            if on {
                b |= bit;
            }
        }
        b | (flags::status_code(self.status.as_deref()) << flags::STATUS_SHIFT)
    }

    pub fn has_attachments(&self) -> bool {
        self.summary.attachments.iter().any(|a| !a.inline)
    }

    /// Last status change, else the date.
    pub fn activity(&self) -> i64 {
        self.last_activity.unwrap_or(self.date).max(self.date)
    }

    /// The sender as people read it: the display name, else the address.
    pub fn sender_name(&self) -> &str {
        let s = &self.summary;
        if s.from_name.trim().is_empty() {
            s.from.trim()
        } else {
            s.from_name.trim()
        }
    }

    pub fn index_row(&self) -> IndexRow {
        IndexRow {
            bits: self.bits(),
            thread: thread_hash(&self.thread_id),
            activity: self.activity(),
            sender: self.sender_name().to_lowercase(),
            subject: threading::normalize_subject(&self.summary.subject)
                .0
                .to_lowercase(),
        }
    }

    /// Takes spam detection's verdict: the score and the ad mark always, the status only when
    /// the mail has none (a status the user or the mailbox set is never overridden). Returns
    /// whether the status changed.
    pub fn take_detection(&mut self, d: &Detection) -> bool {
        self.spam_score = Some(d.score);
        self.advertisement = d.advertisement;
        match d.status {
            Some(s) if self.status.is_none() => {
                self.status = Some(s.to_string());
                self.keywords =
                    keywords::with_triage(&self.keywords, Some(s), self.priority.as_deref());
                true
            }
            _ => false,
        }
    }

    /// Applies the triage state its keywords carry (the mailbox is the source of truth).
    pub fn take_triage_from_keywords(&mut self) {
        self.status = keywords::status_of(&self.keywords).map(str::to_string);
        self.priority = keywords::priority_of(&self.keywords).map(str::to_string);
    }
}

/// What spam detection decided for a mail (see `MailWrite::detect`).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Detection {
    pub score: f32,
    /// spam, suspicious or advertisement; None leaves the status alone.
    pub status: Option<&'static str>,
    pub advertisement: bool,
    /// Move it to the mailbox's Junk folder (spam with `autoMoveSpam`).
    pub move_to_junk: bool,
}

/// The key a hidden message is remembered by: its Message-ID, else a hash of its bytes.
pub fn hidden_key(message_id: Option<&str>, raw: &[u8]) -> String {
    match message_id {
        Some(id) if !id.is_empty() => id.to_string(),
        _ => {
            use sha2::Digest;
            let digest = sha2::Sha256::digest(raw);
            let hex: String = digest.iter().take(16).map(|b| format!("{b:02x}")).collect();
            format!("sha256:{hex}")
        }
    }
}

/// IMAP flags of a message as the server reported them.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ServerFlags {
    pub seen: bool,
    pub flagged: bool,
    pub answered: bool,
    pub draft: bool,
    pub keywords: Vec<String>,
    /// Gmail's labels of it (X-GM-LABELS, where X-GM-EXT-1 is offered): the user's labels as
    /// the server names them (modified UTF-7), sorted, without Gmail's own (`\Inbox`,
    /// `\Important`...). None where they were not asked.
    pub labels: Option<Vec<String>>,
}

/// A message fetched from the server, not yet stored.
pub struct Fetched {
    pub uid: u32,
    pub flags: ServerFlags,
    pub internal_date: Option<i64>,
    pub raw: Vec<u8>,
    /// Its key in a Gmail-shaped mailbox ([`Identity::key`]): a copy of a mail stored already
    /// becomes another place of it.
    pub identity: Option<String>,
    /// The server's own thread id (Gmail's `X-GM-THRID`), which then decides its thread.
    pub thread: Option<String>,
}

#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq)]
pub struct PendingFlags {
    pub folder: String,
    pub uid: u32,
    pub uidvalidity: u32,
    #[serde(default)]
    pub seen: Option<bool>,
    #[serde(default)]
    pub flagged: Option<bool>,
    /// The managed keywords (status, priority) the message must carry.
    #[serde(default)]
    pub keywords: Option<Vec<String>>,
    /// Move the message to the folder of this role (junk, archive, trash, inbox), or to the
    /// folder named after `folder:` (a rule's move).
    #[serde(default)]
    pub move_to: Option<String>,
    /// Keywords to add that this client does not manage (a rule's labels, a snooze's).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub add_keywords: Vec<String>,
    /// Keywords to remove that this client does not manage (a snooze's, when it wakes).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub remove_keywords: Vec<String>,
    /// Create the target folder when the mailbox has none (auto-archive, snooze).
    #[serde(default)]
    pub create_target: bool,
}

/// The folder a role's mail goes to when the mailbox has none and a move may create it.
pub fn created_name(role: &str) -> Option<&'static str> {
    match role {
        "archive" => Some("Archive"),
        "snoozed" => Some("Snoozed"),
        _ => None,
    }
}

/// Role → folder name: where moves to Junk, Archive, Trash and INBOX go.
pub fn roles(folders: &[FolderState]) -> std::collections::HashMap<String, String> {
    let mut out = std::collections::HashMap::new();
    for f in folders.iter().filter(|f| !f.role.is_empty()) {
        out.entry(f.role.clone()).or_insert_with(|| f.name.clone());
    }
    out
}

/// Common folder names when the server does not mark roles (Hebrew ones included).
pub fn role_by_name(name: &str) -> &'static str {
    let decoded = mutf7::decode(name);
    let last = decoded
        .rsplit(['/', '.'])
        .next()
        .unwrap_or(&decoded)
        .to_lowercase();
    if name.eq_ignore_ascii_case("INBOX") {
        return "inbox";
    }
    match last.as_str() {
        "sent"
        | "sent items"
        | "sent mail"
        | "sent messages"
        | "נשלח"
        | "דואר יוצא"
        | "פריטים שנשלחו" => "sent",
        "drafts" | "draft" | "טיוטות" => "drafts",
        "junk" | "spam" | "junk e-mail" | "junk email" | "bulk mail" | "דואר זבל" | "ספאם" => {
            "junk"
        }
        "trash" | "deleted items" | "deleted messages" | "bin" | "אשפה" | "פריטים שנמחקו" => {
            "trash"
        }
        "archive" | "archives" | "all mail" | "ארכיון" => "archive",
        "snoozed" | "נדחו" | "נודניק" => "snoozed",
        _ => "",
    }
}
