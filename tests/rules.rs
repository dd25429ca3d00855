//! Rules that run, on a real Dovecot + Postfix: a rule moves a matching delivered mail to a
//! folder, adds its label as an IMAP keyword and marks it read (checked with doveadm); a
//! forward rule's copy reaches user2 with the original attached; an inactive rule does
//! nothing; rules run in order and `stop` ends them; "run now" previews then applies; bad rules
//! are refused in Hebrew. Forwards (issue 37): a new forward address must be confirmed; two users
//! forwarding to each other do not ping-pong; a stranger's flood beyond the day's cap is not
//! forwarded ("run now" included); the user's own mail is not; forwards carry the RFC 3834 mark.

mod common;

use std::time::Duration;

use common::TestApp;
use common::mailflow::{ADMIN_PASSWORD, connect, eventually, list, second_user, wait_synced};
use common::mailserver::MailServer;
use mailclient::messages;
use serde_json::{Value, json};

fn mail(subject: &str, id: &str, body: &str) -> String {
    format!(
        "From: Shop <orders@shop.example.test>\r\nTo: user1@example.test\r\nSubject: {subject}\r\n\
         Message-ID: <{id}@shop.example.test>\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n{body}\r\n"
    )
}

fn rule(name: &str, conditions: Value, actions: Value) -> Value {
    json!({"name": name, "conditions": conditions, "actions": actions})
}

/// (flags, raw) of the user's messages in `folder` whose raw text holds `needle`.
fn on_server(ms: &MailServer, user: &str, folder: &str, needle: &str) -> Vec<(String, String)> {
    ms.messages(user, folder)
        .into_iter()
        .map(|(f, raw)| (f, String::from_utf8_lossy(&raw).into_owned()))
        .filter(|(_, raw)| raw.contains(needle))
        .collect()
}

async fn wait_server(ms: &MailServer, user: &str, folder: &str, needle: &str) -> (String, String) {
    eventually(
        Duration::from_secs(60),
        &format!("{needle} in {folder}"),
        || async { on_server(ms, user, folder, needle).into_iter().next() },
    )
    .await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn rules_move_label_read_forward_in_order_and_stop() {
    let ms = MailServer::start();
    let app = TestApp::with_config(&format!(
        "{}\n[compose]\nundo_send_secs = 0\n",
        ms.config_toml()
    ));
    let token = app.admin_token("dana", ADMIN_PASSWORD).await;
    assert_eq!(connect(&app, &token, ms.account("user1")).await.0, 200);
    wait_synced(&app, &token).await;

    // Bad rules: each refused with its Hebrew message, nothing stored.
    let confirm = messages::rule_forward_confirm("user3@example.test");
    let too_long = messages::label_name_too_long(mailclient::labels::model::MAX_NAME);
    for (body, message) in [
        (
            rule(
                "  ",
                json!([{"field": "subject", "value": "x"}]),
                json!([{"kind": "mark_as_read"}]),
            ),
            messages::RULE_NAME_REQUIRED,
        ),
        (
            rule("r", json!([]), json!([{"kind": "mark_as_read"}])),
            messages::RULE_NEEDS_CONDITION,
        ),
        (
            rule("r", json!([{"field": "subject", "value": "x"}]), json!([])),
            messages::RULE_NEEDS_ACTION,
        ),
        (
            rule(
                "r",
                json!([{"field": "subject", "value": " "}]),
                json!([{"kind": "mark_as_read"}]),
            ),
            messages::RULE_VALUE_REQUIRED,
        ),
        (
            rule(
                "r",
                json!([{"field": "subject", "value": "x"}]),
                json!([{"kind": "add_label", "value": "ח".repeat(41)}]),
            ),
            too_long.as_str(),
        ),
        (
            rule(
                "r",
                json!([{"field": "subject", "value": "x"}]),
                json!([{"kind": "forward_to", "value": "USER1@example.test"}]),
            ),
            messages::RULE_FORWARD_OWN,
        ),
        (
            rule(
                "r",
                json!([{"field": "size_above", "value": "big"}]),
                json!([{"kind": "mark_as_read"}]),
            ),
            messages::RULE_SIZE_INVALID,
        ),
        (
            rule(
                "r",
                json!([{"field": "subject", "value": "x"}]),
                json!([{"kind": "forward_to", "value": "user3@example.test"}]),
            ),
            confirm.as_str(),
        ),
    ] {
        let (s, v) = app
            .json("POST", "/api/rules", Some(&token), Some(body))
            .await;
        assert_eq!(s, 400, "{v}");
        assert_eq!(v["message"], message);
    }
    let (_, v) = app.json("GET", "/api/rules", Some(&token), None).await;
    assert_eq!(v["rules"], json!([]));

    // 1. Invoices: to Archive, labelled, read. 2. Anything from the shop: starred, and stop.
    // 3. Never reached for the shop's mail: status spam. 4. Inactive: forward everything.
    let (s, invoices) = app
        .json(
            "POST",
            "/api/rules",
            Some(&token),
            Some(rule(
                "חשבוניות",
                json!([{"field": "subject", "value": "חֶשְׁבּוֹנִית"}]),
                json!([{"kind": "move_to_folder", "value": "Archive"},
                       {"kind": "add_label", "value": "invoices"},
                       {"kind": "mark_as_read"}]),
            )),
        )
        .await;
    assert_eq!(s, 200, "{invoices}");
    assert_eq!(invoices["is_active"], true, "new rules are active");
    let mut shop = rule(
        "החנות",
        json!([{"field": "sender_domain", "value": "example.test"}]),
        json!([{"kind": "mark_as_starred"}]),
    );
    shop["stop"] = json!(true);
    let (s, _) = app
        .json("POST", "/api/rules", Some(&token), Some(shop))
        .await;
    assert_eq!(s, 200);
    let (s, _) = app
        .json(
            "POST",
            "/api/rules",
            Some(&token),
            Some(rule(
                "אחרי העצירה",
                json!([{"field": "from", "value": "shop"}]),
                json!([{"kind": "set_status", "value": "spam"}]),
            )),
        )
        .await;
    assert_eq!(s, 200);
    let mut off = rule(
        "כבוי",
        json!([{"field": "body", "value": "מצורף"}]),
        json!([{"kind": "forward_to", "value": "user3@example.test"}]),
    );
    off["is_active"] = json!(false);
    off["confirm_forward"] = json!("user3@example.test");
    let (s, _) = app
        .json("POST", "/api/rules", Some(&token), Some(off))
        .await;
    assert_eq!(s, 200);

    ms.deliver(
        "user1@example.test",
        &mail("חשבונית מס 1001", "inv1", "מצורף הקובץ"),
    );
    ms.deliver("user1@example.test", &mail("מבצע השבוע", "sale1", "הנחות"));

    // The invoice: moved to Archive on the server, with its keyword and \Seen.
    let (flags, _) = wait_server(&ms, "user1", "Archive", "inv1@shop.example.test").await;
    assert!(flags.contains("invoices"), "{flags}");
    assert!(flags.contains("\\Seen"), "{flags}");
    assert!(
        !flags.contains("\\Flagged"),
        "the first rule did not star it: {flags}"
    );
    // The sale: starred by the second rule, and the third never ran (stop).
    let (flags, _) = wait_server(&ms, "user1", "INBOX", "sale1@shop.example.test").await;
    let flags = eventually(Duration::from_secs(30), "the star", || async {
        let f = on_server(&ms, "user1", "INBOX", "sale1@shop.example.test")
            .into_iter()
            .next()
            .map(|(f, _)| f)
            .unwrap_or(flags.clone());
        f.contains("\\Flagged").then_some(f)
    })
    .await;
    assert!(
        !flags.contains("$Junk") && !flags.to_lowercase().contains("spam"),
        "{flags}"
    );
    let inbox = list(&app, &token, "inbox").await;
    let sale = inbox.iter().find(|m| m["subject"] == "מבצע השבוע").unwrap();
    assert_ne!(sale["status"], "spam", "{sale}");
    // The inactive forward did nothing.
    tokio::time::sleep(Duration::from_secs(3)).await;
    assert_eq!(ms.message_count("user3", "INBOX"), 0);

    // The first rule's activity: the invoice, each action done.
    let id = invoices["id"].as_str().unwrap();
    let (_, act) = app
        .json(
            "GET",
            &format!("/api/rules/{id}/activity"),
            Some(&token),
            None,
        )
        .await;
    let items = act["items"].as_array().unwrap();
    assert_eq!(items.len(), 1, "{act}");
    assert_eq!(items[0]["subject"], "חשבונית מס 1001");
    assert!(
        items[0]["outcomes"]
            .as_array()
            .unwrap()
            .iter()
            .all(|o| o["ok"] == true),
        "{act}"
    );

    // A forward rule: its copy reaches user2, the original attached.
    let mut accountant = rule(
        "העברה לרואת החשבון",
        json!([{"field": "header", "header": "X-Report", "value": ""}]),
        json!([{"kind": "forward_to", "value": "user2@example.test"}]),
    );
    accountant["confirm_forward"] = json!("User2@example.test");
    let (s, v) = app
        .json("POST", "/api/rules", Some(&token), Some(accountant))
        .await;
    assert_eq!(s, 200, "{v}");
    assert_eq!(v["forward_pending"], false, "{v}");
    // Move it first, so the starring rule's stop does not hide it.
    let mut ids: Vec<String> = {
        let (_, v) = app.json("GET", "/api/rules", Some(&token), None).await;
        v["rules"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r["id"].as_str().unwrap().to_string())
            .collect()
    };
    let last = ids.pop().unwrap();
    ids.insert(0, last);
    let (s, v) = app
        .json(
            "PUT",
            "/api/rules/order",
            Some(&token),
            Some(json!({"ids": ids})),
        )
        .await;
    assert_eq!(s, 200, "{v}");
    assert_eq!(v["rules"][0]["name"], "העברה לרואת החשבון");
    let (s, _) = app
        .json(
            "PUT",
            "/api/rules/order",
            Some(&token),
            Some(json!({"ids": ["1"]})),
        )
        .await;
    assert_eq!(s, 400, "an order must name every rule");
    let report = mail("דוח חודשי", "rep1", "הדוח בפנים").replace("To:", "X-Report: yes\r\nTo:");
    ms.deliver("user1@example.test", &report);
    let (_, fwd) = wait_server(&ms, "user2", "INBOX", "message/rfc822").await;
    let parsed = mail_parser::MessageParser::default()
        .parse(fwd.as_bytes())
        .unwrap();
    assert_eq!(parsed.subject(), Some("Fwd: דוח חודשי"));
    let original = parsed
        .attachments()
        .find_map(|a| a.message())
        .expect("the original attached as a message");
    assert_eq!(original.message_id(), Some("rep1@shop.example.test"));

    // Run now: the invoices rule, off for new mail, previews and applies to what is there.
    let (s, _) = app
        .json(
            "PUT",
            &format!("/api/rules/{id}/active"),
            Some(&token),
            Some(json!({"is_active": false})),
        )
        .await;
    assert_eq!(s, 200);
    ms.deliver("user1@example.test", &mail("חשבונית מס 1002", "inv2", "x"));
    eventually(
        Duration::from_secs(30),
        "the second invoice listed",
        || async {
            list(&app, &token, "inbox")
                .await
                .iter()
                .any(|m| m["subject"] == "חשבונית מס 1002")
                .then_some(())
        },
    )
    .await;
    tokio::time::sleep(Duration::from_secs(4)).await;
    assert!(
        on_server(&ms, "user1", "INBOX", "inv2@shop.example.test").len() == 1,
        "an inactive rule does nothing"
    );
    let (s, p) = app
        .json(
            "POST",
            &format!("/api/rules/{id}/preview"),
            Some(&token),
            None,
        )
        .await;
    assert_eq!(s, 200, "{p}");
    assert_eq!(p["count"], 1, "{p}");
    assert_eq!(p["sample"][0]["subject"], "חשבונית מס 1002");
    let (s, r) = app
        .json("POST", &format!("/api/rules/{id}/run"), Some(&token), None)
        .await;
    assert_eq!(s, 200);
    assert_eq!(
        (r["matched"].as_u64(), r["applied"].as_u64()),
        (Some(1), Some(1)),
        "{r}"
    );
    wait_server(&ms, "user1", "Archive", "inv2@shop.example.test").await;

    // Delete.
    let (s, _) = app
        .json("DELETE", &format!("/api/rules/{id}"), Some(&token), None)
        .await;
    assert_eq!(s, 200);
    let (s, _) = app
        .json("DELETE", &format!("/api/rules/{id}"), Some(&token), None)
        .await;
    assert_eq!(s, 404);
}

/// A forward rule of the user behind `token` for mail whose subject holds `word`, confirmed.
async fn forward_rule(app: &TestApp, token: &str, name: &str, word: &str, to: &str) -> String {
    let mut r = rule(
        name,
        json!([{"field": "subject", "value": word}]),
        json!([{"kind": "forward_to", "value": to}]),
    );
    r["confirm_forward"] = json!(to);
    let (s, v) = app.json("POST", "/api/rules", Some(token), Some(r)).await;
    assert_eq!(s, 200, "{v}");
    v["id"].as_str().unwrap().to_string()
}

/// The error of each forward outcome in the rule's activity, newest first.
async fn forward_errors(app: &TestApp, token: &str, rule: &str) -> Vec<Option<String>> {
    let (_, act) = app
        .json(
            "GET",
            &format!("/api/rules/{rule}/activity"),
            Some(token),
            None,
        )
        .await;
    act["items"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|i| i["outcomes"].as_array().unwrap().clone())
        .filter(|o| o["kind"] == "forward_to")
        .map(|o| o["error"].as_str().map(str::to_string))
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn forwards_never_loop_and_stop_at_the_days_cap() {
    let ms = MailServer::start();
    let app = TestApp::with_config(&format!(
        "{}\n[compose]\nundo_send_secs = 0\n[limits]\nforwards_per_day = 3\n",
        ms.config_toml()
    ));
    let dana = app.admin_token("dana", ADMIN_PASSWORD).await;
    assert_eq!(connect(&app, &dana, ms.account("user1")).await.0, 200);
    wait_synced(&app, &dana).await;
    let yossi = second_user(&app, &dana, &ms, "user2").await;

    // Each forwards the other's "ping" mail: the loop that must not happen.
    let dana_rule = forward_rule(&app, &dana, "לרואה החשבון", "ping", "user2@example.test").await;
    let yossi_rule = forward_rule(&app, &yossi, "בחזרה לדנה", "ping", "user1@example.test").await;

    ms.deliver("user1@example.test", &mail("ping 1", "ping1", "x"));
    // Dana's forward reaches Yossi, marked as RFC 3834 asks and with our mark.
    let (_, fwd) = wait_server(&ms, "user2", "INBOX", "X-Mailclient-Forwarded").await;
    assert!(fwd.contains("Auto-Submitted: auto-forwarded"), "{fwd}");
    assert!(
        fwd.contains("X-Mailclient-Forwarded: user1@example.test"),
        "{fwd}"
    );
    // Yossi's rule sees it and does not send it back: no ping-pong.
    eventually(Duration::from_secs(60), "yossi's rule decided", || async {
        let errors = forward_errors(&app, &yossi, &yossi_rule).await;
        (!errors.is_empty()).then_some(errors)
    })
    .await
    .iter()
    .for_each(|e| assert_eq!(e.as_deref(), Some(messages::RULE_FORWARD_SKIPPED_AUTOMATED)));
    tokio::time::sleep(Duration::from_secs(5)).await;
    assert_eq!(
        on_server(&ms, "user1", "INBOX", "ping").len(),
        1,
        "only the original"
    );
    assert_eq!(
        on_server(&ms, "user2", "INBOX", "ping").len(),
        1,
        "one forward"
    );

    // Mail from Dana's own address is not forwarded.
    ms.deliver(
        "user1@example.test",
        &mail("ping own", "own1", "x").replace(
            "From: Shop <orders@shop.example.test>",
            "From: user1@example.test",
        ),
    );
    // A stranger's flood: 5 more; the cap of 3 a day lets 2 more through.
    for i in 0..5 {
        ms.deliver(
            "user1@example.test",
            &mail(&format!("ping flood {i}"), &format!("flood{i}"), "x"),
        );
    }
    eventually(
        Duration::from_secs(90),
        "every flood mail decided",
        || async {
            let errors = forward_errors(&app, &dana, &dana_rule).await;
            (errors.len() >= 7).then_some(())
        },
    )
    .await;
    let errors = forward_errors(&app, &dana, &dana_rule).await;
    let capped = messages::rule_forwards_capped(3);
    assert_eq!(
        errors.iter().filter(|e| e.is_none()).count(),
        3,
        "{errors:?}"
    );
    assert_eq!(
        errors
            .iter()
            .filter(|e| e.as_deref() == Some(capped.as_str()))
            .count(),
        3,
        "{errors:?}"
    );
    assert_eq!(
        errors
            .iter()
            .filter(|e| e.as_deref() == Some(messages::RULE_FORWARD_SKIPPED_OWN))
            .count(),
        1,
        "{errors:?}"
    );
    tokio::time::sleep(Duration::from_secs(5)).await;
    assert_eq!(
        on_server(&ms, "user2", "INBOX", "X-Mailclient-Forwarded").len(),
        3
    );

    // "Run now" on the whole inbox respects the cap too.
    let (s, r) = app
        .json(
            "POST",
            &format!("/api/rules/{dana_rule}/run"),
            Some(&dana),
            None,
        )
        .await;
    assert_eq!(s, 200, "{r}");
    assert_eq!(r["applied"], 0, "{r}");
    tokio::time::sleep(Duration::from_secs(5)).await;
    assert_eq!(
        on_server(&ms, "user2", "INBOX", "X-Mailclient-Forwarded").len(),
        3
    );
}
