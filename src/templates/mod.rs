//! Mail templates (spec 000 §3 Template): per user, with three Hebrew defaults the first time
//! the user opens the picker. A subject may hold `{{original_subject}}`, which the compose
//! page replaces with the subject of the mail being answered.

pub mod routes;

use redb::{ReadableDatabase, ReadableTable, TableDefinition, WriteTransaction};
use serde::{Deserialize, Serialize};

use crate::error::{AppError, Result};
use crate::feature::{BackupSection, Feature};
use crate::forget::{self, Step};
use crate::messages;
use crate::store::{Store, record};

pub use routes::router;

/// Mail templates: routes, forget step, backup section.
pub static FEATURE: Feature = Feature {
    routes: Some(router),
    wire_types,
    forget: &[Step {
        name: "templates",
        account: forget::nothing,
        user: forget_user,
    }],
    backup: &[BackupSection {
        name: "templates",
        export: backup_export,
        import: backup_import,
    }],
    ..Feature::named("templates")
};

/// (user id, template id) → JSON [`Template`].
pub const TEMPLATES: TableDefinition<(u64, u64), &[u8]> = TableDefinition::new("mail_templates");
/// user id → (): the defaults were given once (deleting them keeps them deleted).
pub const SEEDED: TableDefinition<u64, ()> = TableDefinition::new("mail_templates_seeded");

const MAX_NAME: usize = 100;
const MAX_BODY: usize = 100_000;

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct Template {
    pub id: u64,
    pub name: String,
    pub subject: String,
    pub body: String,
}

/// A template as the API shows it: the id is a string, like the other ids the web keeps.
#[derive(Debug, Clone, Serialize, ts_rs::TS)]
#[ts(rename = "Template")]
pub struct TemplateView {
    pub id: String,
    pub name: String,
    /// May hold `{{original_subject}}`.
    pub subject: String,
    /// HTML.
    pub body: String,
}

impl Template {
    pub fn view(&self) -> TemplateView {
        TemplateView {
            id: self.id.to_string(),
            name: self.name.clone(),
            subject: self.subject.clone(),
            body: self.body.clone(),
        }
    }
}

pub fn create_tables(txn: &WriteTransaction) -> Result<(), redb::Error> {
    txn.open_table(TEMPLATES)?;
    txn.open_table(SEEDED)?;
    Ok(())
}

/// Forgets a removed user's templates (and that the defaults were given to them).
pub fn forget_user(txn: &WriteTransaction, user: u64) -> anyhow::Result<()> {
    txn.open_table(TEMPLATES)?
        .retain_in((user, 0)..=(user, u64::MAX), |_, _| false)?;
    txn.open_table(SEEDED)?.remove(user)?;
    Ok(())
}

const DEFAULTS: [(&str, &str, &str); 3] = [
    (
        "עסקי רשמי",
        "Re: {{original_subject}}",
        "<p>שלום רב,</p><p>תודה על פנייתך. </p><p>בברכה,</p>",
    ),
    (
        "ידידותי",
        "Re: {{original_subject}}",
        "<p>היי,</p><p>תודה רבה! </p><p>שיהיה יום נפלא,</p>",
    ),
    (
        "תמציתי",
        "Re: {{original_subject}}",
        "<p>תודה, קיבלתי. אחזור אליך בהקדם.</p>",
    ),
];

fn checked(name: &str, subject: &str, body: &str) -> Result<(String, String, String)> {
    let name = name.trim();
    if name.is_empty() {
        return Err(AppError::bad_request(messages::TEMPLATE_NAME_REQUIRED));
    }
    if name.chars().count() > MAX_NAME || body.len() > MAX_BODY || subject.len() > 2_000 {
        return Err(AppError::bad_request(messages::BODY_TOO_LARGE));
    }
    Ok((
        name.to_string(),
        crate::outgoing::request::clean_subject(subject),
        crate::outgoing::request::clean_html(body),
    ))
}

/// The user's templates in creation order, seeding the defaults the first time.
pub fn list(store: &Store, user_id: u64) -> Result<Vec<Template>> {
    let seeded = {
        let txn = store.db().begin_read()?;
        txn.open_table(SEEDED)?.get(user_id)?.is_some()
    };
    if !seeded {
        let txn = store.begin_write()?;
        if txn.open_table(SEEDED)?.get(user_id)?.is_none() {
            for (name, subject, body) in DEFAULTS {
                insert(&txn, user_id, name, subject, body)?;
            }
            txn.open_table(SEEDED)?.insert(user_id, ())?;
        }
        txn.commit()?;
    }
    let txn = store.db().begin_read()?;
    let t = txn.open_table(TEMPLATES)?;
    let mut out = Vec::new();
    for e in t.range((user_id, 0)..=(user_id, u64::MAX))? {
        let (_, v) = e?;
        out.push(record::decode(v.value())?);
    }
    Ok(out)
}

fn insert(
    txn: &WriteTransaction,
    user_id: u64,
    name: &str,
    subject: &str,
    body: &str,
) -> Result<Template> {
    let id = crate::store::next_id(txn, "mail_templates")?;
    let t = Template {
        id,
        name: name.into(),
        subject: subject.into(),
        body: body.into(),
    };
    txn.open_table(TEMPLATES)?
        .insert((user_id, id), record::encode(&t).as_slice())?;
    Ok(t)
}

pub fn create(
    store: &Store,
    user_id: u64,
    name: &str,
    subject: &str,
    body: &str,
) -> Result<Template> {
    let (name, subject, body) = checked(name, subject, body)?;
    let txn = store.begin_write()?;
    let t = insert(&txn, user_id, &name, &subject, &body)?;
    txn.commit()?;
    Ok(t)
}

pub fn update(
    store: &Store,
    user_id: u64,
    id: u64,
    name: &str,
    subject: &str,
    body: &str,
) -> Result<Template> {
    let (name, subject, body) = checked(name, subject, body)?;
    let txn = store.begin_write()?;
    {
        let mut table = txn.open_table(TEMPLATES)?;
        if table.get((user_id, id))?.is_none() {
            return Err(AppError::NotFound(messages::TEMPLATE_NOT_FOUND.into()));
        }
        let t = Template {
            id,
            name,
            subject,
            body,
        };
        table.insert((user_id, id), record::encode(&t).as_slice())?;
    }
    txn.commit()?;
    get(store, user_id, id)
}

fn get(store: &Store, user_id: u64, id: u64) -> Result<Template> {
    let txn = store.db().begin_read()?;
    let t = txn.open_table(TEMPLATES)?;
    let v = t
        .get((user_id, id))?
        .ok_or_else(|| AppError::NotFound(messages::TEMPLATE_NOT_FOUND.into()))?;
    Ok(record::decode(v.value())?)
}

/// The templates' part of a settings backup: each one's name, subject and body.
pub fn backup_export(
    state: &crate::state::AppState,
    user_id: u64,
) -> anyhow::Result<Option<serde_json::Value>> {
    let all: Vec<serde_json::Value> = list(&state.store, user_id)?
        .into_iter()
        .map(|t| serde_json::json!({"name": t.name, "subject": t.subject, "body": t.body}))
        .collect();
    Ok(Some(serde_json::Value::Array(all)))
}

/// Restores templates: each one the user has no template of that name for is added.
pub fn backup_import(
    state: &crate::state::AppState,
    user_id: u64,
    v: serde_json::Value,
) -> anyhow::Result<crate::backup::Notes> {
    #[derive(Deserialize)]
    struct Backed {
        name: String,
        subject: String,
        body: String,
    }
    let backed: Vec<Backed> = serde_json::from_value(v)?;
    let have: std::collections::HashSet<String> = list(&state.store, user_id)?
        .into_iter()
        .map(|t| t.name)
        .collect();
    for t in backed.into_iter().take(500) {
        if !have.contains(&t.name) {
            create(&state.store, user_id, &t.name, &t.subject, &t.body)?;
        }
    }
    Ok(Vec::new())
}

pub fn remove(store: &Store, user_id: u64, id: u64) -> Result<()> {
    let txn = store.begin_write()?;
    let gone = txn.open_table(TEMPLATES)?.remove((user_id, id))?.is_some();
    txn.commit()?;
    if gone {
        Ok(())
    } else {
        Err(AppError::NotFound(messages::TEMPLATE_NOT_FOUND.into()))
    }
}

// This feature's part of the wire contract (see `crate::wire`).
crate::wire_types!(
    TemplateView,
    routes::TemplateRequest,
    routes::TemplatesResponse,
    routes::TemplateResponse,
);
