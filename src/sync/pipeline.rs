//! Parse, judge and pack on threads, then store: a walk hands each chunk of fetched mail to
//! [`Ctx::spawn_parse`] (the parse threads, with the spam screen's judge when one is
//! registered) and then to [`Ctx::spawn_store_parsed`] (one write transaction with the folder
//! state that covers it).

use std::sync::Arc;

use super::ctx::Ctx;
use super::screen::{self, Judge};
use crate::mail::parse::Summary;
use crate::mailstore::{self as mstore, Detection, Fetched, FolderState, MailWrite, Reason};
use crate::store::Store;

impl Ctx {
    /// Parses, judges and packs a batch on the blocking pool, starting now: a walk parses a
    /// chunk while the chunk before it is still being written and committed (the commit waits
    /// for the disk, and the cores would idle), then hands it to [`Self::spawn_store_parsed`].
    pub fn spawn_parse(&self, state: &FolderState, batch: Vec<Fetched>) -> Parsing {
        let first_sync = !self.status.lock().expect("status").initial_sync_done;
        let batch_of = screen::Batch {
            account: self.account_id,
            user_id: self.user_id,
            role: &state.role,
            first_sync,
        };
        let judge = self.shared.screen.judge_for(&self.store, &batch_of);
        let j = judge.clone();
        let parsed = tokio::task::spawn_blocking(move || {
            // On every core: parsing is most of a batch's work, and the store takes one
            // writer at a time.
            let parsed = parse_all(&batch, j.as_deref());
            (batch, parsed)
        });
        Parsing { parsed, judge }
    }

    /// Stores a parsed batch and the folder state that covers it in one transaction, so a
    /// crash never leaves the state ahead of the messages. The caller starts one batch's
    /// store after the previous one's finished: the states are saved in the walk's order.
    pub fn spawn_store_parsed(
        &self,
        state: FolderState,
        parsing: Parsing,
    ) -> tokio::task::JoinHandle<anyhow::Result<usize>> {
        let store = self.store.clone();
        let account = self.account_id;
        tokio::spawn(async move {
            let Parsing { parsed, judge } = parsing;
            let (batch, parsed) = parsed.await?;
            tokio::task::spawn_blocking(move || {
                write_batch(&store, account, &state, &batch, parsed, judge.as_deref())
            })
            .await?
        })
    }

    /// Parses and stores a batch (see [`Self::spawn_parse`] and [`Self::spawn_store_parsed`]).
    pub async fn store_batch(
        &self,
        state: &FolderState,
        batch: Vec<Fetched>,
    ) -> anyhow::Result<usize> {
        let parsing = self.spawn_parse(state, batch);
        self.spawn_store_parsed(state.clone(), parsing).await?
    }
}

/// A batch being parsed (`Ctx::spawn_parse`), with the judge that judged it, which also
/// records its verdicts when the batch is stored.
pub struct Parsing {
    parsed: tokio::task::JoinHandle<(Vec<Fetched>, ParsedBatch)>,
    judge: Option<Arc<dyn Judge>>,
}

/// Writes a parsed batch and its folder state in one transaction and commits.
fn write_batch(
    store: &Store,
    account: u64,
    state: &FolderState,
    batch: &[Fetched],
    parsed: ParsedBatch,
    judge: Option<&dyn Judge>,
) -> anyhow::Result<usize> {
    let txn = store.begin_write()?;
    // The account may have been logged out while this batch was in flight: its mail must not
    // come back.
    if !crate::accounts::exists_in(&txn, account)? {
        return Ok(0);
    }
    let started = std::time::Instant::now();
    let w = MailWrite::new(&txn, Reason::Sync);
    // So may its folder (deleted or renamed while the batch was fetched): no orphaned rows.
    if w.folder(account, &state.name)?.is_none() {
        return Ok(0);
    }
    let new = w.insert_screened(
        account,
        &state.name,
        batch,
        parsed.summaries,
        parsed.detections,
        parsed.packed,
    )?;
    w.save_folder(account, state)?;
    if let Some(judge) = judge {
        judge.stored(&txn, &new)?;
    }
    let stored = started.elapsed();
    txn.commit()?;
    if let Some(judge) = judge {
        judge.committed(&new);
    }
    tracing::debug!(
        messages = batch.len(),
        store_secs = stored.as_secs_f64(),
        commit_secs = (started.elapsed() - stored).as_secs_f64(),
        "batch stored"
    );
    Ok(new.len())
}

/// What the parse threads make of a batch, in its order: the summaries, the judge's verdict
/// on each, and the raw bytes packed for the store.
struct ParsedBatch {
    summaries: Vec<Summary>,
    detections: Vec<Option<Detection>>,
    packed: Vec<mstore::Packed>,
}

/// Parses, judges and packs a batch on up to four threads (a judge that panics on a hostile
/// mail leaves that mail unjudged). Packing here keeps the compression out of the one write
/// transaction, which every chunk of a sync waits for.
fn parse_all(batch: &[Fetched], judge: Option<&dyn Judge>) -> ParsedBatch {
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get().min(4));
    let per = batch.len().div_ceil(threads).max(1);
    let parsed: Vec<(Summary, Option<Detection>, mstore::Packed)> = std::thread::scope(|s| {
        let parts: Vec<_> = batch
            .chunks(per)
            .map(|part| {
                s.spawn(move || {
                    part.iter()
                        .map(|f| {
                            let (summary, detection) = match judge {
                                Some(j) => {
                                    crate::mail::parse::summary_with(&f.raw, |msg, summary| {
                                        j.judge(msg, &f.raw, summary)
                                    })
                                }
                                None => (crate::mail::parse::summary(&f.raw), None),
                            };
                            (summary, detection, mstore::pack(&f.raw))
                        })
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        parts
            .into_iter()
            .flat_map(|p| p.join().expect("summary never panics: it is guarded"))
            .collect()
    });
    let mut out = ParsedBatch {
        summaries: Vec::with_capacity(parsed.len()),
        detections: Vec::with_capacity(parsed.len()),
        packed: Vec::with_capacity(parsed.len()),
    };
    for (summary, detection, packed) in parsed {
        out.summaries.push(summary);
        out.detections.push(detection);
        out.packed.push(packed);
    }
    out
}
