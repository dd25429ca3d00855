//! A label (spec 000 §3 Label: id, name, color) and its checks: the name (bounded, unique per
//! user, Hebrew welcome), the colour (`#rrggbb`, from the palette or any hex), the count per
//! user; creating one picks its keyword ([`super::keyword`]), renaming keeps it.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

use super::keyword::keyword_for;
use super::schema::LABELS;
use crate::error::{AppError, Result};
use crate::messages;
use crate::store::Store;

/// Labels one user may keep.
pub const MAX_LABELS: usize = 100;
/// Characters of a label's name.
pub const MAX_NAME: usize = 40;
/// The colour of a label with no record (a keyword another client put on the mail).
pub const DEFAULT_COLOR: &str = "#5f6368";
/// The colours the label manager offers (any other `#rrggbb` is accepted too).
pub const PALETTE: [&str; 8] = [
    "#d93025",
    "#e8710a",
    "#f9ab00",
    "#188038",
    "#1a73e8",
    "#9334e6",
    "#e52592",
    DEFAULT_COLOR,
];
/// Candidate keywords tried for one name before giving up (see `keyword_for`).
const ATTEMPTS: u32 = 16;

/// A stored label.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct Label {
    pub id: u64,
    /// The IMAP keyword on the mail; never changes.
    pub keyword: String,
    pub name: String,
    /// `#rrggbb`, lower case.
    pub color: String,
}

/// A label as the API shows it.
#[derive(Debug, Clone, Serialize, TS)]
#[ts(rename = "Label")]
pub struct LabelView {
    pub id: String,
    /// The IMAP keyword the mail carries (what an Email's `labels` lists).
    pub keyword: String,
    pub name: String,
    /// `#rrggbb`.
    pub color: String,
}

impl From<&Label> for LabelView {
    fn from(l: &Label) -> Self {
        Self {
            id: l.id.to_string(),
            keyword: l.keyword.clone(),
            name: l.name.clone(),
            color: l.color.clone(),
        }
    }
}

/// A label's name, trimmed and checked.
pub fn checked_name(name: &str) -> Result<String> {
    let name = name.trim();
    if name.is_empty() {
        return Err(AppError::bad_request(messages::LABEL_NAME_REQUIRED));
    }
    if name.chars().count() > MAX_NAME {
        return Err(AppError::bad_request(messages::label_name_too_long(
            MAX_NAME,
        )));
    }
    if name.chars().any(char::is_control) {
        return Err(AppError::bad_request(messages::LABEL_NAME_INVALID));
    }
    Ok(name.to_string())
}

/// A colour, `#rrggbb` in lower case; none given: the default.
pub fn checked_color(color: Option<&str>) -> Result<String> {
    let Some(c) = color.map(str::trim).filter(|c| !c.is_empty()) else {
        return Ok(DEFAULT_COLOR.to_string());
    };
    let hex = c.strip_prefix('#').unwrap_or("");
    if hex.len() != 6 || !hex.chars().all(|ch| ch.is_ascii_hexdigit()) {
        return Err(AppError::bad_request(messages::LABEL_COLOR_INVALID));
    }
    Ok(format!("#{}", hex.to_ascii_lowercase()))
}

/// Whether another label of `all` (not `except`) has `name`, case aside.
pub fn name_taken(all: &[Label], name: &str, except: Option<u64>) -> bool {
    let lower = name.to_lowercase();
    all.iter()
        .any(|l| Some(l.id) != except && l.name.to_lowercase() == lower)
}

/// The user's labels, by name.
pub fn list(store: &Store, user_id: u64) -> Result<Vec<Label>> {
    let mut all: Vec<Label> = LABELS.list(store, user_id)?;
    all.sort_by(|a, b| a.name.cmp(&b.name).then(a.id.cmp(&b.id)));
    Ok(all)
}

/// A new label: its name and colour checked, its keyword the first candidate no other label of
/// the user holds.
pub fn create(store: &Store, user_id: u64, name: &str, color: Option<&str>) -> Result<Label> {
    create_keeping(store, user_id, name, color, None)
}

/// [`create`], trying `keyword` first when it is one a label may carry (a restored label keeps
/// the keyword its mail has, though it was renamed since).
pub fn create_keeping(
    store: &Store,
    user_id: u64,
    name: &str,
    color: Option<&str>,
    keyword: Option<&str>,
) -> Result<Label> {
    let name = checked_name(name)?;
    let color = checked_color(color)?;
    let txn = store.begin_write()?;
    let all: Vec<Label> = LABELS.list_in(&txn, user_id)?;
    if name_taken(&all, &name, None) {
        return Err(AppError::bad_request(messages::LABEL_NAME_TAKEN));
    }
    let first = keyword.filter(|k| super::keyword::may_carry(k));
    let label = insert_in(&txn, user_id, &all, first, name, color)?;
    txn.commit()?;
    Ok(label)
}

fn insert_in(
    txn: &redb::WriteTransaction,
    user_id: u64,
    all: &[Label],
    first: Option<&str>,
    name: String,
    color: String,
) -> Result<Label> {
    let keyword = first
        .map(str::to_string)
        .into_iter()
        .chain((0..ATTEMPTS).map(|n| keyword_for(&name, n)))
        .find(|k| !all.iter().any(|l| l.keyword.eq_ignore_ascii_case(k)))
        .ok_or_else(|| AppError::bad_request(messages::LABEL_NAME_TAKEN))?;
    let id = LABELS.new_id_in(txn, user_id, MAX_LABELS, &messages::labels_full(MAX_LABELS))?;
    let label = Label {
        id,
        keyword,
        name,
        color,
    };
    LABELS.put_in(txn, user_id, id, &label)?;
    Ok(label)
}

/// Renames or recolours a label (its keyword stays: the mail keeps it).
pub fn update(
    store: &Store,
    user_id: u64,
    id: u64,
    name: Option<&str>,
    color: Option<&str>,
) -> Result<Label> {
    let name = name.map(checked_name).transpose()?;
    let color = color.map(|c| checked_color(Some(c))).transpose()?;
    let txn = store.begin_write()?;
    let all: Vec<Label> = LABELS.list_in(&txn, user_id)?;
    let mut label = all
        .iter()
        .find(|l| l.id == id)
        .cloned()
        .ok_or_else(not_found)?;
    if let Some(name) = name {
        if name_taken(&all, &name, Some(id)) {
            return Err(AppError::bad_request(messages::LABEL_NAME_TAKEN));
        }
        label.name = name;
    }
    if let Some(color) = color {
        label.color = color;
    }
    LABELS.put_in(&txn, user_id, id, &label)?;
    txn.commit()?;
    Ok(label)
}

pub fn not_found() -> AppError {
    AppError::NotFound(messages::LABEL_NOT_FOUND.into())
}

/// The keyword a rule's "add label" puts on the mail for `value`: the label of that name, or of
/// that keyword (a rule saved before, a keyword already on mail), or a new label of that name
/// in the default colour (so a rule can name a label the manager has not made yet).
pub fn keyword_of(store: &Store, user_id: u64, value: &str) -> Result<String> {
    let name = checked_name(value)?;
    let lower = name.to_lowercase();
    let txn = store.begin_write()?;
    let all: Vec<Label> = LABELS.list_in(&txn, user_id)?;
    let found = all
        .iter()
        .find(|l| l.name.to_lowercase() == lower)
        .or_else(|| all.iter().find(|l| l.keyword.eq_ignore_ascii_case(&name)));
    if let Some(l) = found {
        return Ok(l.keyword.clone());
    }
    // A keyword another client (or an older rule) put on the mail keeps being that keyword.
    if crate::mailstore::keywords::is_label(&name) && name.starts_with('$') {
        return Ok(name);
    }
    let label = insert_in(&txn, user_id, &all, None, name, DEFAULT_COLOR.to_string())?;
    txn.commit()?;
    Ok(label.keyword)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn colours_are_hex_and_names_are_bounded() {
        assert_eq!(checked_color(None).unwrap(), DEFAULT_COLOR);
        assert_eq!(checked_color(Some("#1A73E8")).unwrap(), "#1a73e8");
        for bad in ["red", "#12345", "#1234567", "1a73e8", "#gggggg", "#12 456"] {
            assert!(checked_color(Some(bad)).is_err(), "{bad}");
        }
        assert_eq!(checked_name("  עבודה ").unwrap(), "עבודה");
        assert!(checked_name(" ").is_err());
        assert!(checked_name(&"א".repeat(MAX_NAME + 1)).is_err());
        assert!(checked_name(&"א".repeat(MAX_NAME)).is_ok());
        assert!(checked_name("a\nb").is_err());
        for c in PALETTE {
            assert_eq!(checked_color(Some(c)).unwrap(), c);
        }
    }
}
