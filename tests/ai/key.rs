//! The provider key: sealed, never returned, required where the provider needs it, and never
//! sent to an address it was not stored for.

use super::*;

#[tokio::test]
async fn the_key_is_sealed_never_returned_and_required_for_anthropic() {
    let llm = FakeLlm::start().await;
    let (app, token) = app(&llm, "").await;
    let key = "sk-ant-api03-THE-SECRET-KEY-1234567890";

    let (s, v) = app
        .json(
            "GET",
            "/api/settings/claude-api-key/exists",
            Some(&token),
            None,
        )
        .await;
    assert_eq!((s, v), (200, json!({"exists": false, "household": false})));
    // No key: the spec's message, and the provider is never asked. An empty body is told first.
    let (s, v) = subject(&app, &token, "<p><br></p>").await;
    assert_message((s, &v), 400, messages::AI_BODY_REQUIRED);
    let (s, v) = subject(&app, &token, "<p>נפגשים מחר בעשר</p>").await;
    assert_eq!(s, 400);
    assert_eq!(v["error"], "ai_key_missing");
    assert_eq!(
        v["message"],
        "לא הוגדר מפתח API של Claude. אנא הגדר בהגדרות."
    );
    assert!(llm.requests().is_empty());
    let (s, v) = app
        .json(
            "POST",
            "/api/settings/claude-api-key",
            Some(&token),
            Some(json!({"apiKey": "  "})),
        )
        .await;
    assert_message((s, &v), 400, messages::AI_KEY_BLANK);

    with_key(&app, &token, key).await;
    let (_, v) = app
        .json(
            "GET",
            "/api/settings/claude-api-key/exists",
            Some(&token),
            None,
        )
        .await;
    assert_eq!(v, json!({"exists": true, "household": false}));
    let (_, settings) = app
        .json("GET", "/api/settings/ai", Some(&token), None)
        .await;
    assert_eq!(settings["keyStored"], true);
    assert_eq!(
        settings["provider"], "anthropic",
        "the server's provider until the user picks one"
    );
    assert_eq!(settings["model"], "");
    assert!(
        !settings.to_string().contains(key),
        "the key is never returned"
    );

    // Sealed at rest: the store file does not hold the key's bytes.
    let db = std::fs::read(app.state.config.storage.data_dir.join("mailclient.redb")).unwrap();
    assert!(
        !db.windows(key.len()).any(|w| w == key.as_bytes()),
        "the key is sealed in the store"
    );

    // The key goes to the provider, in its header, and nowhere else.
    let (s, v) = subject(&app, &token, "<p>נפגשים מחר בעשר</p>").await;
    assert_eq!(
        (s, v["subject"].as_str()),
        (200, Some("פגישת צוות ביום ראשון")),
        "{v}"
    );
    assert_eq!(llm.last().header("x-api-key"), Some(key));

    // Another user has no key; deleting ours brings the message back.
    let (s, _) = app
        .json(
            "POST",
            "/api/admin/users",
            Some(&token),
            Some(json!({"username": "yossi", "name": "יוסי", "password": "another pass 2"})),
        )
        .await;
    assert_eq!(s, 200);
    let yossi = app.login("yossi", "another pass 2").await;
    let (_, v) = app
        .json(
            "GET",
            "/api/settings/claude-api-key/exists",
            Some(&yossi),
            None,
        )
        .await;
    assert_eq!(v, json!({"exists": false, "household": false}));
    let (s, v) = app
        .json("DELETE", "/api/settings/claude-api-key", Some(&token), None)
        .await;
    assert_eq!((s, &v["exists"]), (200, &json!(false)));
    let (s, v) = subject(&app, &token, "טקסט").await;
    assert_eq!((s, v["error"].as_str()), (400, Some("ai_key_missing")));
}

#[tokio::test]
async fn a_stored_key_never_follows_a_changed_address() {
    let llm = FakeLlm::start().await;
    let (app, token) = app(&llm, "").await;
    with_key(&app, &token, "sk-ant-bound").await;
    // Pointed elsewhere (another origin, same provider): the key stays behind.
    let other = FakeLlm::start().await;
    let (s, v) = app
        .json(
            "PUT",
            "/api/settings/ai",
            Some(&token),
            Some(json!({"provider": "anthropic", "baseUrl": other.base})),
        )
        .await;
    assert_eq!((s, &v["keyStored"]), (200, &json!(false)), "{v}");
    let (s, _) = subject(&app, &token, "שלום").await;
    assert_eq!(s, 400);
    assert!(other.requests().is_empty() && llm.requests().is_empty());
    // Back at the address it was stored for, it works again.
    let (_, v) = app
        .json(
            "PUT",
            "/api/settings/ai",
            Some(&token),
            Some(json!({"provider": "anthropic", "baseUrl": ""})),
        )
        .await;
    assert_eq!(v["keyStored"], true);
    let (s, _) = subject(&app, &token, "שלום").await;
    assert_eq!(s, 200);
    assert_eq!(llm.last().header("x-api-key"), Some("sk-ant-bound"));

    // Users who are not admins choose provider and model, not the address.
    let (s, v) = app
        .json(
            "POST",
            "/api/admin/users",
            Some(&token),
            Some(json!({"username": "yossi", "name": "יוסי", "password": "another pass 2"})),
        )
        .await;
    assert_eq!(s, 200, "{v}");
    let yossi_id = v["user"]["id"].clone();
    let yossi = app.login("yossi", "another pass 2").await;
    let (_, v) = app
        .json("GET", "/api/settings/ai", Some(&yossi), None)
        .await;
    assert_eq!(v["baseUrlEditable"], false);
    let (s, v) = app
        .json(
            "PUT",
            "/api/settings/ai",
            Some(&yossi),
            Some(json!({"provider": "openai", "baseUrl": other.base})),
        )
        .await;
    assert_message((s, &v), 403, messages::AI_BASE_URL_ADMIN_ONLY);
    let (s, v) = app
        .json(
            "PUT",
            "/api/settings/ai",
            Some(&yossi),
            Some(json!({"provider": "anthropic", "model": "claude-other"})),
        )
        .await;
    assert_eq!(
        (s, v["effective"]["model"].as_str()),
        (200, Some("claude-other")),
        "{v}"
    );

    // A removed user's sealed key goes with them.
    with_key(&app, &yossi, "sk-ant-yossi").await;
    let id = yossi_id.as_u64().map_or_else(
        || yossi_id.as_str().unwrap_or_default().to_string(),
        |n| n.to_string(),
    );
    let (s, v) = app
        .json(
            "DELETE",
            &format!("/api/admin/users/{id}"),
            Some(&token),
            None,
        )
        .await;
    assert_eq!(s, 200, "{v}");
    let txn = redb::ReadableDatabase::begin_read(app.state.store.db()).unwrap();
    let keys = txn.open_table(mailclient::ai::key::AI_KEYS).unwrap();
    assert_eq!(
        redb::ReadableTableMetadata::len(&keys).unwrap(),
        1,
        "only dana's key is left"
    );
}
