//! The resources an agent may read with the `read` scope: the user's folders with their
//! counts (`mailclient://folders`) and the inbox's counts by status (`mailclient://counts`),
//! as JSON. Both are read fresh on every call (`ttlMs: 0`).

use serde_json::{Value, json};

use super::protocol::Failure;
use super::tokens::{Scope, TokenRecord};
use super::transport::{INTERNAL, INVALID_PARAMS};
use crate::state::AppState;

const FOLDERS: &str = "mailclient://folders";
const COUNTS: &str = "mailclient://counts";

/// `resources/list`.
pub fn listed(token: &TokenRecord) -> Vec<Value> {
    if !token.allows(Scope::Read) {
        return Vec::new();
    }
    vec![
        json!({
            "uri": FOLDERS,
            "name": "folders",
            "title": "Folders",
            "description": "The mailbox's folders, each with its total and unread counts.",
            "mimeType": "application/json",
        }),
        json!({
            "uri": COUNTS,
            "name": "counts",
            "title": "Counts",
            "description": "How many mails wait in the inbox, by status and folder.",
            "mimeType": "application/json",
        }),
    ]
}

/// `resources/read`.
pub async fn read(state: &AppState, token: &TokenRecord, uri: &str) -> Result<Value, Failure> {
    let known = uri == FOLDERS || uri == COUNTS;
    if !known || !token.allows(Scope::Read) {
        // -32002: Resource not found (the spec's code for an unknown URI).
        let mut f = Failure::new(-32002, "Resource not found");
        f.data = Some(json!({"uri": crate::kit::cut(uri, 200)}));
        return Err(f);
    }
    let user = token.user_id;
    let which = uri.to_string();
    let data = state
        .store_blocking(move |store| {
            Ok(if which == FOLDERS {
                serde_json::to_value(crate::emails::listing::folders(store, user)?)
            } else {
                serde_json::to_value(crate::emails::listing::counts(store, user)?)
            })
        })
        .await
        .map_err(|e| Failure::new(INTERNAL, e.user_message()))?
        .map_err(|_| Failure::new(INVALID_PARAMS, "cannot read the resource"))?;
    Ok(json!({
        "contents": [{
            "uri": uri,
            "mimeType": "application/json",
            "text": data.to_string(),
        }]
    }))
}
