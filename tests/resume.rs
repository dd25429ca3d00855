//! Crash and restart: the real binary is killed in the middle of its initial sync, restarted,
//! and must finish without fetching again what it already stored; a clean restart afterwards
//! fetches nothing at all. The mail store's change log survives the kill too: after the restart
//! the search index (which follows the log) holds exactly the stored mail.

mod common;

use std::path::PathBuf;
use std::time::{Duration, Instant};

use common::binary_api::{Api, BinaryEnv};
use common::mailserver::MailServer;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_crash_mid_sync_resumes_without_refetching() {
    let ms = MailServer::start();
    let corpus = std::process::Command::new("bash")
        .arg(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("scripts/corpus.sh"))
        .arg("dir")
        .output()
        .unwrap();
    assert!(corpus.status.success());
    let corpus = PathBuf::from(String::from_utf8_lossy(&corpus.stdout).trim().to_string());
    ms.seed("user1", &corpus, "INBOX");
    let on_server = ms.message_count("user1", "INBOX");

    let env = BinaryEnv::new(&ms);

    // First run: connect, let part of the mailbox arrive, then kill -9.
    let server = env.start();
    let api = Api::login(&server).await;
    let r = api
        .client
        .post(server.url("/api/auth/login"))
        .header("authorization", &api.token)
        .json(&ms.account("user1"))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 200);
    let deadline = Instant::now() + Duration::from_secs(60);
    let stored_before_crash = loop {
        let n = api.inbox_total().await;
        if n >= 1000 {
            break n;
        }
        assert!(Instant::now() < deadline, "sync made no progress");
        tokio::time::sleep(Duration::from_millis(20)).await;
    };
    assert!(
        stored_before_crash < on_server,
        "killed before the sync finished"
    );
    drop(server); // SIGKILL

    // Second run: resumes from the saved state.
    let server = env.start();
    let api = Api::login(&server).await;
    let status = api.wait_synced().await;
    assert_eq!(api.inbox_total().await, on_server);
    // Every stored message reached the index through the log, none twice, none lost.
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let v = api.get_json("/api/search?q=in:inbox&perPage=1").await;
        if v["indexing"] == false && v["total"].as_u64() == Some(on_server as u64) {
            break;
        }
        assert!(
            Instant::now() < deadline,
            "the index does not match the store after a kill -9: {v}"
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    let fetched = status["fetchedMessages"].as_u64().unwrap() as usize;
    // At most the chunk that was in flight when killed is fetched twice.
    assert!(
        fetched <= on_server - stored_before_crash + 500,
        "fetched {fetched} after restart; {stored_before_crash} of {on_server} were stored"
    );
    server.stop();

    // Third run, clean: nothing to fetch.
    let server = env.start();
    let api = Api::login(&server).await;
    let status = api.wait_synced().await;
    assert_eq!(status["fetchedMessages"], 0, "{status}");
    assert_eq!(api.inbox_total().await, on_server);
    server.stop();
}
