//! Scheduled send with the real binary: the mail waits in Drafts and the outbox, the server
//! stops and starts again, and the mail still goes out at its time; a cancelled schedule
//! leaves its copy in Drafts as an ordinary draft.

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

async fn outbox(api: &Api) -> Vec<Value> {
    api.get_json("/api/outbox").await["items"]
        .as_array()
        .unwrap()
        .clone()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_scheduled_mail_goes_out_at_its_time_across_a_restart() {
    let ms = MailServer::start();
    let env = BinaryEnv::new(&ms);
    let server = env.start();
    let api = Api::login(&server).await;
    api.connect_synced(&ms, "user1").await;

    // In the past: refused with the spec's kind of message, nothing queued.
    let r = api
        .post(
            "/api/emails/send",
            json!({"to": ["user2@example.test"], "subject": "x", "body": "y",
            "snoozed_until": "2020-01-01T09:00:00+02:00"}),
        )
        .await;
    assert_eq!(r.status(), 400);
    assert_eq!(
        r.json::<Value>().await.unwrap()["message"],
        "מועד התזמון חלף"
    );

    let mail = |subject: &str, when: String| {
        json!({"to": ["user2@example.test"], "subject": subject, "body": "<p>תזכורת לפגישה</p>",
            "snoozed_until": when})
    };
    let r = api.post("/api/emails/send", mail("מתוזמן", at(12))).await;
    assert_eq!(r.status(), 200);
    let v: Value = r.json().await.unwrap();
    assert_eq!(
        (v["scheduled"].as_bool(), v["savedInGmail"].as_bool()),
        (Some(true), Some(true)),
        "{v}"
    );
    let later: Value = api
        .post("/api/emails/send", mail("בעוד שעה", at(3600)))
        .await
        .json()
        .await
        .unwrap();

    // Both wait in Drafts (as \Draft) and in the outbox as scheduled; the drafts list says when.
    assert_eq!(ms.messages("user1", "Drafts").len(), 2);
    let items = outbox(&api).await;
    assert!(items.iter().all(|i| i["state"] == "scheduled"), "{items:?}");
    let drafts = api.get_json("/api/drafts").await;
    assert!(
        drafts["drafts"]
            .as_array()
            .unwrap()
            .iter()
            .all(|d| d["scheduledAt"].is_string()),
        "{drafts}"
    );

    // Cancel the later one: it stays in Drafts as an ordinary draft.
    let r = api
        .client
        .delete(format!(
            "{}/api/outbox/{}",
            api.base,
            later["outboxId"].as_str().unwrap()
        ))
        .header("authorization", &api.token)
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 200);
    assert_eq!(outbox(&api).await.len(), 1);

    // The server goes away before the time and comes back after it.
    drop(server);
    tokio::time::sleep(Duration::from_secs(14)).await;
    assert!(
        ms.messages("user2", "INBOX").is_empty(),
        "nothing went while the server was down"
    );
    let server = env.start();
    let api = Api::login(&server).await;
    let deadline = Instant::now() + Duration::from_secs(40);
    let raw = loop {
        if let Some((_, raw)) = ms.messages("user2", "INBOX").into_iter().next() {
            break raw;
        }
        assert!(
            Instant::now() < deadline,
            "the scheduled mail did not go out"
        );
        tokio::time::sleep(Duration::from_millis(300)).await;
    };
    let m = mail_parser::MessageParser::default().parse(&raw).unwrap();
    assert_eq!(m.subject(), Some("מתוזמן"));
    // Its Drafts copy is gone, the cancelled one stays; it is in Sent; the outbox is empty.
    let deadline = Instant::now() + Duration::from_secs(20);
    while ms.messages("user1", "Drafts").len() != 1 || !outbox(&api).await.is_empty() {
        assert!(
            Instant::now() < deadline,
            "drafts: {}",
            ms.messages("user1", "Drafts").len()
        );
        tokio::time::sleep(Duration::from_millis(300)).await;
    }
    let left = ms.messages("user1", "Drafts");
    let subject = mail_parser::MessageParser::default()
        .parse(&left[0].1)
        .unwrap()
        .subject()
        .map(str::to_string);
    assert_eq!(subject.as_deref(), Some("בעוד שעה"));
    assert_eq!(ms.messages("user1", "Sent").len(), 1);
}
