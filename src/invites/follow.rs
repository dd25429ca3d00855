//! New inbox mail with a calendar, taken into the user's invitation records as it arrives
//! (the `invites` job, run when new mail is logged): a cancellation or an update marks the event before
//! the user opens either mail, and an accepted invitation counts for conflicts at once. The
//! job follows the change log with its own cursor (`emails::arrivals`); a mail without a
//! calendar part is passed over on its stored summary, unread. Taking a mail in twice is
//! harmless (the records compare sequences).

use std::collections::HashMap;

use super::{parts, store};
use crate::emails::arrivals::{self, Arrival, Follower, Then};
use crate::error::Result;
use crate::state::AppState;
use crate::store::Store;

pub const JOB: &str = "invites";
const CURSOR: &str = "invites";

/// At start, before any sync: the job's place in the change log.
pub fn join(store: &Store) -> anyhow::Result<()> {
    arrivals::join(store, CURSOR)
}

/// The job (on new mail): due again at once when the log had more than one run reads.
pub async fn run(state: AppState) -> anyhow::Result<Option<i64>> {
    let more = state
        .store_blocking(|store| {
            arrivals::follow(
                store,
                &mut Taker {
                    zones: HashMap::new(),
                },
            )
        })
        .await?;
    Ok(crate::jobs::again_if(more))
}

/// The follower: each user's time zone read once a run.
struct Taker {
    zones: HashMap<u64, chrono_tz::Tz>,
}

impl Follower for Taker {
    fn cursor(&self) -> &'static str {
        CURSOR
    }

    fn wants(&mut self, store: &Store, user_id: u64) -> Result<bool> {
        let tz = crate::settings::load(store, user_id)?.tz();
        self.zones.insert(user_id, tz);
        Ok(true)
    }

    fn arrived(&mut self, store: &Store, mail: &Arrival<'_>) -> Result<Then> {
        if !parts::listed(&mail.meta.summary.attachments) {
            return Ok(Then::Next);
        }
        let tz = self
            .zones
            .get(&mail.user_id)
            .copied()
            .unwrap_or(chrono_tz::Asia::Jerusalem);
        if let Some((event, _)) = parts::first_event(&mail.raw()?, tz) {
            let txn = store.begin_write()?;
            store::register(&txn, mail.user_id, &event, crate::kit::now())?;
            txn.commit()?;
        }
        Ok(Then::Next)
    }
}
