//! Between syncs: the task reconnects after the server goes away; a server without IDLE has its
//! INBOX polled by the scheduler.

use super::*;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sync_reconnects_after_the_server_goes_away() {
    let ms = MailServer::start();
    ms.deliver(
        "user1@example.test",
        "From: a@sender.test\nTo: user1@example.test\nSubject: before the outage\n\nx\n",
    );
    let (app, token) = app_with(&ms).await;
    assert_eq!(connect(&app, &token, ms.account("user1")).await.0, 200);
    wait_synced(&app, &token).await;

    ms.stop();
    eventually(
        Duration::from_secs(20),
        "the outage to be reported",
        || async {
            let (_, v) = app
                .json("GET", "/api/auth/accounts", Some(&token), None)
                .await;
            let sync = &v["accounts"][0]["sync"];
            (sync["state"] == "error" || sync["state"] == "connecting").then_some(())
        },
    )
    .await;
    // Mail stays readable while the server is away.
    assert_eq!(inbox_total(&app, &token).await, 1);

    ms.restart();
    ms.deliver(
        "user1@example.test",
        "From: a@sender.test\nTo: user1@example.test\nSubject: after the outage\n\ny\n",
    );
    eventually(Duration::from_secs(30), "reconnect and sync", || async {
        let page = list(&app, &token, "inbox").await;
        page.iter()
            .any(|e| e["subject"] == "after the outage")
            .then_some(())
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_without_idle_has_its_inbox_polled_by_the_scheduler() {
    // Dovecot announcing everything but IDLE.
    let ms = MailServer::start_with(&[(
        "MAILTEST_IMAP_CAPABILITY",
        "IMAP4rev1 SASL-IR LOGIN-REFERRALS ID ENABLE LITERAL+ NAMESPACE UIDPLUS MOVE \
         SPECIAL-USE CONDSTORE ESEARCH",
    )]);
    // The full pass far away: only the INBOX poll can bring new mail in time.
    let config = ms.config_toml().replace(
        "poll_interval_secs = 10",
        "poll_interval_secs = 3600\ninbox_poll_secs = 5",
    );
    let app = TestApp::with_config(&config);
    let token = app.admin_token("dana", ADMIN_PASSWORD).await;
    assert_eq!(connect(&app, &token, ms.account("user1")).await.0, 200);
    let sync = wait_synced(&app, &token).await;
    assert_eq!(sync["idle"], false, "{sync}");
    ms.deliver("user1@example.test", &small_mail("polled in"));
    eventually(Duration::from_secs(30), "the INBOX poll", || async {
        list(&app, &token, "inbox")
            .await
            .iter()
            .any(|e| e["subject"] == "polled in")
            .then_some(())
    })
    .await;
    let (_, v) = app
        .json("GET", "/api/auth/accounts", Some(&token), None)
        .await;
    assert_eq!(v["accounts"][0]["sync"]["state"], "idle");
}
