//! What deleting a label does to the mail: its keyword comes off every message of the user's
//! mailboxes that carries it, here and (queued for the sync) on the IMAP server, so other
//! clients stop showing it too.

use crate::error::Result;
use crate::mailstore::{MailRead, MailWrite, MessageMeta, Reason};
use crate::store::Store;

/// Messages read per snapshot while looking for the keyword.
const CHUNK: usize = 500;

/// Removes `keyword` from the user's mail; returns the mailboxes touched and how many messages
/// lost it.
pub fn remove_keyword(store: &Store, user_id: u64, keyword: &str) -> Result<(Vec<u64>, usize)> {
    let accounts: Vec<u64> = crate::accounts::list_for_user(store, user_id)?
        .into_iter()
        .map(|a| a.id)
        .collect();
    let carrying = |m: &MessageMeta| m.keywords.iter().any(|k| k.eq_ignore_ascii_case(keyword));
    let mut found: Vec<u64> = Vec::new();
    {
        let read = MailRead::new(store)?;
        for &account in &accounts {
            let ids: Vec<u64> = read
                .account_rows(account)?
                .map(|r| r.map(|r| r.id()))
                .collect::<anyhow::Result<_>>()?;
            for chunk in ids.chunks(CHUNK) {
                let metas = read.metas(chunk.iter().copied())?;
                found.extend(metas.iter().filter(|m| carrying(m)).map(|m| m.id));
            }
        }
    }
    let mut touched = Vec::new();
    let mut count = 0;
    for chunk in found.chunks(CHUNK) {
        let txn = store.begin_write()?;
        let w = MailWrite::new(&txn, Reason::Status);
        for &id in chunk {
            // Read again inside the write: the sync may have changed it since.
            let Some(mut meta) = w.meta(id)? else {
                continue;
            };
            if !accounts.contains(&meta.account_id) || !carrying(&meta) {
                continue;
            }
            let gone: Vec<String> = meta
                .keywords
                .iter()
                .filter(|k| k.eq_ignore_ascii_case(keyword))
                .cloned()
                .collect();
            meta.keywords.retain(|k| !k.eq_ignore_ascii_case(keyword));
            w.write_meta(&meta)?;
            w.queue_change(&meta, |op| {
                op.add_keywords.retain(|k| !k.eq_ignore_ascii_case(keyword));
                for k in gone {
                    if !op.remove_keywords.contains(&k) {
                        op.remove_keywords.push(k);
                    }
                }
            })?;
            count += 1;
            if !touched.contains(&meta.account_id) {
                touched.push(meta.account_id);
            }
        }
        txn.commit()?;
    }
    Ok((touched, count))
}
