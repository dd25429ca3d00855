//! A rule (spec 001 §3 Rule: id, name, is_active, created_date) with what makes it a rule:
//! conditions, matched all or any, and actions, in order; `stop` ends the rules after it.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::error::{AppError, Result};
use crate::messages;

pub const MAX_RULES: usize = 200;
pub const MAX_PARTS: usize = 20;
const MAX_VALUE: usize = 500;
const MAX_NAME: usize = 200;

/// What a condition looks at.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
#[ts(rename = "RuleField")]
pub enum Field {
    /// The sender's address and name contain the value.
    From,
    /// To or Cc contain the value.
    To,
    Subject,
    Body,
    /// The sender's domain is the value (or one under it).
    SenderDomain,
    HasAttachment,
    ListMail,
    /// Larger than the value, in KB.
    SizeAbove,
    /// The header named `header` exists (empty value) or contains the value.
    Header,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(rename = "RuleCondition")]
pub struct Condition {
    pub field: Field,
    /// Reverses the test ("does not contain", "no attachment", …).
    #[serde(default)]
    pub negate: bool,
    #[serde(default)]
    pub value: String,
    /// For `header`: its name.
    #[serde(default)]
    pub header: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
#[ts(rename = "RuleActionKind")]
pub enum ActionKind {
    /// value: needs_reply, processed, info, spam, advertisement, urgent.
    SetStatus,
    /// value: a folder of the mailbox.
    MoveToFolder,
    /// value: a label's name or keyword (Hebrew welcome); saved as the label's IMAP keyword
    /// (`GET /api/labels` names it), a new name making a new label.
    AddLabel,
    MarkAsRead,
    MarkAsStarred,
    /// value: the address; the original goes along attached.
    ForwardTo,
    /// To the mailbox's Trash.
    Delete,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(rename = "RuleAction")]
pub struct Action {
    pub kind: ActionKind,
    #[serde(default)]
    pub value: String,
}

/// What a client sends to create or change a rule.
#[derive(Debug, Clone, Deserialize, TS)]
#[serde(default)]
#[ts(optional_fields)]
pub struct RuleInput {
    pub name: String,
    /// New rules are active (spec).
    pub is_active: bool,
    /// All conditions (true) or any of them.
    pub match_all: bool,
    pub conditions: Vec<Condition>,
    pub actions: Vec<Action>,
    /// No rule after this one runs on a mail it matched.
    pub stop: bool,
    /// The forward address the user confirmed after seeing it (the form's confirm step): a
    /// rule that forwards to a new address is saved only with it.
    pub confirm_forward: Option<String>,
}

impl Default for RuleInput {
    fn default() -> Self {
        Self {
            name: String::new(),
            is_active: true,
            match_all: true,
            conditions: Vec::new(),
            actions: Vec::new(),
            stop: false,
            confirm_forward: None,
        }
    }
}

impl RuleInput {
    /// Trimmed and checked; `own` are the user's addresses (lower case), never forwarded to.
    pub fn checked(mut self, own: &[String]) -> Result<Self> {
        let bad = |m: &str| Err(AppError::bad_request(m));
        self.name = self.name.trim().to_string();
        if self.name.is_empty() {
            return bad(messages::RULE_NAME_REQUIRED);
        }
        if self.name.chars().count() > MAX_NAME {
            return bad(messages::RULE_VALUE_TOO_LONG);
        }
        if self.conditions.is_empty() {
            return bad(messages::RULE_NEEDS_CONDITION);
        }
        if self.actions.is_empty() {
            return bad(messages::RULE_NEEDS_ACTION);
        }
        if self.conditions.len() > MAX_PARTS || self.actions.len() > MAX_PARTS {
            return bad(messages::RULE_TOO_MANY);
        }
        for c in &mut self.conditions {
            c.value = c.value.trim().to_string();
            c.header = c.header.trim().to_string();
            if c.value.chars().count() > MAX_VALUE || c.header.len() > 100 {
                return bad(messages::RULE_VALUE_TOO_LONG);
            }
            let needs_value = matches!(
                c.field,
                Field::From | Field::To | Field::Subject | Field::Body | Field::SenderDomain
            );
            if needs_value && c.value.is_empty() {
                return bad(messages::RULE_VALUE_REQUIRED);
            }
            if c.field == Field::SizeAbove && c.value.parse::<u32>().is_err() {
                return bad(messages::RULE_SIZE_INVALID);
            }
            if c.field == Field::Header
                && (c.header.is_empty()
                    || !c
                        .header
                        .chars()
                        .all(|ch| ch.is_ascii_graphic() && ch != ':'))
            {
                return bad(messages::RULE_VALUE_REQUIRED);
            }
        }
        let mut forwards = 0;
        for a in &mut self.actions {
            a.value = a.value.trim().to_string();
            if a.value.chars().count() > MAX_VALUE {
                return bad(messages::RULE_VALUE_TOO_LONG);
            }
            match a.kind {
                ActionKind::SetStatus => {
                    crate::emails::triage::resolve(&a.value, None, None)?;
                    if a.value.is_empty() || a.value == "none" {
                        return bad(messages::STATUS_INVALID);
                    }
                }
                ActionKind::MoveToFolder if a.value.is_empty() => {
                    return bad(messages::RULE_VALUE_REQUIRED);
                }
                // A label's name (Hebrew welcome): the route maps it to its keyword.
                ActionKind::AddLabel => {
                    crate::labels::model::checked_name(&a.value)?;
                }
                ActionKind::ForwardTo => {
                    forwards += 1;
                    let to = a.value.to_lowercase();
                    if !crate::outgoing::mime::valid_address(&to) {
                        return bad(messages::RULE_FORWARD_INVALID);
                    }
                    if own.contains(&to) {
                        return bad(messages::RULE_FORWARD_OWN);
                    }
                }
                _ => {}
            }
        }
        // At most one forward per mail, whatever the rules say.
        if forwards > 1 {
            return bad(messages::RULE_TOO_MANY);
        }
        Ok(self)
    }
}

/// A stored rule.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Stored {
    pub id: u64,
    #[serde(flatten)]
    pub rule: StoredRule,
    /// Unix seconds.
    pub created: i64,
    /// Order among the user's rules (lower first).
    pub position: i64,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct StoredRule {
    pub name: String,
    pub is_active: bool,
    pub match_all: bool,
    pub conditions: Vec<Condition>,
    pub actions: Vec<Action>,
    pub stop: bool,
    /// The forward address the user confirmed (lower case); a forward to any other address
    /// does not run. Never taken from a backup file: a restored forward waits for the user.
    #[serde(default)]
    pub forward_confirmed: Option<String>,
}

impl StoredRule {
    /// The address the rule forwards to (lower case), if it forwards.
    pub fn forward_to(&self) -> Option<String> {
        self.actions
            .iter()
            .find(|a| a.kind == ActionKind::ForwardTo)
            .map(|a| a.value.trim().to_lowercase())
    }

    /// Whether its forward waits for the user to confirm the address.
    pub fn forward_pending(&self) -> bool {
        self.forward_to()
            .is_some_and(|to| self.forward_confirmed.as_deref() != Some(to.as_str()))
    }
}

impl From<RuleInput> for StoredRule {
    /// Unconfirmed: the route confirms the forward address (`routes::confirmed`).
    fn from(r: RuleInput) -> Self {
        Self {
            name: r.name,
            is_active: r.is_active,
            match_all: r.match_all,
            conditions: r.conditions,
            actions: r.actions,
            stop: r.stop,
            forward_confirmed: None,
        }
    }
}

/// A rule as the API shows it (spec field names).
#[derive(Debug, Clone, Serialize, TS)]
pub struct Rule {
    pub id: String,
    pub name: String,
    pub is_active: bool,
    pub created_date: String,
    pub match_all: bool,
    pub conditions: Vec<Condition>,
    pub actions: Vec<Action>,
    pub stop: bool,
    /// It forwards to an address the user has not confirmed (a restored rule): the forward
    /// does not run until the rule is saved again with the address confirmed.
    pub forward_pending: bool,
    /// The folder its "move to folder" names when no mailbox of the user has it any more
    /// (deleted on the server): the move does not run, and the rules page says so.
    pub missing_folder: Option<String>,
}

impl From<Stored> for Rule {
    fn from(s: Stored) -> Self {
        Self {
            id: s.id.to_string(),
            created_date: crate::emails::view::iso(s.created),
            forward_pending: s.rule.forward_pending(),
            name: s.rule.name,
            is_active: s.rule.is_active,
            match_all: s.rule.match_all,
            conditions: s.rule.conditions,
            actions: s.rule.actions,
            stop: s.rule.stop,
            missing_folder: None,
        }
    }
}
