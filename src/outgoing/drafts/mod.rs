//! Pending replies (spec 000 §2, spec 001): the drafts are the mailbox's Drafts folder. Saving
//! APPENDs a real draft (`\Draft`) linked to its original by In-Reply-To/References; editing
//! replaces it; sending queues it in the outbox and removes it from Drafts once sent. When the
//! mailbox cannot be reached the draft waits in the outbox, listed like the others.
//!
//! - `listing`: one stored draft, and the drafts page's list with the mail each one answers.
//! - `from_raw`: a draft's bytes back into a `Composed` mail to edit or send.
//! - `save`: writing drafts to the mailbox's Drafts (or the outbox): save, update.
//! - `delete`: deleting one draft or all of them (and the scheduled sends they are copies of).
//! - `send`: sending a draft through the outbox.
//! - `common`: what several of them share (outbox ids, the queued send of a draft, "Re: ").

mod common;
mod delete;
mod from_raw;
mod listing;
mod save;
mod send;

pub use common::reply_subject;
pub use delete::{delete, delete_all};
pub use from_raw::composed_from_raw;
pub use listing::{Draft, DraftOriginal, StoredDraft, list, stored};
pub use save::{
    DraftSaved, Original, SaveRequest, Saved, UpdateRequest, append_draft, local_id, save,
    store_draft, update,
};
pub use send::send;
