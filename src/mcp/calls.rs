//! Every call an agent made, per token, for the user to read on the settings page: when, what
//! (the method, the tool or the resource), whether it worked, how long it took. Never what
//! the mail said nor what the agent asked for beyond the tool's name. The newest
//! [`KEEP`] per user are kept.

use redb::{ReadableDatabase, ReadableTable, TableDefinition, WriteTransaction};
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use super::tokens;
use crate::error::Result;
use crate::kit::iso;
use crate::store::{Store, next_id, record};

/// (user id, seq) → JSON [`Call`].
const CALLS: TableDefinition<(u64, u64), &[u8]> = TableDefinition::new("mcp_calls");

/// Calls kept per user.
pub const KEEP: usize = 500;
/// Calls a token's log shows at most.
pub const SHOWN: usize = 100;

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Call {
    pub token: u64,
    /// Unix seconds.
    pub at: i64,
    /// The JSON-RPC method.
    pub method: String,
    /// The tool's name or the resource's URI.
    pub target: String,
    pub ok: bool,
    /// A short reason, when it failed.
    pub error: Option<String>,
    pub millis: u32,
}

/// One call as the settings page shows it.
#[derive(Debug, Clone, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(rename = "McpCall")]
pub struct CallView {
    /// RFC 3339.
    pub at: String,
    pub method: String,
    pub target: String,
    pub ok: bool,
    pub error: Option<String>,
    pub millis: u32,
}

pub fn create_tables(txn: &WriteTransaction) -> Result<(), redb::Error> {
    txn.open_table(CALLS)?;
    Ok(())
}

pub fn forget_user(txn: &WriteTransaction, user: u64) -> anyhow::Result<()> {
    txn.open_table(CALLS)?
        .retain_in((user, 0)..=(user, u64::MAX), |_, _| false)?;
    Ok(())
}

/// Logs a call of the user's token and counts it on the token, in one transaction.
pub fn log(store: &Store, user: u64, call: Call) -> Result<()> {
    let txn = store.begin_write()?;
    tokens::used(&txn, user, call.token, call.at)?;
    {
        let mut t = txn.open_table(CALLS)?;
        let seq = next_id(&txn, "mcp_calls")?;
        t.insert((user, seq), record::encode(&call).as_slice())?;
        let n = t.range((user, 0)..=(user, u64::MAX))?.count();
        if n > KEEP {
            let old: Vec<u64> = t
                .range((user, 0)..=(user, u64::MAX))?
                .take(n - KEEP)
                .filter_map(|e| e.ok().map(|(k, _)| k.value().1))
                .collect();
            for seq in old {
                t.remove((user, seq))?;
            }
        }
    }
    txn.commit()?;
    Ok(())
}

/// The newest calls of one token of the user, newest first.
pub fn of_token(store: &Store, user: u64, token: u64) -> Result<Vec<CallView>> {
    let txn = store.db().begin_read()?;
    let t = txn.open_table(CALLS)?;
    let mut out = Vec::new();
    for e in t.range((user, 0)..=(user, u64::MAX))?.rev() {
        let c: Call = record::decode(e?.1.value())?;
        if c.token != token {
            continue;
        }
        out.push(CallView {
            at: iso(c.at),
            method: c.method,
            target: c.target,
            ok: c.ok,
            error: c.error,
            millis: c.millis,
        });
        if out.len() >= SHOWN {
            break;
        }
    }
    Ok(out)
}
