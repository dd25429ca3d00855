//! Labels (spec 000 §3 Label: id, name, color): the user's names and colours for the IMAP
//! keywords on their mail. The keyword stays the label on the wire, so other clients see it;
//! a name that is not a plain ASCII atom (Hebrew, spaces) is mapped to a stable `$label_…`
//! keyword, as Thunderbird's tag keys do, and the name and colour live here, per user. A
//! keyword on the mail with no record (another client's tag, an older rule's label) shows as
//! itself in the default colour.
//!
//! - `keyword`: name → keyword.
//! - `model`: the record, its checks, create/rename/recolour, and a rule's label by name.
//! - `mail`: deleting a label takes its keyword off the user's mail (and the server's).
//! - `schema`: the table (migration 20).
//! - `routes`: `/api/labels`.

pub mod keyword;
pub mod mail;
pub mod model;
pub mod routes;
pub mod schema;

use serde::{Deserialize, Serialize};

use crate::feature::{BackupSection, Feature, Notes, Section, unless_empty};
use crate::forget::{self, Step};
use crate::state::AppState;
use model::Label;
pub use schema::{create_tables, forget_user};

/// Labels: routes, forget step, backup section (restored before the rules that name them).
pub static FEATURE: Feature = Feature {
    routes: Some(routes::router),
    wire_types,
    forget: &[Step {
        name: "labels",
        account: forget::nothing,
        user: forget_user,
    }],
    backup: &[BackupSection::of::<Backup>("labels")],
    ..Feature::named("labels")
};

/// A label in a backup: the keyword too, so the restored label names the same mail.
#[derive(Debug, Serialize, Deserialize)]
pub struct Saved {
    pub keyword: String,
    pub name: String,
    pub color: String,
}

/// The settings backup's section: the labels.
struct Backup;

impl Section for Backup {
    type Data = Vec<Saved>;

    fn export(state: &AppState, user_id: u64) -> anyhow::Result<Option<Self::Data>> {
        let all = model::list(&state.store, user_id)?;
        Ok(unless_empty(
            all.into_iter()
                .map(|l| Saved {
                    keyword: l.keyword,
                    name: l.name,
                    color: l.color,
                })
                .collect(),
        ))
    }

    /// Restores each label the user has no label of that name for, through the same checks as
    /// the manager. It keeps its saved keyword (so it names the same mail) when that is a label
    /// keyword no other label holds; otherwise (a file may be anyone's) the name is mapped
    /// afresh, and the restore says so.
    fn import(state: &AppState, user_id: u64, list: Self::Data) -> anyhow::Result<Notes> {
        let mut notes = Vec::new();
        let mut have: Vec<Label> = model::list(&state.store, user_id)?;
        for s in list.into_iter().take(model::MAX_LABELS) {
            if model::name_taken(&have, s.name.trim(), None) {
                continue;
            }
            let made = model::create_keeping(
                &state.store,
                user_id,
                &s.name,
                Some(&s.color),
                Some(&s.keyword),
            )?;
            if made.keyword != s.keyword {
                notes.push(crate::messages::restored_label_keyword(&made.name));
            }
            have.push(made);
        }
        Ok(notes)
    }
}

// This feature's part of the wire contract (see `crate::wire`).
crate::wire_types!(
    model::LabelView,
    routes::LabelsResponse,
    routes::LabelRequest,
    routes::LabelDeleted,
);
