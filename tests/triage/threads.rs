//! Threads with filters and sort, counts, and isolation between users.

use super::*;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn threads_filters_sort_and_isolation() {
    let ms = MailServer::start();
    let root = mail("Plan", "plan", 5 * 3600);
    let reply = mail("Re: Plan", "plan-re", 3600).replace(
        "MIME-Version",
        "In-Reply-To: <plan@outside.test>\r\nReferences: <plan@outside.test>\r\nMIME-Version",
    );
    let attached = "From: Avi <avi@outside.test>\r\nTo: user1@example.test\r\nSubject: Attached\r\n\
        Message-ID: <att@outside.test>\r\nMIME-Version: 1.0\r\n\
        Content-Type: multipart/mixed; boundary=b\r\n\r\n--b\r\nContent-Type: text/plain\r\n\r\nsee\r\n\
        --b\r\nContent-Type: application/pdf\r\nContent-Disposition: attachment; filename=a.pdf\r\n\r\n%PDF\r\n--b--\r\n"
        .to_string();
    seed(
        &ms,
        "user1",
        &[
            ("1", root),
            ("2", reply),
            ("3", attached),
            ("4", mail("Zebra", "zebra", 7200)),
        ],
    );
    seed(&ms, "user2", &[("1", mail("for two only", "two", 60))]);
    let (app, token) = synced_app(&ms, "user1").await;

    let threads = get(&app, &token, "/api/threads/inbox").await;
    let threads = threads.as_array().unwrap();
    assert_eq!(threads.len(), 3, "{threads:?}");
    let plan = threads
        .iter()
        .find(|t| t["count"] == 2)
        .expect("the Plan thread");
    assert_eq!(plan["subject"], "Re: Plan");
    assert_eq!(plan["isRead"], false);
    assert_eq!(plan["participants"], json!(["Sender"]));
    // A page of threads carries each thread's newest mail; the thread whole is on demand.
    let carried = plan["emails"].as_array().unwrap();
    assert_eq!(carried.len(), 1);
    assert_eq!(carried[0]["subject"], "Re: Plan");
    let path = format!(
        "/api/threads/inbox/{}",
        encode(plan["id"].as_str().unwrap())
    );
    let whole = get(&app, &token, &path).await;
    let subjects_of = |t: &Value| -> Vec<String> {
        t["emails"]
            .as_array()
            .unwrap()
            .iter()
            .map(|e| e["subject"].as_str().unwrap().to_string())
            .collect()
    };
    assert_eq!(subjects_of(&whole), ["Re: Plan", "Plan"]);
    assert_eq!(whole["count"], 2);

    let subjects = |v: Value| -> Vec<String> {
        v.as_array()
            .unwrap()
            .iter()
            .map(|r| r["subject"].as_str().unwrap().to_string())
            .collect()
    };
    assert_eq!(
        subjects(get(&app, &token, "/api/emails/inbox?filter=attachment").await),
        ["Attached"]
    );
    assert_eq!(
        subjects(get(&app, &token, "/api/emails/inbox?sort=subject").await),
        ["Attached", "Re: Plan", "Plan", "Zebra"]
    );
    assert_eq!(
        subjects(get(&app, &token, "/api/emails/inbox?sort=sender&order=asc").await)[0],
        "Attached",
        "Avi sorts before Sender"
    );
    let id = id_in(&app, &token, "/api/emails/inbox", "Zebra")
        .await
        .unwrap();
    app.json(
        "PUT",
        &format!("/api/emails/{id}"),
        Some(&token),
        Some(json!({"is_starred": true})),
    )
    .await;
    assert_eq!(
        subjects(get(&app, &token, "/api/emails/inbox?filter=starred").await),
        ["Zebra"]
    );
    assert_eq!(
        get(&app, &token, "/api/emails/inbox?filter=unread,starred")
            .await
            .as_array()
            .unwrap()
            .len(),
        1
    );
    let (s, v) = app
        .json("GET", "/api/emails/inbox?sort=size", Some(&token), None)
        .await;
    assert_eq!(
        (s, v["message"].as_str()),
        (400, Some("אפשרות סינון או מיון לא תקינה"))
    );

    // A second user with a mailbox of their own sees none of the first one's.
    let yossi = second_user(&app, &token, &ms, "user2").await;
    let (s, _) = status(&app, &yossi, &id, json!({"status": "spam"})).await;
    assert_eq!(s, 404, "another user's mail");
    let (s, _) = app
        .json("DELETE", &format!("/api/emails/{id}"), Some(&yossi), None)
        .await;
    assert_eq!(s, 404);
    let (_, v) = app
        .json(
            "POST",
            "/api/emails/bulk",
            Some(&yossi),
            Some(json!({"ids": [id], "action": "delete"})),
        )
        .await;
    assert_eq!(v["updated"], 0);
    let (s, v) = app.json("GET", &path, Some(&yossi), None).await;
    assert_eq!(s, 404, "another user's thread: {v}");
    assert_eq!(v["message"], "השיחה לא נמצאה בתיקייה הזו");
    let t2 = get(&app, &yossi, "/api/threads/inbox").await;
    assert_eq!(subjects(t2), ["for two only"]);
    let z2 = get(&app, &yossi, "/api/emails/inbox-zero").await;
    assert_eq!(z2["urgent"], 0);
    assert_eq!(get(&app, &yossi, "/api/emails/counts").await["inbox"], 1);
    assert_eq!(get(&app, &token, "/api/emails/counts").await["starred"], 1);
}
