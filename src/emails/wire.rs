//! The bodies of the mail routes (docs/API.md "Mail", "Triage", "Inbox Zero"), as the web's
//! generated types see them.

use serde::Serialize;
use ts_rs::TS;

use super::listing::FolderInfo;
use super::view::{EmailRow, ThreadView};

/// `PUT /api/emails/{id}`: the mail as it is now.
#[derive(Debug, Serialize, TS)]
#[ts(rename = "UpdateEmailResponse")]
pub struct EmailResponse {
    pub success: bool,
    pub email: EmailRow,
}

/// `PUT /api/emails/{id}/status`: where the mail is listed now, the mail and its thread as the
/// server sees them after the change (the web shows these, it does not recompute them).
#[derive(Debug, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct SetStatusResponse {
    pub success: bool,
    /// The folder key the mail is listed under now: Archive, Spam, Promotions, Updates, inbox, …
    pub moved_to: String,
    pub email: EmailRow,
    /// The mail's thread in its folder.
    pub thread: ThreadView,
}

/// `DELETE /api/emails/{id}`: hidden from this site only.
#[derive(Debug, Serialize, TS)]
pub struct DeleteEmailResponse {
    pub success: bool,
    pub deleted: usize,
}

/// `POST /api/emails/{id}/trash`.
#[derive(Debug, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct TrashEmailResponse {
    pub success: bool,
    pub moved_to: String,
}

/// `POST /api/emails/bulk`: how many changed, where they are listed when they all went to one
/// place, and the changed mail as it is now.
#[derive(Debug, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct BulkResponse {
    pub success: bool,
    pub updated: usize,
    pub moved_to: Option<String>,
    pub emails: Vec<EmailRow>,
}

/// `POST /api/emails/auto-archive`.
#[derive(Debug, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct AutoArchiveResponse {
    pub success: bool,
    pub archived_count: usize,
}

/// `GET /api/emails/remote-senders`.
#[derive(Debug, Serialize, TS)]
pub struct RemoteSendersResponse {
    pub senders: Vec<String>,
}

/// `POST /api/emails/remote-senders`: the address as stored (trimmed, lower case).
#[derive(Debug, Serialize, TS)]
#[ts(rename = "RemoteSenderAdded")]
pub struct SenderAdded {
    pub success: bool,
    pub address: String,
}

/// `DELETE /api/emails/remote-senders/{address}`.
#[derive(Debug, Serialize, TS)]
#[ts(rename = "RemoteSenderRemoved")]
pub struct SenderRemoved {
    pub success: bool,
    pub removed: bool,
}

/// `GET /api/folders`.
#[derive(Debug, Serialize, TS)]
pub struct FoldersResponse {
    pub folders: Vec<FolderInfo>,
}
