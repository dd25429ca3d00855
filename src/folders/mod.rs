//! The user's own folders (issue 38): the mailbox's folders as a tree of plain names, and
//! making, renaming, moving and deleting them on the IMAP server, and moving mail into them.
//!
//! - `path`: names checked and bounded, the server path of a new or moved folder (modified
//!   UTF-7, the account's delimiter and `INBOX.` prefix).
//! - `tree`: `GET /api/folders/tree`, every folder of every mailbox of the user with its plain
//!   name, parent, role and counts (the counts are `emails::folders`, the sidebar's own).
//! - `server`: the IMAP commands, on a short session beside the sync task (as the outbox writes
//!   Sent and Drafts), then the mail store follows at once (`MailWrite::add_folder`,
//!   `rename_folder`, `forget_folder`) and the sync is woken. A rename is followed by the
//!   rules that name the folder, in the same transaction (the `FolderFollower` seam).
//! - `routes`: the HTTP side; mail is moved with the rules' move (`emails::triage`), queued
//!   and pushed by the sync like every move.
//!
//! The special folders (INBOX and every folder with a role) are never renamed, moved or
//! deleted. A change is told to the user's sessions as `folders_changed`; counts follow the
//! mail's own `mail_changed` and `stats`. Nothing is kept here: the folders are the mailbox's.

pub mod path;
pub mod routes;
mod server;
pub mod tree;

use crate::feature::{Feature, need};

/// The user's own folders: routes only (the folders live in the mailbox and the mail store).
pub static FEATURE: Feature = Feature {
    routes: Some(routes::router),
    wire_types,
    needs: &[
        need::<crate::sync::SyncManager>,
        need::<crate::notices::Notices>,
    ],
    ..Feature::named("folders")
};

// This feature's part of the wire contract (see `crate::wire`).
crate::wire_types!(
    tree::FolderNode,
    tree::MailboxFolders,
    tree::FolderTree,
    routes::CreateFolder,
    routes::RenameFolder,
    routes::DeleteFolder,
    routes::FolderDeleted,
    routes::MoveMail,
    routes::MailMoved,
);
