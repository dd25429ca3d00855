//! The snooze tools: snooze a conversation until a time, list the sleeping ones, and wake one
//! now, each through the snooze feature's own functions (`crate::snooze::routes`), so an agent's
//! snooze is the snooze menu's (the mail moves to the Snoozed folder with its keywords, the
//! scheduler wakes it, a reply wakes it early) and only ever the token's user's.

use serde_json::{Value, json};

use super::args;
use super::{NOTICE, done};
use crate::error::Result;
use crate::snooze::model::Item;
use crate::snooze::routes::{self as snooze, SnoozeRequest};
use crate::state::AppState;

const MAX_LISTED: i64 = 50;

pub fn snooze_schema() -> Value {
    json!({
        "type": "object",
        "properties": {
            "email_id": {"type": "string", "description": "A mail of the conversation (an inbox mail's id from a listing or a search)."},
            "preset": {"type": "string", "enum": ["laterToday", "tomorrow", "weekend", "nextWeek"], "description": "A time of the snooze menu, in the person's time zone (the weekend is Friday and Saturday)."},
            "until": {"type": "string", "description": "Or a time: YYYY-MM-DDTHH:MM in the person's time zone, or RFC 3339; in the future, within a year."}
        },
        "required": ["email_id"],
        "additionalProperties": false
    })
}

pub fn list_schema() -> Value {
    json!({
        "type": "object",
        "properties": {
            "limit": {"type": "integer", "minimum": 1, "maximum": MAX_LISTED, "default": 20}
        },
        "additionalProperties": false
    })
}

pub fn wake_schema() -> Value {
    json!({
        "type": "object",
        "properties": {"snooze_id": {"type": "string", "description": "The snooze's id from snooze_thread or list_snoozed."}},
        "required": ["snooze_id"],
        "additionalProperties": false
    })
}

/// `snooze_thread`.
pub async fn snooze_thread(state: &AppState, user: u64, a: Value) -> Result<Value> {
    let req = SnoozeRequest {
        email_id: Some(args::id(&a, "email_id")?.to_string()),
        preset: args::text(&a, "preset", 20)?.map(str::to_string),
        until: args::text(&a, "until", 40)?.map(str::to_string),
    };
    let s = snooze::snooze_for(state, user, req).await?;
    Ok(done(
        json!({"notice": NOTICE, "snooze": Item::of(&s, None)}),
    ))
}

/// `list_snoozed`: the sleeping conversations, soonest first.
pub async fn list(state: &AppState, user: u64, a: Value) -> Result<Value> {
    let limit = args::int(&a, "limit", 1, MAX_LISTED, 20)? as usize;
    let all = state
        .store_blocking(move |store| snooze::listing(store, user))
        .await?;
    let total = all.snoozed.len();
    let kept: Vec<Item> = all.snoozed.into_iter().take(limit).collect();
    Ok(done(
        json!({"notice": NOTICE, "snoozed": kept, "total": total}),
    ))
}

/// `wake_thread`.
pub async fn wake(state: &AppState, user: u64, a: Value) -> Result<Value> {
    let id = args::id(&a, "snooze_id")?;
    let item = snooze::wake_by_user(state, user, id).await?;
    Ok(done(json!({"notice": NOTICE, "snooze": item})))
}
