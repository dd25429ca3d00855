//! App users: the people who sign in to mailclient (not their mailboxes). Usernames are unique
//! without regard to case; passwords are kept only as argon2id hashes.

use redb::{ReadableDatabase, ReadableTable, ReadableTableMetadata, TableDefinition};
use serde::{Deserialize, Serialize};
use time::OffsetDateTime;

use super::{password, sessions};
use crate::error::{AppError, Result};
use crate::forget::Forget;
use crate::messages;
use crate::store::{Store, next_id, record};

/// id → JSON [`UserRecord`].
pub const USERS: TableDefinition<u64, &[u8]> = TableDefinition::new("users");
/// lower-cased username → id.
pub const USERS_BY_NAME: TableDefinition<&str, u64> = TableDefinition::new("users_by_name");

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ts_rs::TS)]
#[serde(rename_all = "lowercase")]
pub enum Role {
    Admin,
    User,
}

impl std::fmt::Display for Role {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Role::Admin => "admin",
            Role::User => "user",
        })
    }
}

/// What the store keeps. Never serialized to a client (it holds the hash): see [`User`].
#[derive(Clone, Serialize, Deserialize)]
pub struct UserRecord {
    pub id: u64,
    pub username: String,
    pub name: String,
    pub role: Role,
    pub password_hash: String,
    /// Unix seconds.
    pub created_at: i64,
    #[serde(default)]
    pub updated_at: i64,
}

/// Everything but the password hash, which never reaches a log.
impl std::fmt::Debug for UserRecord {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("UserRecord")
            .field("id", &self.id)
            .field("username", &self.username)
            .field("role", &self.role)
            .field("password_hash", &"<redacted>")
            .finish_non_exhaustive()
    }
}

impl UserRecord {
    /// The name to show (the username when no name was given).
    pub fn display_name(&self) -> &str {
        let name = self.name.trim();
        if name.is_empty() {
            &self.username
        } else {
            name
        }
    }
}

/// The user as the API shows it.
#[derive(Debug, Clone, Serialize, PartialEq, ts_rs::TS)]
#[serde(rename_all = "camelCase")]
pub struct User {
    pub id: u64,
    pub username: String,
    pub name: String,
    pub role: Role,
    /// RFC 3339, UTC.
    pub created_at: String,
}

impl From<&UserRecord> for User {
    fn from(r: &UserRecord) -> Self {
        let created = OffsetDateTime::from_unix_timestamp(r.created_at)
            .unwrap_or(OffsetDateTime::UNIX_EPOCH)
            .format(&time::format_description::well_known::Rfc3339)
            .unwrap_or_default();
        Self {
            id: r.id,
            username: r.username.clone(),
            name: r.name.clone(),
            role: r.role,
            created_at: created,
        }
    }
}

pub struct NewUser<'a> {
    pub username: &'a str,
    pub name: &'a str,
    pub password: &'a str,
    pub role: Role,
}

/// Checks a username: 1 to 64 of ASCII letters, digits and `. _ - @`.
pub fn check_username(username: &str) -> std::result::Result<(), &'static str> {
    let ok_char = |c: char| c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-' | '@');
    if username.is_empty() || username.len() > 64 || !username.chars().all(ok_char) {
        return Err(messages::USERNAME_INVALID);
    }
    Ok(())
}

fn name_key(username: &str) -> String {
    username.to_ascii_lowercase()
}

/// Creates a user. With `only_if_none_exist`, fails with `Conflict` when any user already
/// exists (the first-run setup), checked inside the same write transaction.
pub fn create(store: &Store, new: NewUser<'_>, only_if_none_exist: bool) -> Result<User> {
    let username = new.username.trim();
    check_username(username).map_err(AppError::bad_request)?;
    password::check_new(new.password).map_err(AppError::bad_request)?;
    let name = match new.name.trim() {
        "" => username,
        n => n,
    };
    if name.chars().count() > 100 {
        return Err(AppError::bad_request(messages::NAME_TOO_LONG));
    }
    if find_by_username(store, username)?.is_some() {
        return Err(AppError::Conflict(messages::USERNAME_TAKEN.into()));
    }
    // Hash outside the write transaction: it is the slow part.
    let password_hash = password::hash(new.password)?;

    let txn = store.begin_write()?;
    let record = {
        let mut users = txn.open_table(USERS)?;
        if only_if_none_exist && !users.is_empty()? {
            return Err(AppError::Conflict(messages::SETUP_ALREADY_DONE.into()));
        }
        let mut by_name = txn.open_table(USERS_BY_NAME)?;
        let key = name_key(username);
        if by_name.get(key.as_str())?.is_some() {
            return Err(AppError::Conflict(messages::USERNAME_TAKEN.into()));
        }
        let now = crate::kit::now();
        let record = UserRecord {
            id: next_id(&txn, "users")?,
            username: username.to_string(),
            name: name.to_string(),
            role: new.role,
            password_hash,
            created_at: now,
            updated_at: now,
        };
        users.insert(record.id, record::encode(&record).as_slice())?;
        by_name.insert(key.as_str(), record.id)?;
        record
    };
    txn.commit()?;
    Ok(User::from(&record))
}

pub fn get(store: &Store, id: u64) -> Result<Option<UserRecord>> {
    let txn = store.db().begin_read()?;
    let users = txn.open_table(USERS)?;
    match users.get(id)? {
        Some(v) => Ok(Some(record::decode(v.value())?)),
        None => Ok(None),
    }
}

/// Whether user `id` exists, inside the caller's write (what must not outlive a removal
/// checks here: a mailbox saved for a user being removed).
pub fn exists_in(txn: &redb::WriteTransaction, id: u64) -> Result<bool> {
    Ok(txn.open_table(USERS)?.get(id)?.is_some())
}

pub fn find_by_username(store: &Store, username: &str) -> Result<Option<UserRecord>> {
    let txn = store.db().begin_read()?;
    let by_name = txn.open_table(USERS_BY_NAME)?;
    let id = match by_name.get(name_key(username.trim()).as_str())? {
        Some(id) => id.value(),
        None => return Ok(None),
    };
    let users = txn.open_table(USERS)?;
    match users.get(id)? {
        Some(v) => Ok(Some(record::decode(v.value())?)),
        None => Ok(None),
    }
}

pub fn list(store: &Store) -> Result<Vec<UserRecord>> {
    let txn = store.db().begin_read()?;
    let users = txn.open_table(USERS)?;
    let mut out = Vec::new();
    for entry in users.iter()? {
        let (_, v) = entry?;
        out.push(record::decode(v.value())?);
    }
    Ok(out)
}

pub fn any_exist(store: &Store) -> Result<bool> {
    let txn = store.db().begin_read()?;
    let users = txn.open_table(USERS)?;
    Ok(!users.is_empty()?)
}

/// Sets a new password and signs the user out everywhere.
pub fn set_password(store: &Store, username: &str, new_password: &str) -> Result<()> {
    let record = find_by_username(store, username)?
        .ok_or_else(|| AppError::NotFound(format!("no user named {username}")))?;
    set_password_of(store, record, new_password, None)
}

/// Sets a new password for `record` and ends its sessions, except the one of `keep_token`
/// (the session the user changed it from).
pub fn set_password_of(
    store: &Store,
    mut record: UserRecord,
    new_password: &str,
    keep_token: Option<&str>,
) -> Result<()> {
    password::check_new(new_password).map_err(AppError::bad_request)?;
    record.password_hash = password::hash(new_password)?;
    record.updated_at = crate::kit::now();
    let txn = store.begin_write()?;
    txn.open_table(USERS)?
        .insert(record.id, record::encode(&record).as_slice())?;
    sessions::revoke_all_for_user_in(&txn, record.id, keep_token)?;
    txn.commit()?;
    Ok(())
}

/// Removes a user and everything they kept. Returns false when there was no such user.
pub fn remove(store: &Store, forget: &Forget, username: &str) -> Result<bool> {
    let Some(record) = find_by_username(store, username)? else {
        return Ok(false);
    };
    remove_record(store, forget, &record, false)?;
    Ok(true)
}

/// Changes to a user's name or role (admin screen).
#[derive(Debug, Default)]
pub struct UserChanges<'a> {
    pub name: Option<&'a str>,
    pub role: Option<Role>,
}

/// Applies `changes`, refusing to demote the last admin (checked inside the transaction).
pub fn update(store: &Store, id: u64, changes: UserChanges<'_>) -> Result<User> {
    let txn = store.begin_write()?;
    let record = {
        let mut users = txn.open_table(USERS)?;
        let mut record: UserRecord = match users.get(id)? {
            Some(v) => record::decode(v.value())?,
            None => return Err(AppError::NotFound(messages::USER_NOT_FOUND.into())),
        };
        if let Some(name) = changes.name {
            let name = name.trim();
            if name.chars().count() > 100 {
                return Err(AppError::bad_request(messages::NAME_TOO_LONG));
            }
            record.name = if name.is_empty() {
                record.username.clone()
            } else {
                name.to_string()
            };
        }
        if let Some(role) = changes.role {
            if record.role == Role::Admin && role != Role::Admin && admin_count(&users)? <= 1 {
                return Err(AppError::bad_request(messages::LAST_ADMIN));
            }
            record.role = role;
        }
        record.updated_at = crate::kit::now();
        users.insert(record.id, record::encode(&record).as_slice())?;
        record
    };
    txn.commit()?;
    Ok(User::from(&record))
}

fn admin_count(users: &impl ReadableTable<u64, &'static [u8]>) -> Result<usize> {
    let mut n = 0;
    for entry in users.iter()? {
        let (_, v) = entry?;
        if record::decode::<UserRecord>(v.value())?.role == Role::Admin {
            n += 1;
        }
    }
    Ok(n)
}

/// Removes `record` and, through every feature's forget step, all they kept: mailboxes and
/// their mail, sessions, queued and scheduled mail, uploads, templates, settings. With
/// `keep_an_admin`, refuses to remove the last admin (the web screen); the CLI may, since
/// `user add --admin` is its way back.
pub fn remove_record(
    store: &Store,
    forget: &Forget,
    record: &UserRecord,
    keep_an_admin: bool,
) -> Result<()> {
    if keep_an_admin && record.role == Role::Admin {
        // Checked before anything stops, and again in the transaction.
        let txn = store.db().begin_read()?;
        if admin_count(&txn.open_table(USERS)?)? <= 1 {
            return Err(AppError::bad_request(messages::LAST_ADMIN));
        }
    }
    forget.user(store, record.id, |txn| {
        let mut users = txn.open_table(USERS)?;
        if keep_an_admin && record.role == Role::Admin && admin_count(&users)? <= 1 {
            return Err(AppError::bad_request(messages::LAST_ADMIN));
        }
        users.remove(record.id)?;
        txn.open_table(USERS_BY_NAME)?
            .remove(name_key(&record.username).as_str())?;
        Ok(())
    })
}

/// Schema 1.
pub fn create_tables(txn: &redb::WriteTransaction) -> Result<(), redb::Error> {
    txn.open_table(USERS)?;
    txn.open_table(USERS_BY_NAME)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn secrets_never_reach_a_debug_print() {
        let (_d, store) = crate::schema::temp_store();
        let u = create(&store, new("dana", Role::Admin), false).unwrap();
        let record = get(&store, u.id).unwrap().unwrap();
        let printed = format!("{record:?}");
        assert!(
            printed.contains("dana") && printed.contains("<redacted>"),
            "{printed}"
        );
        assert!(!printed.contains(&record.password_hash), "{printed}");
    }

    fn new<'a>(username: &'a str, role: Role) -> NewUser<'a> {
        NewUser {
            username,
            name: "דנה כהן",
            password: "correct horse",
            role,
        }
    }

    #[test]
    fn create_find_list_remove() {
        let (_d, s) = crate::schema::temp_store();
        assert!(!any_exist(&s).unwrap());
        let u = create(&s, new("Dana", Role::Admin), true).unwrap();
        assert_eq!(u.id, 1);
        assert_eq!(u.name, "דנה כהן");
        assert!(any_exist(&s).unwrap());
        // Case-insensitive lookup, original spelling kept.
        let r = find_by_username(&s, "dana").unwrap().unwrap();
        assert_eq!(r.username, "Dana");
        assert!(r.password_hash.starts_with("$argon2id$"));
        assert!(!r.password_hash.contains("correct horse"));
        create(&s, new("yossi", Role::User), false).unwrap();
        assert_eq!(list(&s).unwrap().len(), 2);
        assert!(remove(&s, &crate::app::offline_forget(), "YOSSI").unwrap());
        assert!(!remove(&s, &crate::app::offline_forget(), "yossi").unwrap());
        assert_eq!(list(&s).unwrap().len(), 1);
    }

    #[test]
    fn duplicate_username_conflicts_in_any_case() {
        let (_d, s) = crate::schema::temp_store();
        create(&s, new("dana", Role::User), false).unwrap();
        let err = create(&s, new("DANA", Role::User), false).unwrap_err();
        assert!(matches!(err, AppError::Conflict(_)));
    }

    #[test]
    fn first_admin_only_once() {
        let (_d, s) = crate::schema::temp_store();
        create(&s, new("dana", Role::Admin), true).unwrap();
        let err = create(&s, new("other", Role::Admin), true).unwrap_err();
        assert!(matches!(err, AppError::Conflict(m) if m == messages::SETUP_ALREADY_DONE));
    }

    #[test]
    fn validation() {
        let (_d, s) = crate::schema::temp_store();
        for bad in ["", "has space", "שלום", &"a".repeat(65)] {
            assert!(
                matches!(
                    create(&s, new(bad, Role::User), false),
                    Err(AppError::BadRequest(_))
                ),
                "{bad:?} accepted"
            );
        }
        let short = NewUser {
            password: "short",
            ..new("dana", Role::User)
        };
        assert!(
            matches!(create(&s, short, false), Err(AppError::BadRequest(m)) if m == messages::PASSWORD_TOO_SHORT)
        );
        // An empty display name falls back to the username.
        let unnamed = NewUser {
            name: "  ",
            ..new("noname", Role::User)
        };
        assert_eq!(create(&s, unnamed, false).unwrap().name, "noname");
    }

    #[test]
    fn password_change_revokes_sessions() {
        let (_d, s) = crate::schema::temp_store();
        let u = create(&s, new("dana", Role::User), false).unwrap();
        let hour = sessions::Lifetime {
            ttl_secs: 3600,
            idle_secs: 3600,
        };
        let token = sessions::create(&s, u.id, hour).unwrap();
        assert!(sessions::authenticate(&s, &token, 3600).unwrap().is_some());
        set_password(&s, "dana", "a new password").unwrap();
        assert!(sessions::authenticate(&s, &token, 3600).unwrap().is_none());
        let r = find_by_username(&s, "dana").unwrap().unwrap();
        assert!(password::verify("a new password", &r.password_hash));
        assert!(!password::verify("correct horse", &r.password_hash));
    }
}
