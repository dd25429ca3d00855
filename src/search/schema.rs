//! The index's fields and how one stored message becomes a document. Nothing is stored in the
//! index but the message id (a fast field): results are read from the store, snippets from the
//! stored message, so the index stays small.

pub use crate::mail::preview::cut;
use tantivy::schema::{
    FAST, Field, INDEXED, IndexRecordOption, STRING, Schema, TextFieldIndexing, TextOptions,
};
use tantivy::{TantivyDocument, doc};

use super::analyzer;
use crate::mail::parse::Searchable;
use crate::mailstore::MessageMeta;

/// Bumped whenever the schema or the analysis changes: an index written with another version is
/// rebuilt from the store. 2: the senders' and recipients' addresses whole (`from_address`,
/// `to_address`).
pub const VERSION: u32 = 2;

#[derive(Clone, Copy)]
pub struct Fields {
    pub id: Field,
    pub user: Field,
    pub account: Field,
    pub date: Field,
    pub subject: Field,
    pub body: Field,
    /// Sender name and address.
    pub from: Field,
    /// To and Cc, names and addresses.
    pub to: Field,
    /// The sender's address whole ([`fold_address`]): `from:tim.one@comcast.net` is a lookup of
    /// it, not the phrase `tim one comcast net*` (4.3 ms HTTP p50 at 1,000,000 messages).
    pub from_address: Field,
    /// Each To and Cc address whole ([`fold_address`]).
    pub to_address: Field,
    pub attachments: Field,
    /// Lower-cased folder name and the folder's role.
    pub folder: Field,
    pub role: Field,
    /// `unread`/`read`, `starred`, `attachment`, `hidden`, `draft`, `answered`.
    pub flags: Field,
    pub status: Field,
    pub labels: Field,
    pub msgid: Field,
}

fn text(analyzer: &str) -> TextOptions {
    TextOptions::default().set_indexing_options(
        TextFieldIndexing::default()
            .set_tokenizer(analyzer)
            .set_index_option(IndexRecordOption::WithFreqsAndPositions),
    )
}

pub fn build() -> (Schema, Fields) {
    let mut b = Schema::builder();
    let fields = Fields {
        id: b.add_u64_field("id", INDEXED | FAST),
        user: b.add_u64_field("user", INDEXED),
        account: b.add_u64_field("account", INDEXED),
        date: b.add_i64_field("date", INDEXED | FAST),
        subject: b.add_text_field("subject", text(analyzer::INDEX)),
        body: b.add_text_field("body", text(analyzer::INDEX)),
        from: b.add_text_field("from", text(analyzer::PLAIN)),
        to: b.add_text_field("to", text(analyzer::PLAIN)),
        from_address: b.add_text_field("from_address", STRING),
        to_address: b.add_text_field("to_address", STRING),
        attachments: b.add_text_field("attachments", text(analyzer::PLAIN)),
        folder: b.add_text_field("folder", STRING),
        role: b.add_text_field("role", STRING),
        flags: b.add_text_field("flags", STRING),
        status: b.add_text_field("status", STRING),
        labels: b.add_text_field("labels", STRING),
        msgid: b.add_text_field("msgid", STRING),
    };
    (b.build(), fields)
}

/// An address as the index keeps it and a query looks it up: each letter lower-cased on its own
/// (`str::to_lowercase` would make a typed prefix's last Σ a final ς, which the whole address
/// does not have).
pub fn fold_address(address: &str) -> String {
    address.chars().flat_map(char::to_lowercase).collect()
}

/// Body text beyond this many bytes is not indexed (a pasted log must not cost the import).
pub const MAX_BODY_BYTES: usize = 256 * 1024;

/// The document of one message. `role` is its folder's role, `body` its text.
pub fn document(
    f: &Fields,
    user: u64,
    meta: &MessageMeta,
    role: &str,
    found: &Searchable,
) -> TantivyDocument {
    let s = &meta.summary;
    let mut d = doc!(
        f.id => meta.id,
        f.user => user,
        f.account => meta.account_id,
        f.date => meta.date,
        f.subject => s.subject.as_str(),
        f.body => cut(&found.text, MAX_BODY_BYTES),
        f.to => found.recipients.as_str(),
        f.from => format!("{} {}", s.from_name, s.from),
        f.folder => meta.folder.to_lowercase(),
        f.role => role,
        f.flags => if meta.seen { "read" } else { "unread" },
    );
    if !s.from.is_empty() {
        d.add_text(f.from_address, fold_address(&s.from));
    }
    for a in s.to.iter().chain(&s.cc) {
        d.add_text(f.to_address, fold_address(a));
    }
    for a in &s.attachments {
        d.add_text(f.attachments, &a.filename);
    }
    for (on, flag) in [
        (meta.flagged, "starred"),
        (meta.has_attachments(), "attachment"),
        (meta.hidden, "hidden"),
        (meta.draft, "draft"),
        (meta.answered, "answered"),
    ] {
        if on {
            d.add_text(f.flags, flag);
        }
    }
    if let Some(status) = &meta.status {
        d.add_text(f.status, status);
    }
    if meta.priority.as_deref() == Some("urgent") {
        d.add_text(f.status, "urgent");
    }
    for k in &meta.keywords {
        d.add_text(f.labels, k.to_lowercase());
    }
    if let Some(id) = &s.message_id {
        d.add_text(f.msgid, id);
    }
    d
}
