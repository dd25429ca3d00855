//! Google's redirect mode bound to the session that started it, a restored backup of an OAuth
//! account, and the flows that end without an account.

use super::*;

/// Google's redirect mode (an HTTPS `public_url`: the callback), a settings backup of an OAuth
/// account restored, the flows that end without an account (denied on either provider, an
/// expired device code, consent given for another mailbox, too many flows), `slow_down`, and
/// the refresh token revoked when the account is removed.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn redirect_mode_and_flows_that_end_without_an_account() {
    let op = OAuthServer::start(3600, 1).await;
    let ms = MailServer::start_with(&[(
        "MAILTEST_OAUTH2_INTROSPECTION_URL",
        &format!("{}/introspect", op.url),
    )]);
    let public = "https://mail.example.test";
    let env = BinaryEnv::with_config(&ms, &oauth_toml(&ms, &op, public));
    let server = env.start();
    let api = Api::login(&server).await;
    let mut seen = Seen::default();
    let (_, p) = seen.json(api.get("/api/oauth/providers").await).await;
    assert_eq!(
        p["providers"][0],
        json!({ "id": "google", "flow": "redirect" })
    );
    let browser = common::http()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .unwrap();
    // The browser's trip: the provider's page, then back to the server (the public name is
    // not served here: the same path on the test server).
    let trip = async |authorize: &str| -> String {
        let r = browser.get(authorize).send().await.unwrap();
        assert_eq!(r.status(), 303);
        let back = r.headers()["location"].to_str().unwrap().to_string();
        let path = back
            .strip_prefix(public)
            .unwrap_or_else(|| panic!("back to {back}"));
        assert!(path.starts_with("/api/oauth/google/callback?"), "{back}");
        // No session token: the state is what names the user.
        let r = browser.get(server.url(path)).send().await.unwrap();
        assert_eq!(r.status(), 303);
        r.headers()["location"].to_str().unwrap().to_string()
    };

    // Redirect mode. The callback finishes nothing: it hands the code and the state to the
    // app page (in the fragment), which finishes with the session of the user who started the
    // flow, once they confirmed the address.
    let (s, start) = seen
        .json(
            api.post(
                "/api/oauth/google/start",
                json!({ "email": "user3@example.test" }),
            )
            .await,
        )
        .await;
    assert_eq!(s, 200, "{start}");
    assert_eq!(start["flow"], "redirect");
    assert_eq!(
        start["redirectUri"],
        "https://mail.example.test/api/oauth/google/callback"
    );
    let flow_id = start["flowId"].as_str().unwrap().to_string();
    let exchanges = op.count("token:authorization_code");
    let landed = trip(start["authorizeUrl"].as_str().unwrap()).await;
    let prefix = "https://mail.example.test/#/settings?oauth=return&";
    let returned: std::collections::HashMap<String, String> = url::form_urlencoded::parse(
        landed
            .strip_prefix(prefix)
            .unwrap_or_else(|| panic!("{landed}"))
            .as_bytes(),
    )
    .into_owned()
    .collect();
    let (code, state) = (returned["code"].clone(), returned["state"].clone());
    // Nothing was saved for the user who started it, and the code was not exchanged.
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert!(
        account(&api, &mut seen, "user3@example.test")
            .await
            .is_null()
    );
    assert_eq!(op.count("token:authorization_code"), exchanges);
    // Whoever's browser came back with it (here another user of the install, signed in)
    // cannot claim the flow nor finish it: it is not theirs.
    let (s, v) = seen
        .json(
            api.post(
                "/api/admin/users",
                json!({ "username": "yossi", "password": "password-2" }),
            )
            .await,
        )
        .await;
    assert_eq!(s, 200, "{v}");
    let other = Api::login_as(&server, "yossi", "password-2").await;
    let (s, v) = seen
        .json(
            other
                .post("/api/oauth/google/claim", json!({ "state": state }))
                .await,
        )
        .await;
    assert_eq!(s, 404, "{v}");
    assert!(
        v["message"]
            .as_str()
            .unwrap()
            .contains("לא התחיל מהחשבון שלך"),
        "{v}"
    );
    let (s, v) = seen
        .json(
            other
                .post(
                    "/api/oauth/google/finish",
                    json!({ "flowId": flow_id, "code": code, "state": state }),
                )
                .await,
        )
        .await;
    assert_eq!(s, 404, "{v}");
    let (_, mine) = seen.json(other.get("/api/auth/accounts").await).await;
    assert_eq!(mine["accounts"], json!([]), "{mine}");
    assert_eq!(op.count("token:authorization_code"), exchanges);
    // The user who started it: the page claims the flow (the address to confirm), then
    // finishes it with its session.
    let (s, v) = seen
        .json(
            api.post("/api/oauth/google/claim", json!({ "state": state }))
                .await,
        )
        .await;
    assert_eq!(s, 200, "{v}");
    assert_eq!(
        v,
        json!({ "flowId": flow_id, "email": "user3@example.test" })
    );
    let (s, v) = seen
        .json(
            api.post(
                "/api/oauth/google/finish",
                json!({ "flowId": flow_id, "code": code, "state": state }),
            )
            .await,
        )
        .await;
    assert_eq!(s, 200, "{v}");
    assert_eq!(v, json!({ "state": "done", "email": "user3@example.test" }));
    let a3 = synced(&api, &mut seen, "user3@example.test").await;
    assert_eq!(a3["auth"], "google");
    // A settings backup carries the account with its refresh token (sealed with the master
    // password) and its kind; restored, it signs in with OAuth again.
    let master = json!({ "masterPassword": "backup master 1" });
    let (s, v) = seen
        .json(api.post("/api/settings/backup", master.clone()).await)
        .await;
    assert_eq!(s, 200, "{v}");
    let (s, v) = seen
        .json(api.post("/api/settings/backup/restore", master).await)
        .await;
    assert_eq!(s, 200, "{v}");
    op.expire_access_tokens();
    let refreshes = op.count("token:refresh_token");
    kick(&ms, &api, &["user3@example.test"]).await;
    deliver_and_see(&ms, &api, &mut seen, "user3@example.test", "after restore").await;
    assert!(op.count("token:refresh_token") > refreshes);
    let a3 = account(&api, &mut seen, "user3@example.test").await;
    assert_eq!(
        (a3["auth"].as_str(), a3["needsSignIn"].as_bool()),
        (Some("google"), Some(false))
    );

    // A callback without a code fails, back on the settings page with a reason's code (the
    // page says it in its own words); a state no flow of the session has is not found.
    let r = browser
        .get(server.url("/api/oauth/google/callback?state=nope"))
        .send()
        .await
        .unwrap();
    let failed = r.headers()["location"].to_str().unwrap().to_string();
    assert_eq!(
        failed,
        "https://mail.example.test/#/settings?oauth=failed&reason=invalid"
    );
    let (s, _) = seen
        .json(
            api.post("/api/oauth/google/claim", json!({ "state": "nope" }))
                .await,
        )
        .await;
    assert_eq!(s, 404);

    // Google: the user refuses consent.
    op.set_deny(true);
    let (_, start) = seen
        .json(
            api.post(
                "/api/oauth/google/start",
                json!({ "email": "user3@example.test" }),
            )
            .await,
        )
        .await;
    let landed = trip(start["authorizeUrl"].as_str().unwrap()).await;
    assert_eq!(
        landed,
        "https://mail.example.test/#/settings?oauth=failed&reason=denied"
    );
    op.set_deny(false);

    // Microsoft: denied on the provider's page.
    let device = async |seen: &mut Seen| -> (String, String) {
        let (s, v) = seen
            .json(
                api.post(
                    "/api/oauth/microsoft/device",
                    json!({ "email": "user1@example.test" }),
                )
                .await,
            )
            .await;
        assert_eq!(s, 200, "{v}");
        (
            v["flowId"].as_str().unwrap().to_string(),
            v["userCode"].as_str().unwrap().to_string(),
        )
    };
    let until_ended = async |seen: &mut Seen, flow: &str| -> Value {
        eventually(Duration::from_secs(30), "the flow to end", async || {
            let (_, v) = seen
                .json(api.get(&format!("/api/oauth/flows/{flow}")).await)
                .await;
            (v["state"] != "pending").then_some(v)
        })
        .await
    };
    let (flow, code) = device(&mut seen).await;
    op.approve_device(&code, "user1@example.test", false);
    let v = until_ended(&mut seen, &flow).await;
    assert_eq!(v["state"], "denied", "{v}");
    assert!(v["message"].as_str().unwrap().contains("לא ניתנה הרשאה"));

    // Consent given by another mailbox's owner: Dovecot refuses the token for this address.
    let (flow, code) = device(&mut seen).await;
    op.approve_device(&code, "user2@example.test", true);
    let v = until_ended(&mut seen, &flow).await;
    assert_eq!(v["state"], "failed", "{v}");
    assert!(
        v["message"].as_str().unwrap().contains("אינה של כתובת"),
        "{v}"
    );
    assert!(
        account(&api, &mut seen, "user1@example.test")
            .await
            .is_null()
    );

    // slow_down (RFC 8628 §3.5): the server waits 5 s more before it asks again, however
    // often the card polls.
    let (flow, code) = device(&mut seen).await;
    op.slow_down_next();
    let polls = op.count("token:device_code");
    let slowed = eventually(
        Duration::from_secs(10),
        "the slow_down answer",
        async || {
            seen.json(api.get(&format!("/api/oauth/flows/{flow}")).await)
                .await;
            let n = op.count("token:device_code");
            (n > polls).then_some((n, Instant::now()))
        },
    )
    .await;
    op.approve_device(&code, "user1@example.test", true);
    let v = until_ended(&mut seen, &flow).await;
    let waited = slowed.1.elapsed();
    assert_eq!(v["state"], "done", "{v}");
    assert_eq!(
        op.count("token:device_code"),
        slowed.0 + 1,
        "one poll after slow_down"
    );
    assert!(
        waited >= Duration::from_secs(5),
        "asked again after {waited:?}"
    );

    // A code nobody entered expires.
    op.set_device_ttl(2);
    let (flow, _) = device(&mut seen).await;
    tokio::time::sleep(Duration::from_millis(2500)).await;
    let v = until_ended(&mut seen, &flow).await;
    assert_eq!(v["state"], "expired", "{v}");
    assert!(v["message"].as_str().unwrap().contains("פג תוקף"), "{v}");
    op.set_device_ttl(600);

    // At most three open flows per user: a fourth drops the oldest.
    let mut flows = Vec::new();
    for _ in 0..4 {
        flows.push(device(&mut seen).await.0);
    }
    let r = api.get(&format!("/api/oauth/flows/{}", flows[0])).await;
    assert_eq!(r.status(), 404);
    let r = api.get(&format!("/api/oauth/flows/{}", flows[3])).await;
    assert_eq!(r.status(), 200);

    // Removing the Google account revokes its refresh token at the provider.
    let (s, v) = seen
        .json(
            api.post("/api/auth/logout", json!({ "sessionId": a3["sessionId"] }))
                .await,
        )
        .await;
    assert_eq!((s, v["removed"].as_u64()), (200, Some(1)), "{v}");
    eventually(Duration::from_secs(10), "the revocation", async || {
        (op.count("revoke") == 1).then_some(())
    })
    .await;

    let answers = seen.0.join("\n");
    for t in op.issued() {
        assert!(!answers.contains(t.as_str()), "a token in an API answer");
    }
}
