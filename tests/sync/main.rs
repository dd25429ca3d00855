//! The mailbox connection and the sync engine against a real Dovecot + Postfix
//! (scripts/mail-test-server.sh), driven through the HTTP API in process.

#[path = "../common/mod.rs"]
mod common;

use std::path::PathBuf;
use std::time::{Duration, Instant};

use common::TestApp;
use common::mailflow::*;
use common::mailserver::MailServer;
use serde_json::{Value, json};

mod connect;
mod fetching;
mod gmail;
mod gmail_ext;
mod list_extended;
mod messages;
mod mirror;
mod network;
mod outlook;
mod speaks_gmail;
mod status_pipelined;
mod waiting;

/// A directory of raw messages for `MailServer::seed`, named so they load in order.
fn mail_dir(messages: &[String]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for (i, raw) in messages.iter().enumerate() {
        std::fs::write(dir.path().join(format!("{i:03}.eml")), raw).unwrap();
    }
    dir
}

fn small_mail(subject: &str) -> String {
    let id = subject.replace(' ', ".");
    format!(
        "From: a@sender.test\r\nTo: user1@example.test\r\nSubject: {subject}\r\n\
         Message-ID: <{id}@sender.test>\r\nDate: Mon, 3 Mar 2025 10:00:00 +0000\r\n\r\n{subject}\r\n"
    )
}

/// An app on `ms` whose `[mail]` says `poll` where the test servers' config says
/// `poll_interval_secs = 10` (other intervals, other waits).
async fn app_with_mail(ms: &MailServer, poll: &str) -> (TestApp, String) {
    let config = ms.config_toml().replace("poll_interval_secs = 10", poll);
    let app = TestApp::with_config(&config);
    let token = app.admin_token("dana", ADMIN_PASSWORD).await;
    (app, token)
}

/// The flags of user1's INBOX mail as Dovecot holds them, of the mail `search` finds (all when
/// empty: `["header", "Message-ID", id]` picks one).
fn inbox_flags(ms: &MailServer, search: &[&str]) -> String {
    let mut args = vec![
        "fetch",
        "-u",
        "user1@example.test",
        "flags",
        "mailbox",
        "INBOX",
    ];
    args.extend_from_slice(search);
    ms.doveadm(&args)
}

/// The UIDs of a folder as Dovecot holds them.
fn server_uids(ms: &MailServer, user: &str, folder: &str) -> Vec<u32> {
    let out = ms.doveadm(&[
        "-f",
        "flow",
        "fetch",
        "-u",
        &format!("{user}@example.test"),
        "uid",
        "mailbox",
        folder,
    ]);
    out.lines()
        .filter_map(|l| l.trim().strip_prefix("uid=")?.parse().ok())
        .collect()
}

fn fetch_counts(app: &TestApp, account: u64) -> mailclient::sync::FetchCounts {
    app.state
        .service::<mailclient::sync::SyncManager>()
        .fetch_counts(account)
        .expect("the account's task runs")
}
