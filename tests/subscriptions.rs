//! The subscription manager on a real Dovecot + Postfix and a local HTTPS stand-in for the
//! lists' unsubscribe endpoints (issue 40):
//! - list mail is counted per sender over 30 and 90 days, with how much was opened;
//! - under the default outbound policy a one-click URL on 127.0.0.1 is refused before any
//!   request, and the `mailto:` fallback is sent from the user's mailbox through Postfix;
//! - with the network allowed, the endpoint receives exactly RFC 8058's POST, and a redirect
//!   is not followed;
//! - removal links of the body ('להסרה') are offered, never followed;
//! - blocking makes a visible rule, archiving empties the sender's inbox mail;
//! - another user's sender answers 404.

mod common;

use std::path::PathBuf;
use std::time::Duration;

use common::TestApp;
use common::https_standin::HttpsStandIn;
use common::mailflow::{ADMIN_PASSWORD, connect, eventually, list, second_user, wait_synced};
use common::mailserver::MailServer;
use serde_json::{Value, json};
use time::OffsetDateTime;
use time::format_description::well_known::Rfc2822;

fn date(days_ago: i64) -> String {
    (OffsetDateTime::now_utc() - time::Duration::days(days_ago))
        .format(&Rfc2822)
        .unwrap()
}

fn list_mail(from: &str, subject: &str, extra: &str, days_ago: i64, body: &str) -> String {
    format!(
        "From: {from}\r\nTo: user1@example.test\r\nSubject: {subject}\r\nDate: {}\r\n\
         Message-ID: <{}@list.test>\r\n{extra}MIME-Version: 1.0\r\n\
         Content-Type: text/html; charset=utf-8\r\n\r\n{body}\r\n",
        date(days_ago),
        subject.replace(' ', "-"),
    )
}

async fn app_for(ms: &MailServer, unsubscribe: &str) -> (TestApp, String) {
    let toml = format!(
        "{}\n[unsubscribe]\ntimeout_secs = 5\nextra_ca_files = [\"{}\"]\n{unsubscribe}\n",
        ms.config_toml(),
        ms.ca()
    );
    let app = TestApp::with_config(&toml);
    let token = app.admin_token("dana", ADMIN_PASSWORD).await;
    let (s, v) = connect(&app, &token, ms.account("user1")).await;
    assert_eq!(s, 200, "{v}");
    wait_synced(&app, &token).await;
    (app, token)
}

/// The senders, once `n` of them are counted.
async fn senders(app: &TestApp, token: &str, n: usize) -> Vec<Value> {
    eventually(Duration::from_secs(30), "the senders counted", || async {
        let (s, v) = app
            .json("GET", "/api/subscriptions", Some(token), None)
            .await;
        assert_eq!(s, 200, "{v}");
        let all = v["subscriptions"].as_array().unwrap().clone();
        (all.len() >= n).then_some(all)
    })
    .await
}

fn by<'a>(all: &'a [Value], address: &str) -> &'a Value {
    all.iter()
        .find(|s| s["address"] == address)
        .unwrap_or_else(|| panic!("{address} not in {all:?}"))
}

async fn post(app: &TestApp, token: &str, uri: &str, body: Value) -> (u16, Value) {
    app.json("POST", uri, Some(token), Some(body)).await
}

/// Waits until user2's inbox on Dovecot holds a mail whose text has `needle`.
async fn at_user2(ms: &MailServer, needle: &str) -> String {
    eventually(Duration::from_secs(60), needle, || async {
        ms.messages("user2", "INBOX")
            .into_iter()
            .map(|(_, raw)| String::from_utf8_lossy(&raw).to_string())
            .find(|raw| raw.contains(needle))
    })
    .await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn senders_are_counted_and_left_by_one_click_mailto_or_an_offered_link() {
    let ms = MailServer::start();
    let ssl = PathBuf::from(ms.ca()).parent().unwrap().to_path_buf();
    let site = HttpsStandIn::start(&ssl).await;
    // RFC 8058: one click only where a passing DKIM signature covers both list headers.
    let signed = |d: &str| {
        format!(
            "Authentication-Results: mx.example.test; dkim=pass header.d={d} header.s=s1\r\n\
             DKIM-Signature: v=1; a=rsa-sha256; d={d}; s=s1;\r\n \
             h=from:to:subject:list-unsubscribe:list-unsubscribe-post; bh=x; b=y\r\n"
        )
    };
    let one_click = format!(
        "{}List-Id: Shop news <news.shop.example>\r\nList-Unsubscribe: <{}>, \
         <mailto:user2@example.test?subject=remove-shop>\r\n\
         List-Unsubscribe-Post: List-Unsubscribe=One-Click\r\n",
        signed("shop.example"),
        site.url("/ok?u=shop")
    );
    let redirect = format!(
        "{}List-Unsubscribe: <{}>\r\nList-Unsubscribe-Post: List-Unsubscribe=One-Click\r\n",
        signed("redirect.example"),
        site.url("/redirect")
    );
    // The same headers with DKIM failing: the server must not POST; the link is offered.
    let unsigned = format!(
        "Authentication-Results: mx.example.test; dkim=fail header.d=unsigned.example\r\n\
         List-Unsubscribe: <{}>\r\nList-Unsubscribe-Post: List-Unsubscribe=One-Click\r\n",
        site.url("/forged")
    );
    let mailto = "List-Id: <club.list.example>\r\nList-Unsubscribe: \
         <mailto:user2@example.test?subject=unsubscribe-club&body=please%20remove>\r\n";
    let body_link = format!(
        "<p>מבצע השבוע!</p><p><a href=\"{}\">להסרה מרשימת התפוצה</a></p>",
        site.url("/body")
    );
    let mails = [
        list_mail(
            "Shop <news@shop.example>",
            "shop one",
            &one_click,
            40,
            "<p>old</p>",
        ),
        list_mail(
            "Shop <news@shop.example>",
            "shop two",
            &one_click,
            1,
            "<p>new</p>",
        ),
        list_mail(
            "Deals <deals@redirect.example>",
            "deals",
            &redirect,
            2,
            "<p>x</p>",
        ),
        list_mail("Club <club@list.example>", "club", mailto, 3, "<p>club</p>"),
        list_mail(
            "Unsigned <news@unsigned.example>",
            "unsigned",
            &unsigned,
            2,
            "<p>u</p>",
        ),
        list_mail(
            "מבצעים <mivtza@ads.example>",
            "(פרסומת) מבצע",
            "Precedence: bulk\r\n",
            1,
            &body_link,
        ),
        list_mail(
            "Old <old@list.example>",
            "too old",
            mailto,
            120,
            "<p>old</p>",
        ),
    ];
    for raw in &mails {
        ms.deliver("user1@example.test", raw);
    }

    // 1. The default policy: 127.0.0.1 refused before any request; the mailto sent instead.
    let (app, token) = app_for(&ms, "").await;
    let all = senders(&app, &token, 5).await;
    assert!(
        !all.iter().any(|s| s["address"] == "old@list.example"),
        "mail older than 90 days is not counted: {all:?}"
    );
    let shop = by(&all, "news@shop.example");
    assert_eq!(
        (shop["last30"].as_u64(), shop["last90"].as_u64()),
        (Some(1), Some(2))
    );
    assert_eq!(shop["opened"], 0);
    assert_eq!(shop["oneClick"], true);
    let ad = by(&all, "mivtza@ads.example");
    assert_eq!(ad["bodyLinks"], json!([site.url("/body")]), "{ad}");
    let uri = format!(
        "/api/subscriptions/{}/unsubscribe",
        shop["id"].as_str().unwrap()
    );
    let (s, v) = post(&app, &token, &uri, json!({})).await;
    assert_eq!(s, 200, "{v}");
    assert_eq!(v["attempt"]["method"], "mailto", "{v}");
    assert_eq!(v["attempt"]["state"], "waiting", "{v}");
    let (_, listed) = app
        .json("GET", "/api/subscriptions", Some(&token), None)
        .await;
    let refused = listed["attempts"]
        .as_array()
        .unwrap()
        .iter()
        .find(|a| a["method"] == "one_click")
        .expect("the refused click is kept");
    assert_eq!(refused["state"], "failed");
    assert_eq!(
        refused["reason"],
        mailclient::messages::UNSUBSCRIBE_HOST_REFUSED
    );
    let sent = at_user2(&ms, "remove-shop").await;
    assert!(
        sent.contains("user1@example.test"),
        "from the user's mailbox: {sent}"
    );
    assert!(site.requests().is_empty(), "{:?}", site.requests());
    eventually(
        Duration::from_secs(30),
        "the mailto attempt done",
        || async {
            let (_, v) = app
                .json("GET", "/api/subscriptions", Some(&token), None)
                .await;
            let shop = by(v["subscriptions"].as_array().unwrap(), "news@shop.example").clone();
            (shop["attempt"]["state"] == "done" && shop["unsubscribed"].is_string()).then_some(())
        },
    )
    .await;
    drop(app);

    // 2. The network allowed: exactly RFC 8058's POST; no redirect followed.
    let (app, token) = app_for(&ms, "allowed_private_networks = [\"127.0.0.1\"]").await;
    let all = senders(&app, &token, 5).await;
    let id = |address: &str| by(&all, address)["id"].as_str().unwrap().to_string();
    let (s, v) = post(
        &app,
        &token,
        &format!("/api/subscriptions/{}/unsubscribe", id("news@shop.example")),
        json!({}),
    )
    .await;
    assert_eq!(s, 200, "{v}");
    assert_eq!(v["attempt"]["method"], "one_click", "{v}");
    assert_eq!(v["attempt"]["state"], "done", "{v}");
    let got = site.requests();
    assert_eq!(got.len(), 1, "{got:?}");
    assert_eq!(got[0].method, "POST");
    assert_eq!(got[0].path, "/ok?u=shop");
    assert_eq!(got[0].body, b"List-Unsubscribe=One-Click");
    let header = |name: &str| {
        got[0]
            .headers
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.clone())
    };
    assert_eq!(
        header("content-type").as_deref(),
        Some("application/x-www-form-urlencoded")
    );
    assert_eq!(header("cookie"), None);
    assert_eq!(header("authorization"), None);

    let (s, v) = post(
        &app,
        &token,
        &format!(
            "/api/subscriptions/{}/unsubscribe",
            id("deals@redirect.example")
        ),
        json!({}),
    )
    .await;
    assert_eq!(s, 200, "{v}");
    assert_eq!(v["attempt"]["state"], "failed", "{v}");
    assert_eq!(
        v["attempt"]["reason"],
        mailclient::messages::UNSUBSCRIBE_REDIRECT
    );
    let paths: Vec<String> = site.requests().into_iter().map(|r| r.path).collect();
    assert_eq!(
        paths,
        ["/ok?u=shop", "/redirect"],
        "the redirect is not followed"
    );

    // 3. The body's removal link: offered, never followed.
    let (s, v) = post(
        &app,
        &token,
        &format!(
            "/api/subscriptions/{}/unsubscribe",
            id("mivtza@ads.example")
        ),
        json!({}),
    )
    .await;
    assert_eq!(s, 200, "{v}");
    assert_eq!(v["attempt"]["method"], "body_link", "{v}");
    assert_eq!(v["open"], json!([site.url("/body")]));
    assert_eq!(
        site.requests().len(),
        2,
        "nothing fetched from the body's link"
    );

    // 3b. One-click headers without a passing DKIM signature over them: no POST, the link offered.
    let (s, v) = post(
        &app,
        &token,
        &format!(
            "/api/subscriptions/{}/unsubscribe",
            id("news@unsigned.example")
        ),
        json!({}),
    )
    .await;
    assert_eq!(s, 200, "{v}");
    assert_eq!(v["attempt"]["method"], "link", "{v}");
    assert_eq!(v["open"], json!([site.url("/forged")]));
    assert_eq!(by(&all, "news@unsigned.example")["oneClick"], false);
    assert_eq!(site.requests().len(), 2, "nothing posted to /forged");

    // 4. Another user names this user's sender: 404, and nothing happens.
    let yossi = second_user(&app, &token, &ms, "user2").await;
    for action in ["unsubscribe", "archive"] {
        let uri = format!("/api/subscriptions/{}/{action}", id("club@list.example"));
        let (s, v) = post(&app, &yossi, &uri, json!({})).await;
        assert_eq!(s, 404, "{action}: {v}");
    }
    let uri = format!("/api/subscriptions/{}/block", id("club@list.example"));
    let (s, _) = post(&app, &yossi, &uri, json!({"to": "trash"})).await;
    assert_eq!(s, 404);

    // 5. Block (a rule the user sees) and archive all, many at once.
    let (s, v) = post(
        &app,
        &token,
        "/api/subscriptions/bulk",
        json!({"ids": [id("mivtza@ads.example")], "action": "block", "to": "promotions"}),
    )
    .await;
    assert_eq!(s, 200, "{v}");
    assert_eq!(v["results"][0]["ok"], true, "{v}");
    let (_, rules) = app.json("GET", "/api/rules", Some(&token), None).await;
    let rule = rules["rules"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["name"] == "חסימת mivtza@ads.example")
        .unwrap_or_else(|| panic!("{rules}"));
    assert_eq!(rule["conditions"][0]["value"], "mivtza@ads.example");
    let (s, v) = post(
        &app,
        &token,
        "/api/subscriptions/bulk",
        json!({"ids": [id("club@list.example"), "999999"], "action": "archive"}),
    )
    .await;
    assert_eq!(s, 200, "{v}");
    assert_eq!(v["results"][0]["ok"], true, "{v}");
    assert_eq!(v["results"][1]["ok"], false, "{v}");
    let inbox = list(&app, &token, "inbox").await;
    assert!(
        !inbox.iter().any(|m| m["subject"] == "club"),
        "the club's mail left the inbox"
    );
}
