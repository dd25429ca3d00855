//! The application: the list of every feature ([`FEATURES`]), and what is built by walking it:
//! the state with every feature's services and the seams (`state`), the background work, the
//! forget steps and backup sections, the wire contract and the router. Tests drive `app()` with
//! `oneshot`; `serve` binds it to a socket.

use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use tower_http::trace::TraceLayer;

use crate::config::Config;
use crate::crypto::ServerKey;
use crate::feature::{BackupSection, Feature, Registry, Setup};
use crate::forget::{Forget, Step};
use crate::hooks::Hooks;
use crate::jobs::Spec;
use crate::mail::hosts::HostPolicy;
use crate::mail::tls::TlsContext;
use crate::mailstore::ChangeFeed;
use crate::state::{Jobs, Mailboxes};
use crate::store::Store;
use crate::{
    accounts, ai, auth, autoreply, backup, builder, contacts, emails, folders, followups,
    household, http, import, invites, labels, live, mcp, oauth, outgoing, push, rules, search,
    settings, smart, snooze, spam, subscriptions, sync, tasks, templates,
};

pub use crate::state::AppState;

/// Every feature, in the order they are set up (a feature's `init` finds what the features
/// before it provide), forgotten (the mail accounts' own records last) and restored from a
/// backup (the preferences first, the AI provider before anything that could call it, the
/// mailboxes last: they start syncing).
pub static FEATURES: &[&Feature] = &[
    &http::FEATURE,
    &auth::FEATURE,
    &settings::FEATURE,
    &live::FEATURE,
    &ai::FEATURE,
    &spam::FEATURE,
    &oauth::FEATURE,
    &sync::FEATURE,
    &import::FEATURE,
    &search::FEATURE,
    &outgoing::FEATURE,
    &emails::FEATURE,
    &folders::FEATURE,
    &templates::FEATURE,
    &smart::FEATURE,
    &household::FEATURE,
    &autoreply::FEATURE,
    &contacts::FEATURE,
    &tasks::FEATURE,
    &labels::FEATURE,
    &rules::FEATURE,
    &invites::FEATURE,
    &mcp::FEATURE,
    &snooze::FEATURE,
    &followups::FEATURE,
    &subscriptions::FEATURE,
    &push::FEATURE,
    &builder::FEATURE,
    &backup::FEATURE,
    &accounts::FEATURE,
];

/// How often the live feed looks at the change log.
const FEED_POLL: Duration = Duration::from_millis(100);

/// Every feature's forget steps, in the list's order.
pub fn forget_steps() -> Vec<&'static Step> {
    FEATURES.iter().flat_map(|f| f.forget.iter()).collect()
}

/// Every feature's backup sections, in the list's order.
pub fn backup_sections() -> Vec<&'static BackupSection> {
    FEATURES.iter().flat_map(|f| f.backup.iter()).collect()
}

/// Forgetting without a running server (the CLI).
pub fn offline_forget() -> Forget {
    Forget::new(forget_steps(), accounts::ids_in, Vec::new())
}

/// The state over an opened, migrated store: every feature set up in the list's order, its
/// services and the seams checked. A feature missing what it needs is an error here, at
/// start-up.
pub fn state(config: Config, store: Store) -> anyhow::Result<AppState> {
    let key = ServerKey::load_or_create(&config.storage.data_dir)?;
    let tls = TlsContext::new(&config.mail.extra_ca_files)?;
    let hosts = HostPolicy::new(&config.mail.allowed_hosts, config.mail.deny_private_ranges);
    let mut setup = Setup {
        config: &config,
        store: &store,
        key: &key,
        tls: &tls,
        hosts: &hosts,
        registry: Registry::default(),
        forget_hooks: Vec::new(),
        current: "app",
    };
    for f in FEATURES {
        setup.current = f.name;
        (f.init)(&mut setup).map_err(|e| e.context(format!("setting up {}", f.name)))?;
    }
    let Setup {
        mut registry,
        forget_hooks,
        ..
    } = setup;
    let jobs: Vec<Spec<AppState>> = FEATURES.iter().flat_map(|f| (f.jobs)(&config)).collect();
    registry.insert(Arc::new(Jobs::new(jobs)), "app")?;
    registry.insert(Arc::new(backup::Sections(backup_sections())), "app")?;
    for f in FEATURES {
        for need in f.needs {
            need(&registry).map_err(|e| e.context(format!("{} cannot start", f.name)))?;
        }
    }
    let hooks = Hooks::from_registry(&registry)?;
    let mailboxes = registry.get::<dyn Mailboxes>()?;
    Ok(AppState {
        mail_timeout: Duration::from_secs(config.mail.timeout_secs),
        mail_hosts: hosts,
        config: Arc::new(config),
        changes: ChangeFeed::new(store.clone())?,
        forget: Arc::new(Forget::new(forget_steps(), accounts::ids_in, forget_hooks)),
        store,
        key,
        tls,
        mailboxes,
        hooks,
        services: Arc::new(registry),
    })
}

/// Prepares every feature before any work starts: the change-log readers take their place,
/// work cut by a restart is released. Inside the runtime.
pub fn prepare(state: &AppState) -> anyhow::Result<()> {
    for f in FEATURES {
        (f.prepare)(state).map_err(|e| e.context(format!("preparing {}", f.name)))?;
    }
    Ok(())
}

/// Prepares every feature and starts the scheduler with every job.
pub async fn start_jobs(state: &AppState) -> anyhow::Result<()> {
    prepare(state)?;
    start_scheduler(state).await
}

/// Starts the scheduler with every job, the jobs that follow new mail woken by the change
/// feed (once the feed runs: [`ChangeFeed::spawn`]).
pub async fn start_scheduler(state: &AppState) -> anyhow::Result<()> {
    state.jobs().start(state).await?;
    crate::emails::arrivals::wake_on_new_mail(state);
    Ok(())
}

/// Starts the background work: the scheduler, the change feed and each feature's long-lived
/// work (the indexer, a sync task per saved account).
pub async fn start_background(state: &AppState) -> anyhow::Result<()> {
    start_jobs(state).await?;
    state.changes.spawn(FEED_POLL);
    for f in FEATURES {
        (f.start)(state).map_err(|e| e.context(format!("starting {}", f.name)))?;
    }
    Ok(())
}

/// The wire contract as TypeScript: every feature's types (`web/src/api/generated.ts`).
pub fn typescript() -> String {
    let cfg = crate::wire::config();
    let parts: Vec<String> = FEATURES.iter().flat_map(|f| (f.wire_types)(&cfg)).collect();
    format!(
        "{}{}\n{}",
        crate::wire::HEADER,
        parts.join("\n"),
        backup_section_names()
    )
}

/// The names of the backup's sections as one TypeScript union, so the web must name each in
/// Hebrew (its map is typed by it: a new section without a Hebrew name fails the typecheck).
fn backup_section_names() -> String {
    let names: Vec<String> = backup_sections()
        .iter()
        .map(|s| format!("\"{}\"", s.name))
        .collect();
    format!("export type BackupSectionName = {};\n", names.join(" | "))
}

/// Every feature's routes with the cross-cutting layers: the per-user limits and the request
/// timeout around the ordinary routes, the security headers and tracing around everything.
pub fn app(state: AppState) -> Router {
    use axum::middleware::{from_fn, from_fn_with_state};
    let timeout = Duration::from_secs(state.config.server.request_timeout_secs);
    let routes = FEATURES
        .iter()
        .filter_map(|f| f.routes)
        .fold(Router::new(), |r, routes| r.merge(routes()));
    let streams = FEATURES
        .iter()
        .filter_map(|f| f.streams)
        .fold(Router::new(), |r, streams| r.merge(streams()));
    routes
        .fallback(http::assets::fallback)
        .layer(from_fn_with_state(state.clone(), auth::limits::per_user))
        .layer(from_fn_with_state(timeout, http::timeout::limit))
        // Added after the timeout: the live channel is long-lived.
        .merge(streams)
        // Inside the security headers: a panic's 500 gets them too.
        .layer(http::panic::layer())
        .layer(from_fn(http::headers::security_headers))
        .layer(http::headers::hsts(state.config.tls_files().is_some()))
        .layer(TraceLayer::new_for_http())
        .with_state(state)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::Overrides;
    use crate::mailstore::{Fetched, FolderState, MailRead, MailWrite, Reason};

    /// A state over a fresh data dir.
    fn new_state(dir: &std::path::Path) -> AppState {
        let overrides = Overrides {
            data_dir: Some(dir.to_path_buf()),
            listen: None,
        };
        let config = Config::from_sources(None, None, &[], &overrides).unwrap();
        let (store, _) = crate::schema::open_and_migrate(dir).unwrap();
        state(config, store).unwrap()
    }

    #[test]
    fn every_feature_is_listed_once() {
        let mut names: Vec<&str> = FEATURES.iter().map(|f| f.name).collect();
        let n = names.len();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), n, "a feature is listed twice");
        // The accounts' own records go last, and the mailboxes are restored last.
        assert_eq!(forget_steps().last().unwrap().name, "mail accounts");
        assert_eq!(backup_sections().last().unwrap().name, "mailboxes");
        let sections: Vec<&str> = backup_sections().iter().map(|s| s.name).collect();
        let at = |name: &str| sections.iter().position(|s| *s == name).unwrap();
        assert!(at("aiProvider") < at("spamDetection") && at("aiProvider") < at("autoReply"));
    }

    /// The seams and services belong to one application: a second one in the same process (the
    /// test harness runs many) learns with its own spam detection, not the first one's.
    #[tokio::test]
    async fn two_apps_in_one_process_are_independent() {
        let (da, db) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
        let a = new_state(da.path());
        let b = new_state(db.path());
        let user = 7;
        let spam_of = |s: &AppState| s.service::<crate::spam::Spam>();
        let cached_a = spam_of(&a).profile(&a.store, user).unwrap();
        let cached_b = spam_of(&b).profile(&b.store, user).unwrap();
        // A mail in b's store, marked as spam there.
        let txn = b.store.begin_write().unwrap();
        let w = MailWrite::new(&txn, Reason::Sync);
        w.save_folder(1, &FolderState::local("INBOX")).unwrap();
        let raw =
            "From: x@spam.test\r\nSubject: cheap pills\r\nMessage-ID: <s1@x>\r\n\r\nbuy now\r\n";
        let mail = Fetched {
            uid: 1,
            flags: Default::default(),
            internal_date: Some(1_700_000_000),
            raw: raw.as_bytes().to_vec(),
            identity: None,
            thread: None,
        };
        w.insert_messages(1, "INBOX", &[mail]).unwrap();
        txn.commit().unwrap();
        let read = MailRead::new(&b.store).unwrap();
        let id = read.account_rows(1).unwrap().next().unwrap().unwrap().id();
        let before = read.meta(id).unwrap().unwrap();
        drop(read);
        let mut after = before.clone();
        after.status = Some("spam".into());
        let txn = b.store.begin_write().unwrap();
        let w = MailWrite::new(&txn, Reason::Status);
        b.hooks.marked(w, user, &before, &after).unwrap();
        txn.commit().unwrap();
        // b's learner dropped b's cached profile (it learned); a's is untouched.
        let again_b = spam_of(&b).profile(&b.store, user).unwrap();
        assert!(
            !Arc::ptr_eq(&cached_b, &again_b),
            "b's marking was not learned by b"
        );
        let again_a = spam_of(&a).profile(&a.store, user).unwrap();
        assert!(Arc::ptr_eq(&cached_a, &again_a), "b's marking reached a");
    }
}
