//! Spam detection on a real Dovecot + Postfix: phishing delivered while the app runs is stored
//! as spam, carries `$Junk` and lands in the mailbox's Junk; a labelled Hebrew ad goes to
//! Promotions; a friend's mail stays in the inbox. Marking the spam "not spam" moves it back to
//! INBOX and is learned: the next similar mail scores lower. The debug breakdown, 'load and
//! classify', the settings' Hebrew errors and the training page's regex check, through the API.

mod common;

use std::time::Duration;

use common::mailflow::{eventually, list, synced_app};
use common::mailserver::MailServer;
use mailclient::messages;
use serde_json::{Value, json};

/// A fixture of the Hebrew set with a fresh Date and its own Message-ID (a mail dated months
/// ago would be history, scored and never moved).
fn fixture(name: &str, id: &str) -> String {
    let raw =
        std::fs::read_to_string(common::mailflow::fixtures(&format!("spam/{name}.eml"))).unwrap();
    let now = time::OffsetDateTime::now_utc()
        .format(&time::format_description::well_known::Rfc2822)
        .unwrap();
    raw.lines()
        .map(|l| {
            if l.starts_with("Date:") {
                format!("Date: {now}")
            } else if l.starts_with("Message-ID:") {
                format!("Message-ID: <{id}@test.example>")
            } else {
                l.to_string()
            }
        })
        .collect::<Vec<_>>()
        .join("\r\n")
}

fn on_server(ms: &MailServer, folder: &str, needle: &str) -> Option<String> {
    ms.messages("user1", folder)
        .into_iter()
        .map(|(flags, raw)| (flags, String::from_utf8_lossy(&raw).into_owned()))
        .find(|(_, raw)| raw.contains(needle))
        .map(|(flags, _)| flags)
}

async fn find(app: &common::TestApp, token: &str, folder: &str, id: &str) -> Option<Value> {
    list(app, token, folder)
        .await
        .into_iter()
        .find(|m| m["messageId"].as_str().is_some_and(|m| m.contains(id)))
}

async fn wait_in(app: &common::TestApp, token: &str, folder: &str, id: &str) -> Value {
    let deadline = std::time::Instant::now() + Duration::from_secs(60);
    loop {
        if let Some(m) = find(app, token, folder, id).await {
            return m;
        }
        if std::time::Instant::now() > deadline {
            let inbox: Vec<String> = list(app, token, "inbox")
                .await
                .iter()
                .map(|m| {
                    format!(
                        "{} {} {} {}",
                        m["messageId"], m["status"], m["spamScore"], m["folder"]
                    )
                })
                .collect();
            panic!("{id} never listed in {folder}; the inbox: {inbox:#?}");
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn spam_goes_to_junk_ads_to_promotions_and_not_spam_is_learned() {
    let ms = MailServer::start();
    let (app, token) = synced_app(&ms, "user1").await;

    // The settings: the spec's defaults, and Hebrew errors that change nothing.
    let (s, v) = app
        .json("GET", "/api/settings/spam-detection", Some(&token), None)
        .await;
    assert_eq!(s, 200);
    assert_eq!(
        (
            v["enabled"].clone(),
            v["spamThreshold"].clone(),
            v["suspiciousThreshold"].clone()
        ),
        (json!(true), json!(4), json!(2))
    );
    for (body, message) in [
        (json!({"spamThreshold": 11}), messages::SPAM_THRESHOLDS),
        (
            json!({"spamThreshold": 3, "suspiciousThreshold": 5}),
            messages::SPAM_THRESHOLD_ORDER,
        ),
        (json!({"useAI": true}), messages::SPAM_AI_KEY_MISSING),
    ] {
        let (s, v) = app
            .json(
                "POST",
                "/api/settings/spam-detection",
                Some(&token),
                Some(body),
            )
            .await;
        assert_eq!(s, 400, "{v}");
        assert_eq!(v["message"], message);
    }
    let (_, v) = app
        .json("GET", "/api/settings/spam-detection", Some(&token), None)
        .await;
    assert_eq!(v["spamThreshold"], 4, "nothing was saved");
    // The training page's patterns: a bad line is named, nothing is saved.
    let (s, v) = app
        .json(
            "POST",
            "/api/settings/ai-training",
            Some(&token),
            Some(json!({"spamPatterns": "ok\\d+\n(unclosed"})),
        )
        .await;
    assert_eq!(s, 400, "{v}");
    assert_eq!(v["message"], messages::spam_pattern_invalid(2));

    // Mail delivered while the app runs.
    ms.deliver("user1@example.test", &fixture("phishing-bank", "phish1"));
    ms.deliver("user1@example.test", &fixture("ad-labelled", "ad1"));
    ms.deliver("user1@example.test", &fixture("personal", "friend1"));

    let phish = wait_in(&app, &token, "session/Spam", "phish1").await;
    assert_eq!(phish["status"], "spam");
    assert_eq!(phish["isSpam"], true);
    let first_score = phish["spamScore"].as_f64().unwrap();
    assert!(first_score >= 4.0, "{phish}");
    let flags = eventually(Duration::from_secs(60), "the phishing in Junk", || async {
        on_server(&ms, "Junk", "phish1@test.example")
    })
    .await;
    assert!(flags.contains("$Junk"), "{flags}");
    assert!(on_server(&ms, "INBOX", "phish1@test.example").is_none());

    let ad = wait_in(&app, &token, "session/Promotions", "ad1").await;
    assert_eq!(ad["status"], "advertisement");
    assert_eq!(ad["isAdvertisement"], true);
    let friend = wait_in(&app, &token, "inbox", "friend1").await;
    assert_eq!(
        (friend["isSpam"].clone(), friend["isAdvertisement"].clone()),
        (json!(false), json!(false)),
        "{friend}"
    );
    assert!(friend["spamScore"].as_f64().unwrap() < 2.0, "{friend}");
    for id in ["phish1", "ad1"] {
        assert!(
            find(&app, &token, "inbox", id).await.is_none(),
            "{id} must not show in the inbox"
        );
    }

    // The debug breakdown: each rule with its Hebrew label and points (of the copy in Junk:
    // the move gave it a new id).
    let junk_copy = eventually(Duration::from_secs(60), "the Junk copy listed", || async {
        let m = find(&app, &token, "session/Spam", "phish1").await?;
        (m["id"] != phish["id"]).then_some(m)
    })
    .await;
    assert_eq!(junk_copy["status"], "spam", "{junk_copy}");
    let id = junk_copy["id"]
        .as_str()
        .map_or_else(|| junk_copy["id"].to_string(), str::to_string);
    let (s, b) = app
        .json("GET", &format!("/api/spam/debug/{id}"), Some(&token), None)
        .await;
    assert_eq!(s, 200, "{b}");
    assert_eq!(b["verdict"], "spam");
    let rules: Vec<&str> = b["hits"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| h["rule"].as_str().unwrap())
        .collect();
    for rule in ["FORGED_NAME", "IP_URL", "TEXT_HREF_MISMATCH"] {
        assert!(rules.contains(&rule), "{rules:?}");
    }
    assert!(
        b["hits"][0]["label"]
            .as_str()
            .unwrap()
            .chars()
            .any(|c| ('\u{05D0}'..='\u{05EA}').contains(&c))
    );
    let sum: f64 = b["hits"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| h["points"].as_f64().unwrap())
        .sum();
    assert!((sum - b["score"].as_f64().unwrap()).abs() < 0.2, "{b}");

    // "Not spam": back to INBOX on the server, and learned as ham.
    let cid = id.clone();
    let (s, v) = app
        .json(
            "PUT",
            &format!("/api/emails/{cid}/status"),
            Some(&token),
            Some(json!({"status": "none"})),
        )
        .await;
    assert_eq!(s, 200, "{v}");
    eventually(
        Duration::from_secs(60),
        "the mail back in INBOX",
        || async { on_server(&ms, "INBOX", "phish1@test.example") },
    )
    .await;
    let activity = eventually(Duration::from_secs(30), "the marking learned", || async {
        let (_, a) = app
            .json("GET", "/api/spam/activity", Some(&token), None)
            .await;
        (a["trainedHam"].as_u64() == Some(1)).then_some(a)
    })
    .await;
    assert!(
        activity["decisions"]
            .as_array()
            .unwrap()
            .iter()
            .any(|d| d["source"] == "user" && d["verdict"] == "ham"),
        "{activity}"
    );
    // The profile is cached for a while: the next similar mail is judged after it expires.
    tokio::time::sleep(mailclient::spam::PROFILE_TTL).await;
    ms.deliver("user1@example.test", &fixture("phishing-bank", "phish2"));
    let second = eventually(
        Duration::from_secs(60),
        "the second phishing stored",
        || async {
            match find(&app, &token, "session/Spam", "phish2").await {
                Some(m) => Some(m),
                None => find(&app, &token, "inbox", "phish2").await,
            }
        },
    )
    .await;
    let second_score = second["spamScore"].as_f64().unwrap();
    assert!(
        second_score < first_score,
        "learned: {second_score} < {first_score}"
    );

    // 'Load and classify' over the inbox: runs to the end with its counts.
    let (s, p) = app
        .json("POST", "/api/spam/classify", Some(&token), None)
        .await;
    assert_eq!(s, 200, "{p}");
    let done = eventually(Duration::from_secs(60), "load and classify", || async {
        let (_, p) = app
            .json("GET", "/api/spam/classify", Some(&token), None)
            .await;
        (p["running"] == false && p["finishedAt"].is_number()).then_some(p)
    })
    .await;
    assert!(done["error"].is_null(), "{done}");
    assert_eq!(done["done"], done["total"]);
    assert!(done["total"].as_u64().unwrap() >= 2, "{done}");

    // Off: nothing is judged, and classifying says why.
    let (s, _) = app
        .json(
            "POST",
            "/api/settings/spam-detection",
            Some(&token),
            Some(json!({"enabled": false})),
        )
        .await;
    assert_eq!(s, 200);
    let (s, v) = app
        .json("POST", "/api/spam/classify", Some(&token), None)
        .await;
    assert_eq!(s, 400);
    assert_eq!(v["message"], messages::SPAM_DETECTION_OFF);
}
