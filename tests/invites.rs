//! Meeting invitations on a real Dovecot + Postfix: Google Calendar's, Outlook's and
//! Thunderbird's invitations (tests/fixtures/invites) arrive in user1's INBOX and get their
//! card; accepting sends an iTIP REPLY through the outbox and Postfix to the organiser (user2),
//! where Python's `email` and PyPI's `icalendar` (parsers nobody here wrote) read it as a valid
//! REPLY; the update (a higher SEQUENCE) supersedes the first mail and the cancellation marks
//! both; the .ics download and "add to my tasks"; another user's mail is a 404.

mod common;

use std::process::{Command, Stdio};
use std::time::Duration;

use common::mailflow::{eventually, list, second_user, synced_app};
use common::mailserver::MailServer;
use common::{TestApp, body_text};
use serde_json::{Value, json};

fn fixture(name: &str) -> String {
    std::fs::read_to_string(format!(
        "{}/tests/fixtures/invites/{name}",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap()
}

/// Delivers a fixture to user1 and returns its mail id once synced.
async fn arrive(
    app: &TestApp,
    token: &str,
    ms: &MailServer,
    name: &str,
    message_id: &str,
) -> String {
    ms.deliver("user1@example.test", &fixture(name));
    let m = eventually(Duration::from_secs(30), name, || async {
        list(app, token, "inbox")
            .await
            .into_iter()
            .find(|m| m["messageId"] == message_id)
    })
    .await;
    m["id"].as_str().unwrap().to_string()
}

async fn card(app: &TestApp, token: &str, id: &str) -> Value {
    let (s, v) = app
        .json("GET", &format!("/api/invites/{id}"), Some(token), None)
        .await;
    assert_eq!(s, 200, "{v}");
    v["invitation"].clone()
}

/// Answers the invitation in mail `id` as `token`'s user.
async fn reply(app: &TestApp, token: &str, id: &str, body: Value) -> (u16, Value) {
    app.json(
        "POST",
        &format!("/api/invites/{id}/reply"),
        Some(token),
        Some(body),
    )
    .await
}

/// What a calendar client reads in the mail (tests/support/itip_check.py).
fn as_calendar_client(raw: &[u8]) -> Value {
    let venv = std::env::var("MAILCLIENT_TEST_VENV")
        .unwrap_or_else(|_| "/var/tmp/mailclient-test-venv".into());
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/support/itip_check.py");
    let mut child = Command::new(format!("{venv}/bin/python3"))
        .arg(script)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the test venv: run scripts/install-test-deps.sh");
    use std::io::Write;
    child.stdin.take().unwrap().write_all(raw).unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

#[tokio::test(flavor = "multi_thread")]
async fn invitations_are_shown_answered_updated_and_cancelled() {
    let ms = MailServer::start();
    let (app, token) = synced_app(&ms, "user1").await;
    // The fixtures are written by hand: the learned spam filter has no say in this test (the
    // spam detection has its own, tests/spam.rs).
    let (s, v) = app
        .json(
            "POST",
            "/api/settings/spam-detection",
            Some(&token),
            Some(json!({"enabled": false})),
        )
        .await;
    assert_eq!(s, 200, "{v}");

    // Google Calendar's invitation: the card, in Hebrew, in the user's zone.
    let first = arrive(
        &app,
        &token,
        &ms,
        "google-request.eml",
        "calendar-7c1f9a2e-0001@google.com",
    )
    .await;
    let c = card(&app, &token, &first).await;
    assert_eq!(c["method"], "request");
    assert_eq!(c["title"], "ישיבת תכנון רבעונית");
    assert_eq!(c["when"], "יום שלישי, 23/02/2027, 14:00 עד 15:00");
    assert_eq!(c["whenInEventZone"], Value::Null);
    assert_eq!(c["location"], "חדר ישיבות 3, קומה 2");
    assert_eq!(c["organizer"]["email"], "user2@example.test");
    assert_eq!(c["attendees"].as_array().unwrap().len(), 4);
    assert_eq!(c["state"], "active");
    assert_eq!(c["canAnswer"], true);
    assert_eq!(c["answer"], Value::Null);

    // Accepting: the card shows it at once, the REPLY goes to the organiser.
    let (s, v) = reply(
        &app,
        &token,
        &first,
        json!({"answer": "accepted", "comment": "אגיע, תודה"}),
    )
    .await;
    assert_eq!(s, 200, "{v}");
    assert_eq!(v["invitation"]["answer"], "accepted");
    assert_eq!(v["invitation"]["answerComment"], "אגיע, תודה");
    let sent = eventually(
        Duration::from_secs(30),
        "the REPLY at the organiser",
        || async { ms.messages("user2", "INBOX").into_iter().next() },
    )
    .await;
    let got = as_calendar_client(&sent.1);
    assert_eq!(got["calendarParts"], 1, "{got}");
    assert_eq!(got["contentMethod"], "REPLY", "{got}");
    assert_eq!(got["inAlternative"], true, "{got}");
    assert_eq!(got["method"], "REPLY");
    assert_eq!(got["version"], "2.0");
    assert_eq!(got["events"], 1);
    assert_eq!(got["uid"], "5v8q2k3m1n0p9o8i7u6y5t4r3e@google.com");
    assert_eq!(got["sequence"], 0);
    assert_eq!(got["organizer"], "mailto:user2@example.test");
    assert_eq!(
        got["attendees"],
        json!([{"address": "mailto:user1@example.test", "partstat": "ACCEPTED", "cn": "user1@example.test"}]),
        "{got}"
    );
    assert_eq!(got["dtstart"], "2027-02-23T12:00:00+00:00");
    assert!(got["dtstamp"].is_string());
    assert_eq!(got["comment"], "אגיע, תודה");
    assert_eq!(got["summary"], "ישיבת תכנון רבעונית");
    assert!(
        got["subject"]
            .as_str()
            .unwrap()
            .contains("ישיבת תכנון רבעונית"),
        "{got}"
    );
    // The copy in Sent; the invitation marked answered.
    eventually(Duration::from_secs(30), "the copy in Sent", || async {
        (!ms.messages("user1", "Sent").is_empty()).then_some(())
    })
    .await;

    // The update (SEQUENCE 1): the first mail is out of date, the answer is for the old time.
    let update = arrive(
        &app,
        &token,
        &ms,
        "google-update.eml",
        "calendar-7c1f9a2e-0002@google.com",
    )
    .await;
    let c = card(&app, &token, &update).await;
    assert_eq!(c["state"], "active");
    assert_eq!(c["when"], "יום שלישי, 23/02/2027, 15:00 עד 16:00");
    assert_eq!(c["answer"], "accepted");
    assert_eq!(c["answerOutdated"], true);
    assert_eq!(card(&app, &token, &first).await["state"], "superseded");
    // A superseded invitation is not answered from its old mail.
    let (s, v) = reply(&app, &token, &first, json!({"answer": "declined"})).await;
    assert_eq!(s, 400, "{v}");

    // The cancellation: taken in by the job as it arrives, before the user opens it.
    ms.deliver("user1@example.test", &fixture("google-cancel.eml"));
    eventually(
        Duration::from_secs(30),
        "the update marked cancelled",
        || async { (card(&app, &token, &update).await["state"] == "cancelled").then_some(()) },
    )
    .await;
    assert_eq!(card(&app, &token, &first).await["state"], "cancelled");

    // Outlook's weekly meeting: its recurrence in Hebrew, and "add to my tasks".
    let weekly = arrive(
        &app,
        &token,
        &ms,
        "outlook-recurring.eml",
        "AM0PR10MB29620C9E2F3A4B5C6D7E8F9AB1234@AM0PR10MB2962.EURPRD10.PROD.OUTLOOK.COM",
    )
    .await;
    let c = card(&app, &token, &weekly).await;
    assert_eq!(c["recurrence"], "כל שבוע ביום חמישי, 6 פעמים");
    assert_eq!(c["when"], "יום חמישי, 11/03/2027, 10:00 עד 10:30");
    let (s, t) = app
        .json(
            "POST",
            &format!("/api/invites/{weekly}/task"),
            Some(&token),
            None,
        )
        .await;
    assert_eq!(s, 200, "{t}");
    assert_eq!(t["title"], "סנכרון צוות");
    assert_eq!(t["due_date"], "2027-03-11T08:00:00Z");
    assert_eq!(t["email_id"], weekly.as_str());
    // The .ics download: well-formed, without the invitation's METHOD.
    let resp = app
        .send(
            axum::http::Request::get(format!("/api/invites/{weekly}/ics"))
                .header("authorization", &token)
                .body(axum::body::Body::empty())
                .unwrap(),
        )
        .await;
    assert_eq!(resp.status(), 200);
    assert!(
        resp.headers()["content-disposition"]
            .to_str()
            .unwrap()
            .starts_with("attachment")
    );
    let ics = body_text(resp).await;
    assert!(
        ics.contains("RRULE:FREQ=WEEKLY") && !ics.contains("METHOD:"),
        "{ics}"
    );

    // Thunderbird's, from London: both clocks.
    let london = arrive(
        &app,
        &token,
        &ms,
        "thunderbird-london.eml",
        "b3f1e2d4-5a6b-7c8d-9e0f-1a2b3c4d5e6f@example.test",
    )
    .await;
    let c = card(&app, &token, &london).await;
    assert_eq!(c["when"], "יום חמישי, 14/01/2027, 14:00 עד 15:00");
    assert_eq!(
        c["whenInEventZone"],
        "יום חמישי, 14/01/2027, 12:00 עד 13:00 (לפי שעון Europe/London)"
    );

    // Another user's mail is not found.
    let yossi = second_user(&app, &token, &ms, "user3").await;
    for path in [
        format!("/api/invites/{weekly}"),
        format!("/api/invites/{weekly}/ics"),
    ] {
        let (s, _) = app.json("GET", &path, Some(&yossi), None).await;
        assert_eq!(s, 404, "{path}");
    }
    let (s, _) = reply(&app, &yossi, &weekly, json!({"answer": "accepted"})).await;
    assert_eq!(s, 404);
}
