//! Labels on a real Dovecot + Postfix (issue 43): a Hebrew label made in the manager with a
//! colour; a rule naming it (and one naming a label not made yet) puts its mapped ASCII keyword
//! on the delivered mail in the IMAP mailbox (read back with doveadm); the list carries the
//! keyword and the labels list names and colours it; a rename keeps the keyword; another user
//! cannot touch the label; deleting it takes the keyword off the mail on the server. Bad names,
//! colours and counts are refused in Hebrew.

mod common;

use std::time::Duration;

use common::mailflow::{eventually, list, second_user, synced_app};
use common::mailserver::MailServer;
use mailclient::labels::keyword::keyword_for;
use mailclient::labels::model::{MAX_LABELS, MAX_NAME};
use mailclient::messages;
use serde_json::{Value, json};

/// The IMAP flags of the user's INBOX message whose raw text holds `needle`.
fn flags_of(ms: &MailServer, user: &str, needle: &str) -> Option<String> {
    ms.messages(user, "INBOX")
        .into_iter()
        .find(|(_, raw)| String::from_utf8_lossy(raw).contains(needle))
        .map(|(f, _)| f)
}

async fn labels(app: &common::TestApp, token: &str) -> Vec<Value> {
    let (s, v) = app.json("GET", "/api/labels", Some(token), None).await;
    assert_eq!(s, 200, "{v}");
    v["labels"].as_array().unwrap().clone()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_hebrew_label_goes_on_the_mail_as_its_keyword_and_shows_with_its_colour() {
    let ms = MailServer::start();
    let (app, token) = synced_app(&ms, "user1").await;

    // Bad labels: each refused in Hebrew.
    let too_long = messages::label_name_too_long(MAX_NAME);
    for (body, message) in [
        (json!({"name": "  "}), messages::LABEL_NAME_REQUIRED),
        (json!({"name": "א".repeat(MAX_NAME + 1)}), too_long.as_str()),
        (json!({"name": "a\u{7}b"}), messages::LABEL_NAME_INVALID),
        (
            json!({"name": "x", "color": "red"}),
            messages::LABEL_COLOR_INVALID,
        ),
        (
            json!({"name": "x", "color": "#12345"}),
            messages::LABEL_COLOR_INVALID,
        ),
    ] {
        let (s, v) = app
            .json("POST", "/api/labels", Some(&token), Some(body))
            .await;
        assert_eq!((s, v["message"].as_str()), (400, Some(message)), "{v}");
    }

    // The manager: 'עבודה' in green; its keyword is the mapped ASCII atom.
    let (s, work) = app
        .json(
            "POST",
            "/api/labels",
            Some(&token),
            Some(json!({"name": "עבודה", "color": "#188038"})),
        )
        .await;
    assert_eq!(s, 200, "{work}");
    let keyword = work["keyword"].as_str().unwrap().to_string();
    assert_eq!(keyword, keyword_for("עבודה", 0));
    assert!(
        keyword.starts_with("$label_") && keyword.is_ascii(),
        "{keyword}"
    );
    let (s, v) = app
        .json(
            "POST",
            "/api/labels",
            Some(&token),
            Some(json!({"name": "עבודה"})),
        )
        .await;
    assert_eq!(
        (s, v["message"].as_str()),
        (400, Some(messages::LABEL_NAME_TAKEN))
    );

    // Rules name labels in Hebrew: the one made, and one that is not yet (made by the rule).
    let (s, r) = app
        .json(
            "POST",
            "/api/rules",
            Some(&token),
            Some(
                json!({"name": "דוחות", "conditions": [{"field": "subject", "value": "דוח"}],
                        "actions": [{"kind": "add_label", "value": "עבודה"},
                                    {"kind": "add_label", "value": "לקוחות"}]}),
            ),
        )
        .await;
    assert_eq!(s, 200, "{r}");
    assert_eq!(r["actions"][0]["value"], keyword.as_str(), "{r}");
    let clients = keyword_for("לקוחות", 0);
    assert_eq!(r["actions"][1]["value"], clients.as_str(), "{r}");

    ms.deliver(
        "user1@example.test",
        "From: Boss <boss@work.example.test>\r\nTo: user1@example.test\r\nSubject: דוח רבעוני\r\n\
         Message-ID: <report1@work.example.test>\r\nContent-Type: text/plain; charset=utf-8\r\n\r\nמצורף\r\n",
    );
    // On the server: both keywords on the message (other clients see them).
    let flags = eventually(
        Duration::from_secs(60),
        "the keywords on the server",
        || async {
            flags_of(&ms, "user1", "report1@work.example.test")
                .filter(|f| f.contains(&keyword) && f.contains(&clients))
        },
    )
    .await;
    assert!(flags.contains(&keyword), "{flags}");

    // The list carries the keywords; the labels list names and colours them.
    let inbox = list(&app, &token, "inbox").await;
    let mail = inbox
        .iter()
        .find(|m| m["subject"] == "דוח רבעוני")
        .expect("the report listed");
    let on_mail: Vec<&str> = mail["labels"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l.as_str().unwrap())
        .collect();
    assert!(
        on_mail.contains(&keyword.as_str()) && on_mail.contains(&clients.as_str()),
        "{mail}"
    );
    let all = labels(&app, &token).await;
    let named = |k: &str| all.iter().find(|l| l["keyword"] == k).cloned().unwrap();
    assert_eq!(
        (
            named(&keyword)["name"].as_str(),
            named(&keyword)["color"].as_str()
        ),
        (Some("עבודה"), Some("#188038"))
    );
    assert_eq!(named(&clients)["name"], "לקוחות");

    // Rename and recolour: the keyword stays (the mail keeps it).
    let id = work["id"].as_str().unwrap();
    let (s, v) = app
        .json(
            "PUT",
            &format!("/api/labels/{id}"),
            Some(&token),
            Some(json!({"name": "עבודה שוטפת", "color": "#1A73E8"})),
        )
        .await;
    assert_eq!(s, 200, "{v}");
    assert_eq!(
        (
            v["keyword"].as_str(),
            v["name"].as_str(),
            v["color"].as_str()
        ),
        (Some(keyword.as_str()), Some("עבודה שוטפת"), Some("#1a73e8"))
    );

    // Another user cannot rename or delete it.
    let yossi = second_user(&app, &token, &ms, "user2").await;
    for method in ["PUT", "DELETE"] {
        let (s, _) = app
            .json(
                method,
                &format!("/api/labels/{id}"),
                Some(&yossi),
                Some(json!({"name": "שלי"})),
            )
            .await;
        assert_eq!(s, 404, "{method}");
    }
    assert!(labels(&app, &yossi).await.is_empty());

    // Deleting it takes the keyword off the mail, here and on the server.
    let (s, v) = app
        .json("DELETE", &format!("/api/labels/{id}"), Some(&token), None)
        .await;
    assert_eq!(s, 200, "{v}");
    assert_eq!(v["unlabelled"], 1, "{v}");
    let flags = eventually(
        Duration::from_secs(60),
        "the keyword off the server",
        || async {
            flags_of(&ms, "user1", "report1@work.example.test").filter(|f| !f.contains(&keyword))
        },
    )
    .await;
    assert!(flags.contains(&clients), "the other label stays: {flags}");
    let inbox = list(&app, &token, "inbox").await;
    let mail = inbox.iter().find(|m| m["subject"] == "דוח רבעוני").unwrap();
    assert!(
        !mail["labels"]
            .as_array()
            .unwrap()
            .iter()
            .any(|l| l == keyword.as_str()),
        "{mail}"
    );
}

#[tokio::test]
async fn a_user_keeps_a_bounded_number_of_labels() {
    let app = common::TestApp::new();
    let token = app
        .admin_token("dana", common::mailflow::ADMIN_PASSWORD)
        .await;
    for n in 0..MAX_LABELS {
        let (s, v) = app
            .json(
                "POST",
                "/api/labels",
                Some(&token),
                Some(json!({"name": format!("תווית {n}")})),
            )
            .await;
        assert_eq!(s, 200, "{v}");
    }
    let (s, v) = app
        .json(
            "POST",
            "/api/labels",
            Some(&token),
            Some(json!({"name": "עוד אחת"})),
        )
        .await;
    assert_eq!(s, 400, "{v}");
    assert_eq!(v["message"], messages::labels_full(MAX_LABELS));
}
