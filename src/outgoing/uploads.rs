//! Attachments uploaded from the compose page, kept until the mail that carries them is sent
//! (or a day, when no outbox item refers to them).

use redb::{ReadableDatabase, ReadableTable, TableDefinition, WriteTransaction};
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::error::{AppError, Result};
use crate::messages;
use crate::store::{Store, record};

/// upload id → JSON [`Upload`].
pub const UPLOADS: TableDefinition<u64, &[u8]> = TableDefinition::new("compose_uploads");
/// upload id → the file's bytes.
pub const UPLOAD_DATA: TableDefinition<u64, &[u8]> = TableDefinition::new("compose_upload_data");

/// How long an upload no outbox item refers to is kept.
pub const UNUSED_TTL_SECS: i64 = 24 * 3600;

/// What one mail and one user may attach (`[compose]`): a request naming one upload thousands
/// of times, or a user filling the disk, is refused before anything is built.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    pub per_mail: usize,
    pub mail_bytes: u64,
    pub quota_bytes: u64,
    pub uploads: usize,
}

impl From<&crate::config::ComposeConfig> for Limits {
    fn from(c: &crate::config::ComposeConfig) -> Self {
        Self {
            per_mail: c.max_attachments as usize,
            mail_bytes: c.max_mail_attachments_mb * 1024 * 1024,
            quota_bytes: c.upload_quota_mb * 1024 * 1024,
            uploads: c.max_uploads as usize,
        }
    }
}

/// The attachments of a mail as named: each of the user's uploads once, in the order first
/// named, within the per-mail count and size. Reads no file contents.
pub fn checked(store: &Store, user_id: u64, ids: &[u64], limits: &Limits) -> Result<Vec<u64>> {
    let mut unique: Vec<u64> = Vec::new();
    for &id in ids {
        if !unique.contains(&id) {
            unique.push(id);
            if unique.len() > limits.per_mail {
                return Err(AppError::bad_request(messages::too_many_attachments(
                    limits.per_mail,
                )));
            }
        }
    }
    let mut total = 0u64;
    for &id in &unique {
        total += info(store, user_id, id)?.size;
    }
    if total > limits.mail_bytes {
        return Err(AppError::bad_request(messages::attachments_too_large(
            limits.mail_bytes / (1024 * 1024),
        )));
    }
    Ok(unique)
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct Upload {
    pub id: u64,
    pub user_id: u64,
    pub name: String,
    pub content_type: String,
    pub size: u64,
    pub created_at: i64,
}

/// An upload as compose shows it: `POST /api/attachments`, and an outbox mail's attachments.
#[derive(Debug, Clone, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct UploadedAttachment {
    /// The id a mail's `attachments` names.
    pub id: String,
    pub name: String,
    /// Bytes.
    pub size: u64,
    pub content_type: String,
}

impl Upload {
    pub fn view(&self) -> UploadedAttachment {
        UploadedAttachment {
            id: self.id.to_string(),
            name: self.name.clone(),
            size: self.size,
            content_type: self.content_type.clone(),
        }
    }
}

pub fn create_tables(txn: &WriteTransaction) -> Result<(), redb::Error> {
    txn.open_table(UPLOADS)?;
    txn.open_table(UPLOAD_DATA)?;
    Ok(())
}

/// Forgets a removed user's attachments (the records and their bytes).
pub fn forget_user(txn: &WriteTransaction, user: u64) -> anyhow::Result<()> {
    let mut gone = Vec::new();
    for e in txn.open_table(UPLOADS)?.iter()? {
        let (k, v) = e?;
        if record::decode::<Upload>(v.value()).is_ok_and(|u| u.user_id == user) {
            gone.push(k.value());
        }
    }
    let mut uploads = txn.open_table(UPLOADS)?;
    let mut data = txn.open_table(UPLOAD_DATA)?;
    for id in gone {
        uploads.remove(id)?;
        data.remove(id)?;
    }
    Ok(())
}

pub fn save(
    store: &Store,
    user_id: u64,
    name: &str,
    content_type: &str,
    data: &[u8],
    limits: &Limits,
) -> Result<Upload> {
    let name = crate::mail::parse::sanitize_filename(name);
    let name = if name.trim().is_empty() {
        "attachment".to_string()
    } else {
        name
    };
    let content_type = content_type
        .split(';')
        .next()
        .unwrap_or_default()
        .trim()
        .to_ascii_lowercase();
    let content_type =
        if content_type.is_empty() || content_type == "application/x-www-form-urlencoded" {
            mime_guess::from_path(&name)
                .first_or_octet_stream()
                .to_string()
        } else {
            content_type
        };
    let txn = store.begin_write()?;
    // The user's quota, counted in the same transaction as the insert.
    let (mut count, mut bytes) = (0usize, data.len() as u64);
    for e in txn.open_table(UPLOADS)?.iter()? {
        let (_, v) = e?;
        if let Ok(u) = record::decode::<Upload>(v.value())
            && u.user_id == user_id
        {
            count += 1;
            bytes += u.size;
        }
    }
    if count >= limits.uploads || bytes > limits.quota_bytes {
        return Err(AppError::TooLarge(messages::upload_quota(
            limits.quota_bytes / (1024 * 1024),
            limits.uploads,
        )));
    }
    let id = crate::store::next_id(&txn, "compose_uploads")?;
    let upload = Upload {
        id,
        user_id,
        name,
        content_type,
        size: data.len() as u64,
        created_at: super::now(),
    };
    txn.open_table(UPLOADS)?
        .insert(id, record::encode(&upload).as_slice())?;
    txn.open_table(UPLOAD_DATA)?.insert(id, data)?;
    txn.commit()?;
    Ok(upload)
}

/// One of the user's uploads (another user's is "not found").
pub fn info(store: &Store, user_id: u64, id: u64) -> Result<Upload> {
    let txn = store.db().begin_read()?;
    let t = txn.open_table(UPLOADS)?;
    let found: Option<Upload> = match t.get(id)? {
        Some(v) => Some(record::decode(v.value())?),
        None => None,
    };
    found
        .filter(|u| u.user_id == user_id)
        .ok_or_else(|| AppError::NotFound(messages::UPLOAD_NOT_FOUND.into()))
}

/// The attachments of a mail, bytes included, in order.
pub fn load(store: &Store, user_id: u64, ids: &[u64]) -> Result<Vec<(Upload, Vec<u8>)>> {
    let txn = store.db().begin_read()?;
    let meta = txn.open_table(UPLOADS)?;
    let data = txn.open_table(UPLOAD_DATA)?;
    let mut out = Vec::new();
    for &id in ids {
        let upload: Upload = match meta.get(id)? {
            Some(v) => record::decode(v.value())?,
            None => return Err(AppError::bad_request(messages::UPLOAD_NOT_FOUND)),
        };
        if upload.user_id != user_id {
            return Err(AppError::bad_request(messages::UPLOAD_NOT_FOUND));
        }
        let bytes = data
            .get(id)?
            .map(|v| v.value().to_vec())
            .unwrap_or_default();
        out.push((upload, bytes));
    }
    Ok(out)
}

/// The user's uploads among `ids`, as compose shows them (one gone since is left out).
pub fn describe(store: &Store, user_id: u64, ids: &[u64]) -> Vec<UploadedAttachment> {
    ids.iter()
        .filter_map(|&id| info(store, user_id, id).ok())
        .map(|u| u.view())
        .collect()
}

pub fn remove_in(txn: &WriteTransaction, ids: &[u64]) -> Result<()> {
    let mut meta = txn.open_table(UPLOADS)?;
    let mut data = txn.open_table(UPLOAD_DATA)?;
    for &id in ids {
        meta.remove(id)?;
        data.remove(id)?;
    }
    Ok(())
}

/// Removes an upload of the user's unless a queued mail still carries it.
pub fn remove(store: &Store, user_id: u64, id: u64) -> Result<()> {
    info(store, user_id, id)?;
    let txn = store.begin_write()?;
    if !super::outbox::referenced(&txn)?.contains(&id) {
        remove_in(&txn, &[id])?;
    }
    txn.commit()?;
    Ok(())
}

/// Forgets uploads older than a day that no outbox item refers to. Returns how many went.
pub fn sweep(store: &Store, now: i64) -> Result<usize> {
    let txn = store.begin_write()?;
    let used = super::outbox::referenced(&txn)?;
    let mut stale = Vec::new();
    for e in txn.open_table(UPLOADS)?.iter()? {
        let (k, v) = e?;
        let u: Upload = record::decode(v.value())?;
        if now - u.created_at > UNUSED_TTL_SECS && !used.contains(&k.value()) {
            stale.push(k.value());
        }
    }
    remove_in(&txn, &stale)?;
    txn.commit()?;
    Ok(stale.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    const LIMITS: Limits = Limits {
        per_mail: 3,
        mail_bytes: 100,
        quota_bytes: 250,
        uploads: 4,
    };

    #[test]
    fn a_mail_names_each_upload_once_within_its_limits() {
        let (_d, store) = crate::schema::temp_store();
        let a = save(&store, 1, "a.txt", "text/plain", &[b'a'; 40], &LIMITS)
            .unwrap()
            .id;
        let b = save(&store, 1, "b.txt", "text/plain", &[b'b'; 40], &LIMITS)
            .unwrap()
            .id;
        let c = save(&store, 1, "c.txt", "text/plain", &[b'c'; 40], &LIMITS)
            .unwrap()
            .id;
        // The same upload named thousands of times is one attachment.
        let many = vec![a; 5000];
        assert_eq!(checked(&store, 1, &many, &LIMITS).unwrap(), vec![a]);
        assert_eq!(checked(&store, 1, &[b, a, b], &LIMITS).unwrap(), vec![b, a]);
        // 120 bytes together: over the mail's 100.
        let err = checked(&store, 1, &[a, b, c], &LIMITS).unwrap_err();
        assert_eq!(err.user_message(), messages::attachments_too_large(0));
        // Four distinct ids: over the count, refused before any is read.
        let err = checked(&store, 1, &[a, b, c, 999], &LIMITS).unwrap_err();
        assert_eq!(err.user_message(), messages::too_many_attachments(3));
        // Another user's upload is not found.
        assert!(checked(&store, 2, &[a], &LIMITS).is_err());
    }

    #[test]
    fn a_user_has_a_quota_of_uploads() {
        let (_d, store) = crate::schema::temp_store();
        for _ in 0..2 {
            save(&store, 1, "x", "text/plain", &[0; 100], &LIMITS).unwrap();
        }
        // 300 bytes would pass the 250 quota.
        let err = save(&store, 1, "x", "text/plain", &[0; 100], &LIMITS).unwrap_err();
        assert_eq!(err.user_message(), messages::upload_quota(0, 4));
        save(&store, 1, "x", "text/plain", &[0; 10], &LIMITS).unwrap();
        save(&store, 1, "x", "text/plain", &[0; 10], &LIMITS).unwrap();
        // The fifth upload is over the count.
        assert!(save(&store, 1, "x", "text/plain", &[0; 1], &LIMITS).is_err());
        // Another user has their own quota.
        save(&store, 2, "x", "text/plain", &[0; 100], &LIMITS).unwrap();
    }
}
