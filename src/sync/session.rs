//! One account's sync task: connect, list folders, sync them (INBOX first), then wait in IDLE
//! on INBOX (or sleep when the server has no IDLE) until new mail, a local change to push, a
//! refresh request or the poll interval. The scheduler's INBOX poll also asks an idling server
//! (a NOOP), for servers that report new mail in IDLE late. Any error drops the connection and
//! retries, after a wait `retry.rs` chooses (a throttled mailbox waits longer, a connection the
//! server cut is taken up again without an error shown); all progress is in the store, so a
//! retry or a restart resumes where it stopped.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

use tokio::sync::Notify;

use super::SyncEvent;
use super::ctx::Ctx;
use super::folder::{self, FolderCaps, FolderOutcome, LabelsUnreadable};
use super::idle::{self, Idled};
use super::list_status;
use super::push::{MoveCaps, push_pending};
use super::qresync;
use super::retry::{self, Backoff, Ending, Tell};
use super::roles::list_folders;
use crate::accounts::AccountRecord;
use crate::mail::imap_ops::{deadline, refused};
use crate::mail::{imap, imap_stream};
use crate::mailstore::{FolderState, Identity};

/// How long one IDLE command lasts before it is renewed (RFC 2177: servers may drop an IDLE
/// after 30 minutes).
const IDLE_RENEW: Duration = Duration::from_secs(25 * 60);

/// Runs until aborted.
pub async fn run(ctx: Ctx, account: AccountRecord, wake: Arc<Notify>) {
    let mut backoff = Backoff::new(ctx.shared.throttle_backoff, ctx.shared.max_backoff);
    if account.needs_sign_in {
        return wait_for_sign_in(&ctx).await;
    }
    let mut fallbacks = Fallbacks::default();
    loop {
        ctx.set_state("connecting");
        let started = std::time::Instant::now();
        match session_loop(&ctx, &account, &wake, &mut fallbacks).await {
            Ok(()) => return,
            Err(e) if crate::oauth::sign_in_needed(&e) => {
                return wait_for_sign_in(&ctx).await;
            }
            Err(e) => {
                if e.downcast_ref::<LabelsUnreadable>().is_some() {
                    tracing::warn!(account = ctx.account_id, error = %format!("{e:#}"), "X-GM-LABELS unreadable; asking the flags without them from the next session");
                    fallbacks.no_label_fetch = true;
                }
                let ending = Ending::of(&e);
                let (wait, tell) = backoff.after(ending, started.elapsed());
                tracing::warn!(account = ctx.account_id, error = %format!("{e:#}"), ?ending, retry_in = ?wait, "sync session ended");
                let retry_at = crate::kit::now() + wait.as_secs().max(1) as i64;
                match tell {
                    Tell::Throttled => retry::report_throttled(&ctx, retry_at),
                    // A plain reconnect: the status stays "connecting".
                    Tell::Nothing => {}
                    Tell::Failure => report_failure(&ctx, &account, &e, retry_at),
                }
                tokio::select! {
                    () = tokio::time::sleep(wait) => {}
                    // A wake (a refresh) does not cut a throttled wait short: the provider
                    // asked for it.
                    () = wake.notified(), if tell != Tell::Throttled => {}
                }
            }
        }
    }
}

/// What an account's earlier sessions found its server answers in a form that cannot be read,
/// kept for its later sessions (the session that met it cannot go on, its reply half read).
#[derive(Default)]
struct Fallbacks {
    /// A LIST with LIST-STATUS's RETURN options: the sessions after it list plainly.
    plain_list: bool,
    /// The flags' FETCH with Gmail's X-GM-LABELS: the sessions after it ask the flags alone.
    no_label_fetch: bool,
}

/// A failure the user hears about: the mail error's kind and words when it is one (a response
/// past the cap is told in words, like a failure to connect), else the error itself.
fn report_failure(ctx: &Ctx, account: &AccountRecord, e: &anyhow::Error, retry_at: i64) {
    let endpoint = account.imap_endpoint(ctx.shared.timeout, &ctx.shared.hosts);
    let capped = imap::session_error(&endpoint, e);
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
    // `state` is "connecting" on every retry; the kept error tells a repeat.
    ctx.report_failure(kind, message, Some(retry_at), |s, message, _| {
        s.error.as_deref() == Some(message)
    });
}

/// The provider refused the account's refresh token: the status says so in Hebrew, the user
/// hears it once, and the task waits without retrying (a new sign-in restarts it).
async fn wait_for_sign_in(ctx: &Ctx) {
    tracing::info!(
        account = ctx.account_id,
        "sync waits for a new OAuth sign-in"
    );
    ctx.report_failure(
        Some(SIGN_IN_NEEDED.into()),
        crate::messages::OAUTH_SIGN_IN_NEEDED.into(),
        None,
        |s, _, kind| s.error_kind.as_deref() == kind,
    );
    std::future::pending::<()>().await;
}

/// The sync status's `errorKind` while an OAuth account waits for a new sign-in.
pub const SIGN_IN_NEEDED: &str = "oauth_sign_in_needed";

async fn session_loop(
    ctx: &Ctx,
    account: &AccountRecord,
    wake: &Notify,
    fallbacks: &mut Fallbacks,
) -> anyhow::Result<()> {
    let endpoint = account.imap_endpoint(ctx.shared.timeout, &ctx.shared.hosts);
    let mut session = ctx
        .shared
        .oauth
        .imap(&ctx.shared.tls, &endpoint, account)
        .await?;
    let limit = ctx.limit();
    let caps = deadline(limit, "CAPABILITY", session.capabilities()).await?;
    // COMPRESS=DEFLATE first, so everything after it is compressed; a refusal leaves it plain.
    if caps.has_str("COMPRESS=DEFLATE") {
        match deadline(limit, "COMPRESS", imap_stream::compress(&mut session)).await {
            Ok(()) => {}
            Err(e) if refused(&e) => {}
            Err(e) => return Err(e),
        }
    }
    // QRESYNC is used only once the server said it is enabled; a refusal leaves CONDSTORE.
    let qresync = caps.has_str("QRESYNC")
        && match qresync::enable(&mut session, limit).await {
            Ok(enabled) => enabled,
            Err(e) if refused(&e) => false,
            Err(e) => return Err(e),
        };
    let folder_caps = FolderCaps {
        condstore: caps.has_str("CONDSTORE"),
        esearch: caps.has_str("ESEARCH"),
        qresync,
        gmail_ext: caps.has_str("X-GM-EXT-1"),
        identity: None,
        gmail_labels: caps.has_str("X-GM-EXT-1") && !fallbacks.no_label_fetch,
    };
    let pattern = list_status::pattern(
        caps.has_str("LIST-STATUS") && !fallbacks.plain_list,
        folder_caps.condstore || folder_caps.qresync,
        caps.has_str("SPECIAL-USE"),
    );
    let first_pattern = pattern
        .as_ref()
        .and_then(|_| list_status::pattern_without_status(caps.has_str("SPECIAL-USE")));
    let can_idle = caps.has_str("IDLE");
    ctx.status.lock().expect("status").idle = can_idle;
    let moves = MoveCaps {
        move_command: caps.has_str("MOVE"),
        uidplus: caps.has_str("UIDPLUS"),
        create_special_use: caps.has_str("CREATE-SPECIAL-USE"),
    };
    // Whether a folder has a last pass a STATUS can be compared with: read until one has, then
    // kept for the session (without LIST-STATUS no read of the folders on every pass for it).
    let mut comparable = false;
    loop {
        ctx.set_state("syncing");
        // Listed on every pass: a folder made or removed by another client (or by a rule's
        // target being created there) is seen without reconnecting. LIST is one round trip,
        // and with LIST-STATUS it also says which folders changed since the last pass.
        // STATUS answers are of use only to folders whose last pass they can be compared with:
        // on an account's first pass none has one, and LIST-STATUS would only make the server
        // open every folder before the first page (Dovecot's STATUS of a 1,000,000-message
        // INBOX took 1.25 s of it).
        // The folders as the last pass left them: whether one is comparable, and (below) the
        // INBOX to sync before a LIST that asks STATUS.
        let last = if !comparable || pattern.is_some() {
            let account = ctx.account_id;
            let states = ctx.read(move |r| r.folders(account)).await?;
            comparable |= states.iter().any(list_status::comparable);
            states
        } else {
            Vec::new()
        };
        let pattern = if comparable {
            pattern.as_deref()
        } else {
            first_pattern.as_deref()
        };
        // INBOX is synced (its SELECT) before a LIST that asks each folder's STATUS: Dovecot
        // then answers INBOX's STATUS from the selected folder. On fresh sessions to a
        // 1,000,000-message INBOX, SELECT then LIST-STATUS took it 0.07 + 0.005 s, LIST-STATUS
        // then SELECT 1.5 + 1.5 s. When nothing else changed, the same round trips in another
        // order, the SELECT being the one IDLE needs; a pass that pushes or syncs another folder
        // selects INBOX once more at its end, as below.
        let inbox_first = match (comparable, pattern) {
            (true, Some(_)) => inbox_to_sync_first(&last)
                .map(|name| (name, gmail_identity(&last, folder_caps.gmail_ext))),
            _ => None,
        };
        // Whether the last folder selected was INBOX: IDLE then needs no SELECT of its own.
        let mut inbox_selected = false;
        if let Some((name, identity)) = &inbox_first {
            let caps = FolderCaps {
                identity: *identity,
                ..folder_caps
            };
            match sync_one(ctx, &mut session, name, caps).await {
                Ok(_) => inbox_selected = true,
                Err(e) if refused(&e) => {
                    tracing::warn!(account = ctx.account_id, folder = %name, error = %format!("{e:#}"), "folder skipped");
                }
                Err(e) => return Err(e),
            }
        }
        let plain_list = &mut fallbacks.plain_list;
        // Whether the server announced a change to the selected folder (INBOX, synced above)
        // in its answers to the LIST or the STATUS commands, which read them.
        let mut announced = false;
        let (mut folders, mut statuses) =
            listed(ctx, &mut session, pattern, plain_list, &mut announced).await?;
        let pushed = push_pending(ctx, &mut session, &moves).await?;
        if pushed.created {
            // A folder was created for a move: list again so it is synced too.
            (folders, statuses) =
                listed(ctx, &mut session, pattern, plain_list, &mut announced).await?;
        }
        if pushed.any {
            // What was pushed moved the server's folders on after the LIST: every folder is
            // looked at this pass (a mail moved elsewhere must show there now).
            statuses.clear();
            inbox_selected = false;
        }
        // INBOX synced before the LIST, nothing pushed since: its STATUS (of the selected
        // folder, RFC 3501 says not to trust it) is not read; mail come since is announced
        // unasked (`announced`, or still queued), and then INBOX is synced before IDLE.
        let inbox_done = inbox_first
            .map(|(name, _)| name)
            .filter(|name| inbox_selected && folders.first() == Some(name));
        let account = ctx.account_id;
        let states = ctx.read(move |r| r.folders(account)).await?;
        if statuses.is_empty() && !pushed.any && (folder_caps.condstore || folder_caps.qresync) {
            // No LIST-STATUS (or the server refused it): the folders that could be skipped are
            // asked their STATUS together, one round trip for all. INBOX is left out: it is
            // selected for IDLE anyway (and may be selected now, whose STATUS may be stale).
            let asked: Vec<String> = folders
                .iter()
                .skip(1)
                .filter(|n| {
                    states
                        .iter()
                        .any(|s| &s.name == *n && list_status::comparable(s))
                })
                .cloned()
                .collect();
            if asked.len() >= 2 {
                let announced = &mut announced;
                list_status::pipelined(&mut session, limit, &asked, &mut statuses, announced)
                    .await?;
            }
        }
        let folder_caps = FolderCaps {
            identity: gmail_identity(&states, folder_caps.gmail_ext),
            ..folder_caps
        };
        let unchanged = |name: &String| {
            if inbox_done.as_ref() == Some(name) {
                return states.iter().find(|f| &f.name == name);
            }
            let state = states.iter().find(|f| &f.name == name)?;
            let status = statuses.get(name)?;
            let due = folder_caps.labels_due(state);
            (list_status::unchanged(state, status) && !due).then_some(state)
        };
        // Whether a folder after INBOX was synced (time passed since INBOX was looked at).
        let mut others_synced = false;
        for name in &folders {
            if let Some(state) = unchanged(name) {
                // What its last SELECT said of keywords still holds (the task's list of folders
                // whose statuses stay local is rebuilt after a restart from these).
                ctx.note_keywords(state);
                continue;
            }
            inbox_selected = false;
            others_synced |= name != &folders[0];
            match sync_one(ctx, &mut session, name, folder_caps).await {
                Ok(_) => inbox_selected = name == &folders[0],
                // One folder the server refuses (no rights, gone since LIST) must not stop
                // the others.
                Err(e) if refused(&e) => {
                    tracing::warn!(account = ctx.account_id, folder = %name, error = %format!("{e:#}"), "folder skipped");
                }
                Err(e) => return Err(e),
            }
        }
        // Mail that reached INBOX while the other folders synced is not reported by IDLE
        // (it is older than the IDLE command): look once more before waiting. The same when
        // INBOX was skipped as unchanged: mail may have come since the LIST, and the SELECT
        // that IDLE needs costs the same round trip.
        let came_since =
            inbox_done.is_some() && !others_synced && (announced_change(&mut session) || announced);
        if others_synced || came_since || (!inbox_selected && !folders.is_empty()) {
            sync_one(ctx, &mut session, &folders[0], folder_caps).await?;
            inbox_selected = true;
        }
        {
            let mut s = ctx.status.lock().expect("status");
            s.last_sync = Some(crate::kit::now());
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
                if !inbox_selected {
                    deadline(limit, "SELECT", session.select(&inbox)).await?;
                    inbox_selected = true;
                }
                let stop = async {
                    tokio::select! {
                        () = wake.notified() => IdleEnd::Wake,
                        () = ctx.inbox_poll.notified() => IdleEnd::Check,
                    }
                };
                match idle::idle(&mut session, limit, IDLE_RENEW, stop).await? {
                    Idled::Stopped {
                        by: IdleEnd::Wake, ..
                    } => break,
                    Idled::Stopped {
                        by: IdleEnd::Check,
                        changed,
                    } => {
                        deadline(limit, "NOOP", session.noop()).await?;
                        announced_change(&mut session) || changed
                    }
                    // A server that ended the IDLE itself may have meant anything: INBOX is
                    // synced (one round trip with QRESYNC), then the loop idles again.
                    Idled::Changed | Idled::EndedByServer => true,
                    Idled::Renew => false,
                }
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

/// `list_folders`; a LIST with RETURN options whose reply could not be read sets `plain_list`
/// for the sessions after this one (a server adding extended data async-imap does not parse).
async fn listed(
    ctx: &Ctx,
    session: &mut imap::ImapSession,
    pattern: Option<&str>,
    plain_list: &mut bool,
    selected_changed: &mut bool,
) -> anyhow::Result<(Vec<String>, HashMap<String, list_status::ListedStatus>)> {
    let result = list_folders(ctx, session, pattern, selected_changed).await;
    if let Err(e) = &result
        && pattern.is_some()
        && list_status::unreadable(e)
    {
        tracing::warn!(account = ctx.account_id, error = %format!("{e:#}"), "LIST-STATUS reply unreadable; listing plainly from the next session");
        *plain_list = true;
    }
    result
}

/// What stopped an IDLE on the client's side.
enum IdleEnd {
    /// A wake: a refresh, local changes to push or the full pass.
    Wake,
    /// The scheduler's INBOX poll. Some servers report new mail in IDLE late (Courier as Debian
    /// ships it looks every 60 s), so at each poll a NOOP asks, one round trip, and the mail
    /// shows within `inbox_poll_secs` on every server.
    Check,
}

/// Whether the responses the server sent unasked (to the NOOP) announce a change to INBOX: new
/// mail, or mail expunged (`EXPUNGE`, or QRESYNC's `VANISHED`: the INBOX sync then reads the
/// expunges from its SELECT's `VANISHED (EARLIER)`, one round trip). Drains them.
fn announced_change(session: &mut imap::ImapSession) -> bool {
    let mut changed = false;
    while let Ok(r) = session.unsolicited_responses.try_recv() {
        changed |= list_status::announces_change(&r);
    }
    changed
}

/// The INBOX a pass syncs before its LIST, when its last pass left a state to resume from
/// (the initial download of a new account waits for the LIST's roles).
fn inbox_to_sync_first(states: &[FolderState]) -> Option<String> {
    let inbox = states.iter().find(|s| s.role == "inbox")?;
    list_status::comparable(inbox).then(|| inbox.name.clone())
}

/// How the mailbox's copies of one mail are recognised when it is Gmail-shaped (it has a
/// `\All` folder): Gmail's own ids where X-GM-EXT-1 is offered, else Message-ID and size.
fn gmail_identity(folders: &[FolderState], gmail_ext: bool) -> Option<Identity> {
    folders.iter().any(|f| f.all_mail).then_some(if gmail_ext {
        Identity::GmailMsgId
    } else {
        Identity::MessageIdSize
    })
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
