//! Folder names the user types, checked and bounded, and the server path they become: each
//! level in modified UTF-7, joined by the account's delimiter, under its `INBOX.` prefix when
//! the server keeps the user's folders there.

use crate::error::{AppError, Result};
use crate::mail::{folder_path, mutf7};
use crate::mailstore::FolderState;
use crate::messages;

/// The longest folder name (one level), in characters.
pub const MAX_NAME: usize = 80;
/// The deepest a folder may be nested.
pub const MAX_DEPTH: usize = 6;
/// The most folders one mailbox may hold for a create to be accepted.
pub const MAX_FOLDERS: usize = 500;

/// The account's folders and how its server names them.
pub struct Layout {
    pub folders: Vec<FolderState>,
    pub delimiter: String,
    pub prefix: String,
}

impl Layout {
    /// The layout of an account's stored folders (INBOX's delimiter, else the first one's).
    pub fn of(folders: Vec<FolderState>) -> Self {
        let delimiter = folders
            .iter()
            .filter(|f| !f.delimiter.is_empty())
            .min_by_key(|f| !f.name.eq_ignore_ascii_case("INBOX"))
            .map(|f| f.delimiter.clone())
            .unwrap_or_else(|| "/".into());
        let prefix = folder_path::personal_prefix(
            folders
                .iter()
                .map(|f| (f.name.as_str(), f.delimiter.as_str())),
        );
        Self {
            folders,
            delimiter,
            prefix,
        }
    }

    pub fn get(&self, path: &str) -> Option<&FolderState> {
        self.folders.iter().find(|f| f.name == path)
    }

    /// A folder the user may change: one of theirs, not INBOX nor a special folder.
    pub fn own(&self, path: &str) -> Result<&FolderState> {
        let f = self
            .get(path)
            .ok_or_else(|| AppError::NotFound(messages::FOLDER_NOT_FOUND.into()))?;
        if is_special(f) {
            return Err(AppError::BadRequest(messages::FOLDER_SPECIAL.into()));
        }
        Ok(f)
    }

    /// The folders under `path` (not itself), deepest first.
    pub fn below(&self, path: &str) -> Vec<&FolderState> {
        let head = format!("{path}{}", self.delimiter);
        let mut out: Vec<&FolderState> = self
            .folders
            .iter()
            .filter(|f| f.name.starts_with(&head))
            .collect();
        out.sort_by_key(|f| std::cmp::Reverse(f.name.len()));
        out
    }

    /// The server path of a folder named `name` under `parent` (a user's folder, or the top).
    pub fn child_path(&self, parent: Option<&str>, name: &str) -> Result<String> {
        let name = checked_name(name, &self.delimiter)?;
        let path = match parent {
            Some(p) => {
                self.own(p)?;
                format!("{p}{}{}", self.delimiter, mutf7::encode(&name))
            }
            None => format!("{}{}", self.prefix, mutf7::encode(&name)),
        };
        let depth = folder_path::levels(&path, &self.delimiter, &self.prefix).len();
        if depth > MAX_DEPTH {
            return Err(AppError::BadRequest(messages::folder_too_deep(MAX_DEPTH)));
        }
        if path.eq_ignore_ascii_case("INBOX")
            || self
                .folders
                .iter()
                .any(|f| f.name.eq_ignore_ascii_case(&path))
        {
            return Err(AppError::Conflict(messages::FOLDER_NAME_TAKEN.into()));
        }
        Ok(path)
    }

    /// The plain name of a server path (for the store's display name).
    pub fn plain(&self, path: &str) -> String {
        folder_path::plain(path, &self.delimiter, &self.prefix)
    }
}

/// INBOX or a folder with a role (sent, drafts, trash, junk, archive, snoozed).
pub fn is_special(f: &FolderState) -> bool {
    !f.role.is_empty() || f.name.eq_ignore_ascii_case("INBOX")
}

/// The name trimmed, or a Hebrew reason it cannot be a folder's: empty, too long, control
/// characters, LIST's wildcards, the delimiter.
pub fn checked_name(name: &str, delimiter: &str) -> Result<String> {
    let name = name.trim();
    if name.is_empty() {
        return Err(AppError::BadRequest(messages::FOLDER_NAME_REQUIRED.into()));
    }
    if name.chars().count() > MAX_NAME {
        return Err(AppError::BadRequest(messages::folder_name_too_long(
            MAX_NAME,
        )));
    }
    let bad =
        |c: char| c.is_control() || matches!(c, '*' | '%' | '"' | '\\') || delimiter.contains(c);
    if name.chars().any(bad) || name == "." || name == ".." {
        return Err(AppError::BadRequest(messages::FOLDER_NAME_INVALID.into()));
    }
    Ok(name.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn folder(name: &str, role: &str, delimiter: &str) -> FolderState {
        FolderState {
            name: name.into(),
            role: role.into(),
            delimiter: delimiter.into(),
            ..FolderState::default()
        }
    }

    #[test]
    fn courier_paths_take_the_prefix_and_encode_hebrew() {
        let l = Layout::of(vec![
            folder("INBOX", "inbox", "."),
            folder("INBOX.Sent", "sent", "."),
            folder("INBOX.x", "", "."),
        ]);
        assert_eq!(
            l.child_path(None, " חשבוניות ").unwrap(),
            format!("INBOX.{}", mutf7::encode("חשבוניות"))
        );
        assert_eq!(l.child_path(Some("INBOX.x"), "y").unwrap(), "INBOX.x.y");
        assert!(l.child_path(Some("INBOX.Sent"), "y").is_err());
        assert!(l.child_path(None, "a.b").is_err());
        assert!(l.child_path(None, "x").is_err());
        assert!(l.child_path(None, "").is_err());
        assert!(l.child_path(None, &"א".repeat(MAX_NAME + 1)).is_err());
    }

    #[test]
    fn depth_is_bounded() {
        let mut path = "a".to_string();
        let mut folders = vec![folder("INBOX", "inbox", "/"), folder("a", "", "/")];
        for _ in 1..MAX_DEPTH {
            path = format!("{path}/a");
            folders.push(folder(&path, "", "/"));
        }
        let l = Layout::of(folders);
        assert!(l.child_path(Some(&path), "b").is_err());
        assert_eq!(
            l.below("a").first().map(|f| f.name.as_str()),
            Some(path.as_str())
        );
    }
}
