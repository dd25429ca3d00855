//! One account's sync task: connect, list folders, sync them (INBOX first), then wait in IDLE
//! on INBOX (or sleep when the server has no IDLE) until new mail, a local change to push, a
//! refresh request or the poll interval. Any error drops the connection and retries with
//! backoff; all progress is in the store, so a retry or a restart resumes where it stopped.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use async_imap::extensions::idle::IdleResponse;
use async_imap::types::NameAttribute;
use futures_util::TryStreamExt;
use tokio::sync::Notify;

use super::folder::{self, FolderCaps, FolderOutcome};
use super::screen::{self, Judge};
use super::{SyncEvent, SyncShared};
use crate::accounts::AccountRecord;
use crate::mail::parse::Summary;
use crate::mail::imap_ops::{deadline, expunge_uids, refused, store_flags, uid_list};
use crate::mail::{imap, mutf7};
use crate::mailstore::keywords;
use crate::mailstore::{
    self as mstore, Detection, Fetched, FolderState, MailRead, MailWrite, Reason, role_by_name,
};
use crate::store::Store;

pub use crate::state::SyncStatus;

pub struct Ctx {
    pub account_id: u64,
    pub user_id: u64,
    pub store: Store,
    pub shared: Arc<SyncShared>,
    pub status: Arc<std::sync::Mutex<SyncStatus>>,
    pub fetched_messages: Arc<AtomicU64>,
    pub fetched_bytes: Arc<AtomicU64>,
    pub fetch_counts: Arc<FetchCounters>,
    /// The scheduler's INBOX poll (`SyncManager::poll_inboxes`): heard only by a task whose
    /// server has no IDLE.
    pub inbox_poll: Arc<Notify>,
}

/// The FETCH commands an account's task sent since it started: what a sync costs in round
/// trips, whatever the number of messages (tests check that sparse UIDs are not walked).
#[derive(Debug, Default)]
pub struct FetchCounters {
    /// Every UID FETCH: bodies, sizes, flags.
    pub commands: AtomicU64,
    /// Body FETCHes only (each one chunk of mail).
    pub bodies: AtomicU64,
}

/// A snapshot of `FetchCounters`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct FetchCounts {
    pub commands: u64,
    pub bodies: u64,
}

impl FetchCounters {
    pub fn snapshot(&self) -> FetchCounts {
        FetchCounts {
            commands: self.commands.load(Ordering::Relaxed),
            bodies: self.bodies.load(Ordering::Relaxed),
        }
    }
}

impl Ctx {
    pub fn limit(&self) -> Duration {
        self.shared.timeout
    }

    /// One UID FETCH sent; `body` when it fetches whole messages.
    pub fn count_fetch_command(&self, body: bool) {
        self.fetch_counts.commands.fetch_add(1, Ordering::Relaxed);
        if body {
            self.fetch_counts.bodies.fetch_add(1, Ordering::Relaxed);
        }
    }

    pub fn count_fetched(&self, bytes: usize) {
        self.fetched_messages.fetch_add(1, Ordering::Relaxed);
        self.fetched_bytes
            .fetch_add(bytes as u64, Ordering::Relaxed);
    }

    /// Runs `f` in a write transaction on the blocking pool and commits.
    /// Changes stored mail in one transaction (logged as the mailbox's).
    pub async fn write<T: Send + 'static>(
        &self,
        f: impl FnOnce(MailWrite) -> anyhow::Result<T> + Send + 'static,
    ) -> anyhow::Result<T> {
        mstore::write(&self.store, Reason::Sync, f).await
    }

    /// Reads stored mail on the blocking pool.
    pub async fn read<T: Send + 'static>(
        &self,
        f: impl FnOnce(MailRead) -> anyhow::Result<T> + Send + 'static,
    ) -> anyhow::Result<T> {
        let store = self.store.clone();
        tokio::task::spawn_blocking(move || f(MailRead::new(&store)?)).await?
    }

    pub async fn save_folder(&self, state: &FolderState) -> anyhow::Result<()> {
        let account = self.account_id;
        let state = state.clone();
        self.write(move |w| w.save_folder(account, &state)).await
    }

    /// Parses, judges and packs a batch on the blocking pool, starting now: a walk parses a
    /// chunk while the chunk before it is still being written and committed (the commit waits
    /// for the disk, and the cores would idle), then hands it to [`Self::spawn_store_parsed`].
    pub fn spawn_parse(&self, state: &FolderState, batch: Vec<Fetched>) -> Parsing {
        let judge = self.shared.screen.get().cloned().and_then(|screen| {
            let first_sync = !self.status.lock().expect("status").initial_sync_done;
            let batch = screen::Batch {
                account: self.account_id,
                user_id: self.user_id,
                role: &state.role,
                first_sync,
            };
            screen.judge_for(&self.store, &batch)
        });
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

    fn set_state(&self, state: &str) {
        let changed = {
            let mut s = self.status.lock().expect("status");
            let changed = s.state != state;
            s.state = state.into();
            s.fetched_messages = self.fetched_messages.load(Ordering::Relaxed);
            s.fetched_bytes = self.fetched_bytes.load(Ordering::Relaxed);
            changed
        };
        if changed {
            self.status_changed();
        }
    }

    /// Tells the live channel that `status` changed (the settings page shows it).
    fn status_changed(&self) {
        let _ = self.shared.events.send(SyncEvent::Status {
            user_id: self.user_id,
            account_id: self.account_id,
        });
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
    let txn = store.db().begin_write()?;
    // The account may have been logged out while this batch was in flight: its mail must not
    // come back.
    if !crate::accounts::exists_in(&txn, account)? {
        return Ok(0);
    }
    let started = std::time::Instant::now();
    let w = MailWrite::new(&txn, Reason::Sync);
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

/// How long one IDLE command lasts before it is renewed (RFC 2177: servers may drop an IDLE
/// after 30 minutes).
const IDLE_RENEW: Duration = Duration::from_secs(25 * 60);

/// Runs until aborted.
pub async fn run(ctx: Ctx, account: AccountRecord, wake: Arc<Notify>) {
    let mut backoff = Duration::from_secs(1);
    if account.needs_sign_in {
        return wait_for_sign_in(&ctx).await;
    }
    loop {
        ctx.set_state("connecting");
        let started = std::time::Instant::now();
        match session_loop(&ctx, &account, &wake).await {
            Ok(()) => return,
            Err(e) if crate::oauth::sign_in_needed(&e) => {
                return wait_for_sign_in(&ctx).await;
            }
            Err(e) => {
                // A response past the cap is told in words, like a failure to connect.
                let endpoint = account.imap_endpoint(ctx.shared.timeout, &ctx.shared.hosts);
                let capped = imap::session_error(&endpoint, &e);
                let mail = e
                    .downcast_ref::<crate::mail::net::MailError>()
                    .or(capped.as_ref());
                let (kind, message) = match mail {
                    Some(m) => (
                        Some(format!("{:?}", m.kind).to_lowercase()),
                        m.message.clone(),
                    ),
                    None => (None, format!("{e:#}")),
                };
                tracing::warn!(account = ctx.account_id, error = %format!("{e:#}"), retry_in = ?backoff, "sync failed");
                let first = {
                    let mut s = ctx.status.lock().expect("status");
                    // `state` is "connecting" on every retry; the kept error tells a repeat.
                    let first = s.error.as_deref() != Some(message.as_str());
                    s.state = "error".into();
                    s.error = Some(message.clone());
                    s.error_kind = kind.clone();
                    s.next_retry_at = Some(
                        time::OffsetDateTime::now_utc().unix_timestamp() + backoff.as_secs() as i64,
                    );
                    first
                };
                ctx.status_changed();
                // Once per distinct failure, not on every retry.
                if first {
                    let _ = ctx.shared.events.send(SyncEvent::Failed {
                        user_id: ctx.user_id,
                        account_id: ctx.account_id,
                        kind,
                        message,
                    });
                }
                tokio::select! {
                    () = tokio::time::sleep(backoff) => {}
                    () = wake.notified() => {}
                }
                // A session that lasted a while was a success that later broke: start the
                // backoff over.
                if started.elapsed() > Duration::from_secs(60) {
                    backoff = Duration::from_secs(1);
                } else {
                    backoff = (backoff * 2).min(ctx.shared.max_backoff);
                }
            }
        }
    }
}

/// The provider refused the account's refresh token: the status says so in Hebrew, the user
/// hears it once, and the task waits without retrying (a new sign-in restarts it).
async fn wait_for_sign_in(ctx: &Ctx) {
    tracing::info!(
        account = ctx.account_id,
        "sync waits for a new OAuth sign-in"
    );
    let first = {
        let mut s = ctx.status.lock().expect("status");
        let first = s.error_kind.as_deref() != Some(SIGN_IN_NEEDED);
        s.state = "error".into();
        s.error = Some(crate::messages::OAUTH_SIGN_IN_NEEDED.into());
        s.error_kind = Some(SIGN_IN_NEEDED.into());
        s.next_retry_at = None;
        first
    };
    ctx.status_changed();
    if first {
        let _ = ctx.shared.events.send(SyncEvent::Failed {
            user_id: ctx.user_id,
            account_id: ctx.account_id,
            kind: Some(SIGN_IN_NEEDED.into()),
            message: crate::messages::OAUTH_SIGN_IN_NEEDED.into(),
        });
    }
    std::future::pending::<()>().await;
}

/// The sync status's `errorKind` while an OAuth account waits for a new sign-in.
pub const SIGN_IN_NEEDED: &str = "oauth_sign_in_needed";

async fn session_loop(ctx: &Ctx, account: &AccountRecord, wake: &Notify) -> anyhow::Result<()> {
    let endpoint = account.imap_endpoint(ctx.shared.timeout, &ctx.shared.hosts);
    let mut session = ctx
        .shared
        .oauth
        .imap(&ctx.shared.tls, &endpoint, account)
        .await?;
    let limit = ctx.limit();
    let caps = deadline(limit, "CAPABILITY", session.capabilities()).await?;
    let folder_caps = FolderCaps {
        condstore: caps.has_str("CONDSTORE"),
        esearch: caps.has_str("ESEARCH"),
    };
    let can_idle = caps.has_str("IDLE");
    ctx.status.lock().expect("status").idle = can_idle;
    let moves = MoveCaps {
        move_command: caps.has_str("MOVE"),
        uidplus: caps.has_str("UIDPLUS"),
        create_special_use: caps.has_str("CREATE-SPECIAL-USE"),
    };
    loop {
        ctx.set_state("syncing");
        // Listed on every pass: a folder made or removed by another client (or by a rule's
        // target being created there) is seen without reconnecting. LIST is one round trip.
        let mut folders = list_folders(ctx, &mut session).await?;
        if push_pending(ctx, &mut session, &moves).await? {
            // A folder was created for a move: list again so it is synced too.
            folders = list_folders(ctx, &mut session).await?;
        }
        for name in &folders {
            match sync_one(ctx, &mut session, name, folder_caps).await {
                Ok(_) => {}
                // One folder the server refuses (no rights, gone since LIST) must not stop
                // the others.
                Err(e) if refused(&e) => {
                    tracing::warn!(account = ctx.account_id, folder = %name, error = %format!("{e:#}"), "folder skipped");
                }
                Err(e) => return Err(e),
            }
        }
        // Mail that reached INBOX while the other folders synced is not reported by IDLE
        // (it is older than the IDLE command): look once more before waiting.
        if folders.len() > 1 {
            sync_one(ctx, &mut session, &folders[0], folder_caps).await?;
        }
        {
            let mut s = ctx.status.lock().expect("status");
            s.last_sync = Some(time::OffsetDateTime::now_utc().unix_timestamp());
            s.error = None;
            s.error_kind = None;
            s.next_retry_at = None;
            s.initial_sync_done = true;
        }
        ctx.set_state("idle");
        let _ = ctx.shared.events.send(SyncEvent::Synced {
            user_id: ctx.user_id,
            account_id: ctx.account_id,
        });

        // Wait for something to do. New INBOX mail is synced at once: IDLE reports it, or,
        // on a server without IDLE, the scheduler's INBOX poll asks. A wake (a refresh, local
        // changes to push, the scheduler's full pass) goes round to a full pass.
        let inbox = folders.first().cloned().unwrap_or_else(|| "INBOX".into());
        loop {
            let new_mail = if can_idle {
                deadline(limit, "SELECT", session.select(&inbox)).await?;
                let mut idle = session.idle();
                deadline(limit, "IDLE", idle.init()).await?;
                let (response, woken) = {
                    let (wait, stop) = idle.wait_with_timeout(IDLE_RENEW);
                    tokio::pin!(wait);
                    tokio::select! {
                        r = &mut wait => (r?, false),
                        () = wake.notified() => {
                            drop(stop);
                            (wait.await?, true)
                        }
                    }
                };
                session = deadline(limit, "DONE", idle.done()).await?;
                if woken {
                    break;
                }
                matches!(response, IdleResponse::NewData(_))
            } else {
                tokio::select! {
                    () = wake.notified() => break,
                    () = ctx.inbox_poll.notified() => true,
                }
            };
            if new_mail {
                ctx.set_state("syncing");
                sync_one(ctx, &mut session, &inbox, folder_caps).await?;
                ctx.set_state("idle");
            }
            // Drain what the server said unasked; the next sync reads the real state anyway.
            while session.unsolicited_responses.try_recv().is_ok() {}
        }
        while session.unsolicited_responses.try_recv().is_ok() {}
    }
}

async fn sync_one(
    ctx: &Ctx,
    session: &mut imap::ImapSession,
    name: &str,
    caps: FolderCaps,
) -> anyhow::Result<FolderOutcome> {
    let account = ctx.account_id;
    let n = name.to_string();
    let state = ctx
        .read(move |r| r.folder(account, &n))
        .await?
        .unwrap_or_else(|| FolderState {
            name: name.to_string(),
            ..FolderState::default()
        });
    let outcome = folder::sync_folder(ctx, session, state, caps).await?;
    Ok(outcome)
}

/// LIST: every selectable folder with its role from SPECIAL-USE, or from its common name when
/// the server has no SPECIAL-USE. INBOX first so it fills first.
async fn list_folders(ctx: &Ctx, session: &mut imap::ImapSession) -> anyhow::Result<Vec<String>> {
    let limit = ctx.limit();
    let names: Vec<_> = deadline(limit, "LIST", async {
        session
            .list(Some(""), Some("*"))
            .await?
            .try_collect::<Vec<_>>()
            .await
    })
    .await?;
    // (name, role from SPECIAL-USE, role guessed from the name)
    let mut found = Vec::new();
    for n in &names {
        if n.attributes()
            .iter()
            .any(|a| matches!(a, NameAttribute::NoSelect))
        {
            continue;
        }
        let special = n.attributes().iter().find_map(|a| match a {
            NameAttribute::Sent => Some("sent"),
            NameAttribute::Drafts => Some("drafts"),
            NameAttribute::Junk => Some("junk"),
            NameAttribute::Trash => Some("trash"),
            NameAttribute::Archive => Some("archive"),
            _ => None,
        });
        found.push((n.name().to_string(), special, role_by_name(n.name())));
    }
    let folders = assign_roles(found);
    let account = ctx.account_id;
    let list = folders.clone();
    ctx.write(move |w| {
        for (name, role) in &list {
            let mut state = w.folder(account, name)?.unwrap_or_else(|| FolderState {
                name: name.clone(),
                ..FolderState::default()
            });
            state.display_name = mutf7::decode(name);
            state.role = role.clone();
            w.save_folder(account, &state)?;
        }
        Ok(())
    })
    .await?;
    Ok(folders.into_iter().map(|(n, _)| n).collect())
}

/// One folder per role, so moves never go to a user's `Clients/Junk`: a SPECIAL-USE folder
/// wins; a name guess counts only for a role no folder is marked with, and only at the top
/// level (or directly under INBOX). INBOX first so it fills first.
pub fn assign_roles(
    found: Vec<(String, Option<&'static str>, &'static str)>,
) -> Vec<(String, String)> {
    let mut sorted = found;
    sorted.sort_by(|a, b| a.0.cmp(&b.0));
    let marked: std::collections::HashSet<&str> = sorted.iter().filter_map(|f| f.1).collect();
    let mut taken = std::collections::HashSet::new();
    let mut out = Vec::new();
    for (name, special, guessed) in &sorted {
        let top_level = {
            let rest = name
                .strip_prefix("INBOX.")
                .or_else(|| name.strip_prefix("INBOX/"))
                .unwrap_or(name);
            !rest.contains(['/', '.'])
        };
        let role = match special {
            Some(r) => Some(*r),
            None if *guessed == "inbox" => Some("inbox"),
            None if !guessed.is_empty() && top_level && !marked.contains(guessed) => Some(*guessed),
            None => None,
        };
        let role = role.filter(|r| taken.insert(*r)).unwrap_or("");
        out.push((name.clone(), role.to_string()));
    }
    out.sort_by_key(|(name, role)| (role != "inbox", name.clone()));
    out
}

/// What the server offers for moving mail.
pub struct MoveCaps {
    pub move_command: bool,
    pub uidplus: bool,
    pub create_special_use: bool,
}

/// Writes local changes (flags, triage keywords, moves) to the server, then forgets them.
/// Returns whether a folder was created.
async fn push_pending(
    ctx: &Ctx,
    session: &mut imap::ImapSession,
    caps: &MoveCaps,
) -> anyhow::Result<bool> {
    let account = ctx.account_id;
    let (ops, roles) = ctx
        .read(move |r| Ok((r.pending(account)?, r.roles(account)?)))
        .await?;
    let limit = ctx.limit();
    let mut created = false;
    let mut roles = roles;
    // Identical changes in one folder go out together, as UID sets: a bulk action on a
    // thousand mails is a few commands, not a thousand SELECT + STORE round trips.
    let mut groups: std::collections::BTreeMap<String, Vec<(u64, mstore::PendingFlags)>> =
        Default::default();
    for (id, op) in ops {
        let mut shape = op.clone();
        shape.uid = 0;
        groups
            .entry(serde_json::to_string(&shape)?)
            .or_default()
            .push((id, op));
    }
    for (_, group) in groups {
        let op = &group[0].1;
        let mut target = op
            .move_to
            .as_ref()
            .and_then(|to| match to.strip_prefix("folder:") {
                Some(name) => Some(name.to_string()),
                None => roles.get(to).cloned(),
            });
        if target.is_none() && op.create_target && op.move_to.as_deref() == Some("archive") {
            match create_archive(session, caps, limit).await {
                Ok(name) => {
                    roles.insert("archive".into(), name.clone());
                    target = Some(name);
                    created = true;
                }
                Err(e) if refused(&e) => {
                    tracing::warn!(account, error = %format!("{e:#}"), "cannot create an Archive folder");
                }
                Err(e) => return Err(e),
            }
        }
        for chunk in group.chunks(UID_SET_MAX) {
            let uids: Vec<u32> = chunk.iter().map(|(_, op)| op.uid).collect();
            let moved = match push_group(session, op, &uids, target.as_deref(), caps, limit).await {
                Ok(moved) => moved,
                // The server refused (folder gone, read-only): these changes cannot be made;
                // drop them rather than fail every sync after. Connection errors still fail
                // the session.
                Err(e) if refused(&e) => {
                    tracing::warn!(account, error = %format!("{e:#}"), "change refused by the server; dropped");
                    false
                }
                Err(e) => return Err(e),
            };
            // Mail hidden while its move was pending comes back when the move did not
            // happen (refused, no such folder, renumbered folder): never lost from view.
            if op.move_to.is_some() && !moved {
                let ids: Vec<u64> = chunk.iter().map(|(id, _)| *id).collect();
                ctx.write(move |w| {
                    for id in ids {
                        w.unhide(id)?;
                    }
                    Ok(())
                })
                .await?;
            }
            // Forget a change only if it is still the one pushed: a newer one made meanwhile
            // must go out on the next pass.
            let done: Vec<(u64, mstore::PendingFlags)> = chunk.to_vec();
            ctx.write(move |w| w.forget_pushed(account, &done)).await?;
        }
    }
    Ok(created)
}

/// UIDs per STORE or MOVE command (keeps command lines well under server limits).
const UID_SET_MAX: usize = 500;

/// Creates "Archive" (marked \Archive where the server lets a client say so).
async fn create_archive(
    session: &mut imap::ImapSession,
    caps: &MoveCaps,
    limit: Duration,
) -> anyhow::Result<String> {
    let command = if caps.create_special_use {
        "CREATE Archive (USE (\\Archive))"
    } else {
        "CREATE Archive"
    };
    deadline(limit, "CREATE", session.run_command_and_check_ok(command)).await?;
    let _ = deadline(limit, "SUBSCRIBE", session.subscribe("Archive")).await;
    Ok("Archive".into())
}

/// Applies one shape of change to messages of one folder. Returns whether they were moved.
async fn push_group(
    session: &mut imap::ImapSession,
    op: &mstore::PendingFlags,
    uids: &[u32],
    target: Option<&str>,
    caps: &MoveCaps,
    limit: Duration,
) -> anyhow::Result<bool> {
    let mailbox = deadline(limit, "SELECT", session.select(&op.folder)).await?;
    if mailbox.uid_validity != Some(op.uidvalidity) {
        return Ok(false);
    }
    let set = uid_list(uids);
    for (flag, value) in [("\\Seen", op.seen), ("\\Flagged", op.flagged)] {
        let Some(value) = value else { continue };
        let sign = if value { "+" } else { "-" };
        store_flags(
            session,
            &set,
            &format!("{sign}FLAGS.SILENT ({flag})"),
            limit,
        )
        .await?;
    }
    if let Some(wanted) = &op.keywords {
        let remove: Vec<&str> = keywords::managed()
            .filter(|k| !wanted.iter().any(|w| w.eq_ignore_ascii_case(k)))
            .collect();
        let mut commands = vec![format!("-FLAGS.SILENT ({})", remove.join(" "))];
        if !wanted.is_empty() {
            commands.push(format!("+FLAGS.SILENT ({})", wanted.join(" ")));
        }
        for command in commands {
            match store_flags(session, &set, &command, limit).await {
                Ok(()) => {}
                // A server without keywords keeps the status local only; the move still goes.
                Err(e) if refused(&e) => {
                    tracing::debug!(error = %format!("{e:#}"), "keywords refused");
                }
                Err(e) => return Err(e),
            }
        }
    }
    if !op.add_keywords.is_empty() {
        let command = format!("+FLAGS.SILENT ({})", op.add_keywords.join(" "));
        match store_flags(session, &set, &command, limit).await {
            Ok(()) => {}
            Err(e) if refused(&e) => {
                tracing::debug!(error = %format!("{e:#}"), "labels refused");
            }
            Err(e) => return Err(e),
        }
    }
    if let Some(target) = target
        && target != op.folder
    {
        if caps.move_command {
            deadline(limit, "MOVE", session.uid_mv(&set, target)).await?;
        } else {
            deadline(limit, "COPY", session.uid_copy(&set, target)).await?;
            expunge_uids(session, uids, caps.uidplus, limit).await?;
        }
        return Ok(true);
    }
    Ok(false)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn roles(found: &[(&str, Option<&'static str>)]) -> Vec<(String, String)> {
        let mut out = assign_roles(
            found
                .iter()
                .map(|(n, s)| (n.to_string(), *s, role_by_name(n)))
                .collect(),
        );
        out.sort();
        out
    }

    fn pair(n: &str, r: &str) -> (String, String) {
        (n.to_string(), r.to_string())
    }

    #[test]
    fn special_use_wins_and_nested_names_never_take_a_role() {
        assert_eq!(
            roles(&[
                ("INBOX", None),
                ("Clients/Junk", None),
                ("Junk", Some("junk")),
                ("Old/Trash", None),
                ("Deleted Items", None),
                ("Trash", None),
            ]),
            [
                pair("Clients/Junk", ""),
                pair("Deleted Items", "trash"),
                pair("INBOX", "inbox"),
                pair("Junk", "junk"),
                pair("Old/Trash", ""),
                pair("Trash", ""),
            ]
        );
        // A name guess for a role some folder is marked with is ignored; INBOX.-style servers
        // keep their folders under INBOX.
        assert_eq!(
            roles(&[
                ("INBOX", None),
                ("INBOX.Spam", None),
                ("Bulk", Some("junk"))
            ]),
            [
                pair("Bulk", "junk"),
                pair("INBOX", "inbox"),
                pair("INBOX.Spam", "")
            ]
        );
        assert_eq!(
            roles(&[("INBOX", None), ("INBOX.Spam", None)]),
            [pair("INBOX", "inbox"), pair("INBOX.Spam", "junk")]
        );
    }
}
