//! Snooze with the real binary on a real Dovecot + Postfix: a snoozed thread moves to the
//! mailbox's Snoozed folder with its keywords, the server is killed (-9) before its time and
//! started after it, and the thread comes back to INBOX unread and at the top, once (another
//! restart wakes nothing again); a reply delivered to another sleeping thread wakes it at once.

mod common;

use std::time::{Duration, Instant};

use common::binary_api::{Api, BinaryEnv};
use common::mailserver::MailServer;
use serde_json::{Value, json};
use time::OffsetDateTime;
use time::format_description::well_known::Rfc3339;

fn at(secs_from_now: i64) -> String {
    (OffsetDateTime::now_utc() + time::Duration::seconds(secs_from_now))
        .format(&Rfc3339)
        .unwrap()
}

fn raw(id: &str, subject: &str, reply_to: Option<&str>) -> String {
    let refs = reply_to.map_or(String::new(), |r| {
        format!("In-Reply-To: <{r}>\r\nReferences: <{r}>\r\n")
    });
    format!(
        "From: Avi Levi <avi@example.test>\r\nTo: user1@example.test\r\nSubject: {subject}\r\n\
         Message-ID: <{id}>\r\n{refs}Date: {}\r\nContent-Type: text/plain; charset=utf-8\r\n\r\nשלום, מה שלומך?\r\n",
        OffsetDateTime::now_utc()
            .format(&time::format_description::well_known::Rfc2822)
            .unwrap()
    )
}

/// (flags, raw) of the mail in `folder` whose text holds `needle`, if the folder exists.
fn on_server(ms: &MailServer, folder: &str, needle: &str) -> Option<String> {
    let folders = ms.doveadm(&["mailbox", "list", "-u", "user1@example.test"]);
    if !folders.lines().any(|l| l.trim() == folder) {
        return None;
    }
    ms.messages("user1", folder)
        .into_iter()
        .find(|(_, raw)| String::from_utf8_lossy(raw).contains(needle))
        .map(|(flags, _)| flags)
}

async fn until_server(ms: &MailServer, folder: &str, needle: &str, what: &str) -> String {
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        if let Some(flags) = on_server(ms, folder, needle) {
            return flags;
        }
        assert!(Instant::now() < deadline, "{what}");
        tokio::time::sleep(Duration::from_millis(300)).await;
    }
}

async fn threads(api: &Api, folder: &str) -> Vec<Value> {
    api.get_json(&format!("/api/threads/{folder}"))
        .await
        .as_array()
        .unwrap()
        .clone()
}

/// The id of the inbox mail with this subject.
async fn inbox_id(api: &Api, subject: &str) -> String {
    let t = threads(api, "inbox").await;
    let found = t.iter().find(|t| t["subject"] == subject);
    found.unwrap_or_else(|| panic!("{subject} not in {t:?}"))["emails"][0]["id"]
        .as_str()
        .unwrap()
        .to_string()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_snoozed_thread_wakes_at_its_time_across_a_kill_and_a_reply_wakes_another() {
    let ms = MailServer::start();
    ms.deliver(
        "user1@example.test",
        &raw("plan1@example.test", "תוכנית לשבוע", None),
    );
    std::thread::sleep(Duration::from_secs(1));
    ms.deliver(
        "user1@example.test",
        &raw("later1@example.test", "נחזור לזה", None),
    );
    let env = BinaryEnv::new(&ms);
    let server = env.start();
    let api = Api::login(&server).await;
    api.connect_synced(&ms, "user1").await;

    // Bad times are refused in Hebrew; the presets come in the user's zone.
    let plan = inbox_id(&api, "תוכנית לשבוע").await;
    let r = api
        .post(
            "/api/snooze",
            json!({"emailId": plan, "until": "2020-01-01T09:00"}),
        )
        .await;
    assert_eq!(r.status(), 400);
    assert_eq!(
        r.json::<Value>().await.unwrap()["message"],
        "מועד הדחייה כבר עבר"
    );
    let options = api.get_json("/api/snooze/options").await;
    assert!(
        options["nextWeek"].is_string() && options["weekend"].is_string(),
        "{options}"
    );

    // Snoozed for a short while: out of the inbox at once, into Snoozed with its keywords.
    let r = api
        .post("/api/snooze", json!({"emailId": plan, "until": at(25)}))
        .await;
    assert_eq!(r.status(), 200);
    let subjects = |t: Vec<Value>| -> Vec<String> {
        t.iter()
            .map(|t| t["subject"].as_str().unwrap().to_string())
            .collect()
    };
    assert_eq!(subjects(threads(&api, "inbox").await), ["נחזור לזה"]);
    let flags = until_server(&ms, "Snoozed", "plan1@example.test", "moved to Snoozed").await;
    assert!(
        flags.contains("$Snoozed") && flags.contains("$SnoozedUntil-"),
        "{flags}"
    );
    assert!(on_server(&ms, "INBOX", "plan1@example.test").is_none());
    let list = api.get_json("/api/snooze").await;
    assert_eq!(list["snoozed"].as_array().unwrap().len(), 1, "{list}");
    assert_eq!(list["snoozed"][0]["subject"], "תוכנית לשבוע");

    // Killed before its time, started after it.
    drop(server);
    tokio::time::sleep(Duration::from_secs(28)).await;
    assert!(
        on_server(&ms, "INBOX", "plan1@example.test").is_none(),
        "nobody woke it"
    );
    let server = env.start();
    let api = Api::login(&server).await;
    let flags = until_server(&ms, "INBOX", "plan1@example.test", "back in INBOX").await;
    assert!(!flags.contains("\\Seen"), "back unread: {flags}");
    assert!(!flags.contains("$Snoozed"), "{flags}");
    let deadline = Instant::now() + Duration::from_secs(30);
    let inbox = loop {
        let t = subjects(threads(&api, "inbox").await);
        if t.len() == 2 {
            break t;
        }
        assert!(Instant::now() < deadline, "not listed again: {t:?}");
        tokio::time::sleep(Duration::from_millis(300)).await;
    };
    assert_eq!(inbox[0], "תוכנית לשבוע", "at the top");
    let list = api.get_json("/api/snooze").await;
    assert!(list["snoozed"].as_array().unwrap().is_empty(), "{list}");
    assert_eq!(list["woken"][0]["wokeBy"], "time", "{list}");

    // Read now; another restart wakes nothing twice.
    let id = inbox_id(&api, "תוכנית לשבוע").await;
    let r = api
        .client
        .put(format!("{}/api/emails/{id}", api.base))
        .header("authorization", &api.token)
        .json(&json!({"isRead": true}))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 200);
    let deadline = Instant::now() + Duration::from_secs(30);
    while !on_server(&ms, "INBOX", "plan1@example.test")
        .unwrap()
        .contains("\\Seen")
    {
        assert!(Instant::now() < deadline, "read not written");
        tokio::time::sleep(Duration::from_millis(300)).await;
    }
    drop(server);
    let server = env.start();
    let api = Api::login(&server).await;
    api.wait_synced().await;
    tokio::time::sleep(Duration::from_secs(3)).await;
    let flags = on_server(&ms, "INBOX", "plan1@example.test").unwrap();
    assert!(flags.contains("\\Seen"), "woken twice: {flags}");
    let list = api.get_json("/api/snooze").await;
    assert_eq!(list["woken"].as_array().unwrap().len(), 1, "{list}");

    // Another thread, snoozed until tomorrow: a reply wakes it now.
    let later = inbox_id(&api, "נחזור לזה").await;
    let r = api
        .post(
            "/api/snooze",
            json!({"emailId": later, "preset": "tomorrow"}),
        )
        .await;
    assert_eq!(r.status(), 200);
    until_server(&ms, "Snoozed", "later1@example.test", "moved to Snoozed").await;
    ms.deliver(
        "user1@example.test",
        &raw(
            "later2@example.test",
            "Re: נחזור לזה",
            Some("later1@example.test"),
        ),
    );
    let flags = until_server(
        &ms,
        "INBOX",
        "Message-ID: <later1@example.test>",
        "woken by the reply",
    )
    .await;
    assert!(!flags.contains("$Snoozed"), "{flags}");
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let list = api.get_json("/api/snooze").await;
        if list["snoozed"].as_array().unwrap().is_empty() {
            assert_eq!(list["woken"][0]["wokeBy"], "reply", "{list}");
            break;
        }
        assert!(Instant::now() < deadline, "still snoozed: {list}");
        tokio::time::sleep(Duration::from_millis(300)).await;
    }
    assert!(
        ms.messages("user1", "Snoozed").is_empty(),
        "nothing left in Snoozed"
    );
}
