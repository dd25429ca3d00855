//! A contact (spec 001 §3 Contact): name and email required (no format check, spec §5), every
//! field bounded.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::error::{AppError, Result};
use crate::messages;

pub const MAX_CONTACTS: usize = 20_000;
const MAX_SHORT: usize = 300;
const MAX_NOTES: usize = 10_000;
const MAX_GROUPS: usize = 30;
const MAX_GROUP: usize = 60;

/// What a client sends to create or change a contact (missing fields are empty).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, TS)]
#[serde(default, rename_all = "camelCase")]
#[ts(rename = "ContactInput", optional_fields)]
pub struct ContactInput {
    pub name: String,
    pub email: String,
    pub phone: String,
    pub company: String,
    pub position: String,
    pub groups: Vec<String>,
    pub notes: String,
}

impl ContactInput {
    /// Trimmed, groups de-duplicated; a 400 for a missing name or email or a value too long.
    pub fn checked(mut self) -> Result<Self> {
        for v in [
            &mut self.name,
            &mut self.email,
            &mut self.phone,
            &mut self.company,
            &mut self.position,
        ] {
            *v = v.trim().to_string();
            if v.chars().count() > MAX_SHORT {
                return Err(AppError::bad_request(messages::CONTACT_TOO_LONG));
            }
        }
        self.notes = self.notes.trim().to_string();
        if self.notes.chars().count() > MAX_NOTES {
            return Err(AppError::bad_request(messages::CONTACT_TOO_LONG));
        }
        if self.name.is_empty() || self.email.is_empty() {
            return Err(AppError::bad_request(messages::CONTACT_REQUIRED));
        }
        let mut groups: Vec<String> = Vec::new();
        for g in self
            .groups
            .iter()
            .map(|g| g.trim())
            .filter(|g| !g.is_empty())
        {
            if g.chars().count() > MAX_GROUP {
                return Err(AppError::bad_request(messages::CONTACT_TOO_LONG));
            }
            if !groups.iter().any(|x| x == g) {
                groups.push(g.to_string());
            }
        }
        if groups.len() > MAX_GROUPS {
            return Err(AppError::bad_request(messages::CONTACT_TOO_LONG));
        }
        self.groups = groups;
        Ok(self)
    }
}

/// A stored contact.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Stored {
    pub id: u64,
    #[serde(flatten)]
    pub fields: ContactInput,
    /// RFC 3339.
    pub created_date: String,
    pub updated_date: String,
}

/// A contact as the API shows it (the spec's entities name their fields in snake case).
#[derive(Debug, Clone, Serialize, TS)]
pub struct Contact {
    pub id: String,
    pub name: String,
    pub email: String,
    pub phone: String,
    pub company: String,
    pub position: String,
    pub groups: Vec<String>,
    pub notes: String,
    /// RFC 3339.
    pub created_date: String,
    pub updated_date: String,
}

impl From<Stored> for Contact {
    fn from(s: Stored) -> Self {
        let f = s.fields;
        Self {
            id: s.id.to_string(),
            name: f.name,
            email: f.email,
            phone: f.phone,
            company: f.company,
            position: f.position,
            groups: f.groups,
            notes: f.notes,
            created_date: s.created_date,
            updated_date: s.updated_date,
        }
    }
}
