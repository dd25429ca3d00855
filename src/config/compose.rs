//! `[compose]`: writing mail: the undo-send delay and the bounds on attachments and uploads.

use serde::{Deserialize, Serialize};

use super::check::{Check, Checked};

#[derive(Debug, Clone, Deserialize, Serialize, PartialEq)]
#[serde(deny_unknown_fields, default)]
pub struct ComposeConfig {
    /// Seconds a sent mail waits in the outbox, during which "undo" takes it back (0 to 300).
    pub undo_send_secs: u64,
    /// Largest attachment a user may upload, in MiB (1 to 200).
    pub max_attachment_mb: u64,
    /// Attachments in one mail (1 to 100).
    pub max_attachments: u64,
    /// All the attachments of one mail together, in MiB (1 to 1000).
    pub max_mail_attachments_mb: u64,
    /// What one user's uploads waiting to be sent may take together, in MiB (1 to 100000).
    pub upload_quota_mb: u64,
    /// How many uploads one user may have waiting (1 to 10000).
    pub max_uploads: u64,
}

impl Default for ComposeConfig {
    fn default() -> Self {
        Self {
            undo_send_secs: 10,
            max_attachment_mb: 25,
            max_attachments: 20,
            max_mail_attachments_mb: 50,
            upload_quota_mb: 500,
            max_uploads: 200,
        }
    }
}

impl ComposeConfig {
    /// Each bound in the range its comment names.
    pub fn check(&self, c: &Check) -> Checked {
        c.within("undo_send_secs", self.undo_send_secs, 0..=300, " seconds")?;
        for (key, value, range) in [
            ("max_attachment_mb", self.max_attachment_mb, 1..=200),
            ("max_attachments", self.max_attachments, 1..=100),
            (
                "max_mail_attachments_mb",
                self.max_mail_attachments_mb,
                1..=1000,
            ),
            ("upload_quota_mb", self.upload_quota_mb, 1..=100_000),
            ("max_uploads", self.max_uploads, 1..=10_000),
        ] {
            c.within(key, value, range, "")?;
        }
        Ok(())
    }
}
