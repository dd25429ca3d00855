//! Mail as written: Hebrew golden messages decode exactly; malformed ones sync without a panic.

use super::*;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hebrew_golden_messages_decode_exactly() {
    let ms = MailServer::start();
    ms.seed("user3", &fixtures("hebrew"), "INBOX");
    let (app, token) = app_with(&ms).await;
    assert_eq!(connect(&app, &token, ms.account("user3")).await.0, 200);
    wait_synced(&app, &token).await;
    let emails = list(&app, &token, "inbox").await;
    let mut checked = 0;
    let mut threaded = 0;
    for entry in std::fs::read_dir(fixtures("hebrew")).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().and_then(|e| e.to_str()) != Some("json") {
            continue;
        }
        let want: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        let row = emails
            .iter()
            .find(|e| e["messageId"] == want["messageId"])
            .unwrap_or_else(|| panic!("{name}: message {} not listed", want["messageId"]));
        let id = row["id"].as_str().unwrap();
        let (s, got) = app
            .json("GET", &format!("/api/emails/{id}"), Some(&token), None)
            .await;
        assert_eq!(s, 200);
        for field in ["subject", "from", "from_name", "to"] {
            assert_eq!(got[field], want[field], "{name}: {field}");
        }
        assert_eq!(got["inReplyTo"], want["inReplyTo"], "{name}: inReplyTo");
        if let Some(parent) = want["inReplyTo"].as_str()
            && let Some(p) = emails.iter().find(|e| e["messageId"] == parent)
        {
            assert_eq!(
                row["threadId"], p["threadId"],
                "{name}: a reply joins its parent's thread"
            );
            threaded += 1;
        }
        if let Some(plain) = want["bodyPlain"].as_str() {
            assert_eq!(
                got["bodyPlain"].as_str().unwrap().trim_end(),
                plain,
                "{name}: bodyPlain"
            );
        }
        for needle in want["htmlContains"].as_array().cloned().unwrap_or_default() {
            let needle = needle.as_str().unwrap();
            assert!(
                got["body"].as_str().unwrap().contains(needle),
                "{name}: body lacks {needle}: {}",
                got["body"]
            );
        }
        let want_atts = want["attachments"].as_array().cloned().unwrap_or_default();
        let got_atts: Vec<&Value> = got["attachments"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|a| a["inline"] != true)
            .collect();
        assert_eq!(
            got_atts.len(),
            want_atts.len(),
            "{name}: attachments {}",
            got["attachments"]
        );
        for (g, w) in got_atts.iter().zip(&want_atts) {
            assert_eq!(g["filename"], w["filename"], "{name}");
            assert_eq!(g["contentType"], w["contentType"], "{name}");
            assert_eq!(g["size"], w["size"], "{name}");
            // The download gives the same bytes count and the decoded name.
            let resp = app
                .send(
                    axum::http::Request::get(format!(
                        "/api/emails/{id}/attachments/{}",
                        g["index"]
                    ))
                    .header("authorization", &token)
                    .body(axum::body::Body::empty())
                    .unwrap(),
                )
                .await;
            assert_eq!(resp.status(), 200);
            let cd = resp.headers()["content-disposition"]
                .to_str()
                .unwrap()
                .to_string();
            assert!(cd.contains("filename*=UTF-8''"), "{cd}");
            let bytes = http_body_util::BodyExt::collect(resp.into_body())
                .await
                .unwrap()
                .to_bytes();
            assert_eq!(
                bytes.len() as u64,
                g["size"].as_u64().unwrap(),
                "{name}: downloaded size"
            );
        }
        checked += 1;
    }
    assert!(checked >= 10, "golden files checked: {checked}");
    assert!(threaded >= 1, "a golden reply was threaded");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn malformed_messages_sync_without_a_panic_and_are_all_listed() {
    let ms = MailServer::start();
    let seeded = ms.seed("user2", &fixtures("malformed"), "INBOX");
    let on_server = ms.message_count("user2", "INBOX");
    assert!(on_server >= 10, "{seeded:?}");
    let (app, token) = app_with(&ms).await;
    assert_eq!(connect(&app, &token, ms.account("user2")).await.0, 200);
    wait_synced(&app, &token).await;
    let emails = list(&app, &token, "inbox").await;
    assert_eq!(emails.len(), on_server);
    for e in &emails {
        let id = e["id"].as_str().unwrap();
        let (s, v) = app
            .json("GET", &format!("/api/emails/{id}"), Some(&token), None)
            .await;
        assert_eq!(s, 200, "{e}");
        assert!(v["body"].is_string());
    }
    assert!(
        emails.iter().any(|e| e["parsed"] == false),
        "some are shown raw"
    );
}
