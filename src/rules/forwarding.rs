//! What keeps forward rules from looping and amplifying (issue 37):
//! - a forward is marked as RFC 3834 asks (`Auto-Submitted: auto-forwarded`) and with a header
//!   of ours naming the user's address ([`FORWARDED_HEADER`]), and mail so marked (or marked
//!   `Auto-Submitted` by any other robot, or carrying an `X-Loop` naming one of the user's
//!   addresses) is never forwarded: two users forwarding to each other stop after one hop;
//! - mail from one of the user's own addresses is never forwarded;
//! - a user's forwards are counted per day (`[limits] forwards_per_day`, table
//!   [`FORWARDS`]): a stranger's thousand mails become at most that many forwards, and "run
//!   now" on a full inbox too;
//! - a forward goes only to the address the user confirmed in the rule form
//!   (`StoredRule::forward_confirmed`).
//!
//! Each refusal is a Hebrew reason in the rule's activity.

use redb::{ReadableDatabase, ReadableTable, TableDefinition, WriteTransaction};

use super::model::StoredRule;
use crate::error::Result;
use crate::mail::parse;
use crate::messages;
use crate::store::Store;

pub use crate::outgoing::FORWARDED_HEADER;

/// user id → (day since the epoch, UTC; forwards that day).
pub const FORWARDS: TableDefinition<u64, (i64, u32)> = TableDefinition::new("rule_forwards");

pub fn create_tables(txn: &WriteTransaction) -> std::result::Result<(), redb::Error> {
    txn.open_table(FORWARDS)?;
    Ok(())
}

pub fn forget_user(txn: &WriteTransaction, user_id: u64) -> anyhow::Result<()> {
    txn.open_table(FORWARDS)?.remove(user_id)?;
    Ok(())
}

/// What a forward needs to know of the user: their addresses (lower case) and their cap.
#[derive(Debug, Clone)]
pub struct Policy {
    pub own: Vec<String>,
    pub per_day: u32,
}

impl Policy {
    pub fn of(store: &Store, user_id: u64, per_day: u32) -> Result<Self> {
        Ok(Self {
            own: crate::accounts::list_for_user(store, user_id)?
                .into_iter()
                .map(|a| a.email.trim().to_lowercase())
                .collect(),
            per_day,
        })
    }
}

/// Whether `raw` was sent or forwarded by a robot, or by a forward of this user's (a loop).
fn marked(raw: &[u8], own: &[String]) -> bool {
    let Some(msg) = parse::parse_guarded(raw) else {
        return false;
    };
    let auto_submitted = msg
        .header_raw("Auto-Submitted")
        .map(|v| {
            v.split(';')
                .next()
                .unwrap_or("")
                .trim()
                .to_ascii_lowercase()
        })
        .is_some_and(|v| !v.is_empty() && v != "no");
    let ours = msg.header_raw(FORWARDED_HEADER).is_some();
    let looped = msg.headers().iter().any(|h| {
        h.name().eq_ignore_ascii_case("X-Loop")
            && msg.header_raw(h.name()).is_some_and(|v| {
                let v = v.to_ascii_lowercase();
                own.iter().any(|a| v.contains(a.as_str()))
            })
    });
    auto_submitted || ours || looped
}

/// Why the forward of a mail from `from` with bytes `raw` by `rule` must not go; `None` when it
/// may (the daily count is taken separately, last).
pub fn refused(
    rule: &StoredRule,
    to: &str,
    from: &str,
    raw: &[u8],
    policy: &Policy,
) -> Option<String> {
    if rule.forward_confirmed.as_deref() != Some(to.trim().to_lowercase().as_str()) {
        return Some(messages::RULE_FORWARD_UNCONFIRMED.into());
    }
    if policy
        .own
        .iter()
        .any(|a| a.eq_ignore_ascii_case(from.trim()))
    {
        return Some(messages::RULE_FORWARD_SKIPPED_OWN.into());
    }
    if marked(raw, &policy.own) {
        return Some(messages::RULE_FORWARD_SKIPPED_AUTOMATED.into());
    }
    None
}

fn today() -> i64 {
    time::OffsetDateTime::now_utc()
        .unix_timestamp()
        .div_euclid(86_400)
}

/// Counts one forward of the user today, or says the day's cap is reached.
pub fn take(store: &Store, user_id: u64, per_day: u32) -> Result<std::result::Result<(), String>> {
    let day = today();
    let txn = store.begin_write()?;
    let allowed = {
        let mut table = txn.open_table(FORWARDS)?;
        let count = match table.get(user_id)?.map(|v| v.value()) {
            Some((d, n)) if d == day => n,
            _ => 0,
        };
        if count >= per_day {
            false
        } else {
            table.insert(user_id, (day, count + 1))?;
            true
        }
    };
    txn.commit()?;
    Ok(if allowed {
        Ok(())
    } else {
        Err(messages::rule_forwards_capped(per_day))
    })
}

/// The user's forwards today (for tests and the activity's numbers).
pub fn today_count(store: &Store, user_id: u64) -> Result<u32> {
    let txn = store.db().begin_read()?;
    let table = txn.open_table(FORWARDS)?;
    Ok(match table.get(user_id)?.map(|v| v.value()) {
        Some((d, n)) if d == today() => n,
        _ => 0,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::model::{Action, ActionKind};

    fn rule(to: &str, confirmed: Option<&str>) -> StoredRule {
        StoredRule {
            name: "r".into(),
            is_active: true,
            match_all: true,
            conditions: Vec::new(),
            actions: vec![Action {
                kind: ActionKind::ForwardTo,
                value: to.into(),
            }],
            stop: false,
            forward_confirmed: confirmed.map(str::to_string),
        }
    }

    #[test]
    fn marked_own_and_unconfirmed_mail_is_not_forwarded() {
        let policy = Policy {
            own: vec!["dana@home.test".into()],
            per_day: 5,
        };
        let plain = b"From: x@y.test\r\nSubject: s\r\n\r\nbody";
        let ok = rule("Out@Else.test", Some("out@else.test"));
        assert_eq!(
            refused(&ok, "Out@Else.test", "x@y.test", plain, &policy),
            None
        );
        // Not confirmed, or another address confirmed.
        for confirmed in [None, Some("other@else.test")] {
            let r = rule("out@else.test", confirmed);
            assert_eq!(
                refused(&r, "out@else.test", "x@y.test", plain, &policy),
                Some(messages::RULE_FORWARD_UNCONFIRMED.into())
            );
        }
        assert_eq!(
            refused(&ok, "out@else.test", "DANA@home.test", plain, &policy),
            Some(messages::RULE_FORWARD_SKIPPED_OWN.into())
        );
        for header in [
            "Auto-Submitted: auto-forwarded\r\n",
            "Auto-Submitted: auto-replied; owner-email=\"a@b\"\r\n",
            "X-Mailclient-Forwarded: yossi@other.test\r\n",
            "X-Loop: dana@home.test\r\n",
        ] {
            let raw = format!("{header}From: x@y.test\r\nSubject: s\r\n\r\nbody");
            assert_eq!(
                refused(&ok, "out@else.test", "x@y.test", raw.as_bytes(), &policy),
                Some(messages::RULE_FORWARD_SKIPPED_AUTOMATED.into()),
                "{header}"
            );
        }
        let raw = b"Auto-Submitted: no\r\nX-Loop: list@else.test\r\nFrom: x@y.test\r\n\r\nbody";
        assert_eq!(
            refused(&ok, "out@else.test", "x@y.test", raw, &policy),
            None
        );
    }

    #[test]
    fn forwards_are_counted_per_user_per_day() {
        let (_dir, store) = crate::schema::temp_store();
        for _ in 0..3 {
            assert_eq!(take(&store, 1, 3).unwrap(), Ok(()));
        }
        assert_eq!(
            take(&store, 1, 3).unwrap(),
            Err(messages::rule_forwards_capped(3))
        );
        assert_eq!(
            take(&store, 2, 3).unwrap(),
            Ok(()),
            "another user's own count"
        );
        assert_eq!(today_count(&store, 1).unwrap(), 3);
        // Yesterday's count is not today's.
        let txn = store.begin_write().unwrap();
        txn.open_table(FORWARDS)
            .unwrap()
            .insert(1, (today() - 1, 3))
            .unwrap();
        txn.commit().unwrap();
        assert_eq!(take(&store, 1, 3).unwrap(), Ok(()));
    }
}
