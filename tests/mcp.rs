//! The agent API (`/mcp`) with a real MCP client nobody here wrote: the official MCP Python SDK
//! (PyPI `mcp` 2.3.0, installed by scripts/install-test-deps.sh; tests/support/mcp_client.py)
//! driving the real binary over a real Dovecot + Postfix. It lists the tools, searches a Hebrew
//! word, reads a mail, writes a reply draft (a `\Draft` in Dovecot's Drafts), cannot send (no
//! such tool), cannot read another user's mail, and cannot connect once its token is revoked;
//! the 2025 handshake works on the same endpoint; the transport's checks (origin, headers,
//! session tokens, methods) answer as the spec says; every call is in the token's log. The
//! triage scope snoozes: the conversation moves to Dovecot's Snoozed folder and is woken back,
//! and another user's mail or snooze is out of reach.

mod common;

use std::process::Command;

use common::binary_api::{Api, BinaryEnv};
use common::mailserver::MailServer;
use serde_json::{Value, json};

/// The Python with the SDK (scripts/install-test-deps.sh makes its venv).
fn python() -> String {
    let venv = std::env::var("MAILCLIENT_TEST_VENV")
        .unwrap_or_else(|_| "/var/tmp/mailclient-test-venv".into());
    let py = format!("{venv}/bin/python3");
    assert!(
        std::path::Path::new(&py).exists(),
        "{py} is missing: run scripts/install-test-deps.sh (it installs the MCP Python SDK)"
    );
    py
}

/// Runs one step of the SDK's client and returns what it printed.
fn sdk(url: &str, token: &str, step: &str, args: Value) -> Value {
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/support/mcp_client.py");
    let out = Command::new(python())
        .args([script, url, token, step, &args.to_string()])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{step}: {}\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{step}: {e}: {}", String::from_utf8_lossy(&out.stdout)))
}

fn hebrew_mail(from: &str, subject_b64: &str, id: &str, body: &str) -> String {
    format!(
        "From: {from}\r\nTo: someone@example.test\r\nSubject: =?utf-8?B?{subject_b64}?=\r\n\
         Message-ID: <{id}>\r\nDate: Mon, 30 Nov 2026 09:00:00 +0000\r\n\
         Content-Type: text/plain; charset=utf-8\r\n\r\n{body}\r\n"
    )
}

async fn token(api: &Api, name: &str, scopes: Value) -> (String, String) {
    let r = api
        .post("/api/mcp/tokens", json!({"name": name, "scopes": scopes}))
        .await;
    assert_eq!(r.status(), 200);
    let v: Value = r.json().await.unwrap();
    (
        v["secret"].as_str().unwrap().to_string(),
        v["token"]["id"].as_str().unwrap().to_string(),
    )
}

/// The newest inbox mail of the user: (id, threadId).
async fn first_mail(api: &Api) -> (String, String) {
    let list = api.get_json("/api/emails/inbox").await;
    let m = &list[0];
    (
        m["id"].as_str().unwrap().to_string(),
        m["threadId"].as_str().unwrap().to_string(),
    )
}

/// A raw POST to /mcp.
async fn post(url: &str, headers: &[(&str, &str)], body: Value) -> (u16, Value) {
    let mut r = common::http().build().unwrap().post(url).json(&body);
    for (k, v) in headers {
        r = r.header(*k, *v);
    }
    let resp = r.send().await.unwrap();
    let status = resp.status().as_u16();
    let text = resp.text().await.unwrap();
    (status, serde_json::from_str(&text).unwrap_or(Value::Null))
}

#[tokio::test(flavor = "multi_thread")]
async fn an_agent_reads_searches_and_drafts_through_the_sdk_and_never_sends() {
    let ms = MailServer::start();
    // Dana's mail: Hebrew, the word with a prefix letter (בפגישה); the search asks for פגישה.
    ms.deliver(
        "user1@example.test",
        &hebrew_mail(
            "Noa <user3@example.test>",
            "16rXmdeQ15XXnSDXnNeZ15XXnSDXqdec15nXqdeZ",
            "agent-1@example.test",
            "שלום דנה,\r\nנדבר בפגישה ביום שלישי על התקציב.\r\nנועה",
        ),
    );
    // Rina's mail, which Dana's agent must never read.
    ms.deliver(
        "user2@example.test",
        &hebrew_mail(
            "Avi <user3@example.test>",
            "16HXldeTINep15wg16jXmdeg15Q=",
            "rina-secret@example.test",
            "הסיסמה לכספת היא 1234",
        ),
    );
    let env = BinaryEnv::new(&ms);
    let server = env.start();
    let url = server.url("/mcp");
    let dana = Api::login(&server).await;
    dana.connect_synced(&ms, "user1").await;
    let r = dana
        .post(
            "/api/admin/users",
            json!({"username": "rina", "name": "רינה", "password": "rina password 1"}),
        )
        .await;
    assert_eq!(r.status(), 200);
    let rina = Api::login_as(&server, "rina", "rina password 1").await;
    rina.connect_synced(&ms, "user2").await;
    let (mail_id, _) = first_mail(&dana).await;
    let (rina_mail, rina_thread) = first_mail(&rina).await;

    let (full, full_id) = token(&dana, "Claude Desktop", json!(["read", "triage", "drafts"])).await;
    let (read_only, read_id) = token(&dana, "קריאה בלבד", json!(["read"])).await;

    // The whole session through the SDK (2026-07-28: no handshake, no session).
    let out = sdk(
        &url,
        &full,
        "scenario",
        json!({
            "search": "פגישה",
            "email_id": mail_id,
            "other_email_id": rina_mail,
            "other_thread_id": rina_thread,
            "draft_body": "תודה נועה,\nאגיע לפגישה.\n\nדנה",
        }),
    );
    assert_eq!(out["protocolVersion"], "2026-07-28", "{out}");
    assert_eq!(out["serverName"], "mailclient");
    assert!(
        out["instructions"]
            .as_str()
            .unwrap()
            .contains("untrusted data")
    );
    let tools: Vec<&str> = out["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t.as_str().unwrap())
        .collect();
    assert_eq!(
        tools,
        [
            "add_task",
            "list_contacts",
            "list_folder",
            "list_snoozed",
            "list_tasks",
            "mark_email",
            "read_email",
            "read_thread",
            "search_mail",
            "set_status",
            "snooze_thread",
            "wake_thread",
            "write_reply_draft"
        ]
    );
    assert!(!tools.iter().any(|t| t.contains("send")));
    // The Hebrew word found through its prefix letter, as the search box finds it.
    let search = &out["search"];
    assert_eq!(search["isError"], false, "{search}");
    let found = &search["structured"]["emails"];
    assert_eq!(found.as_array().unwrap().len(), 1, "{search}");
    assert_eq!(found[0]["id"], mail_id.as_str());
    assert_eq!(found[0]["subject"], "תיאום ליום שלישי");
    assert!(
        search["structured"]["notice"]
            .as_str()
            .unwrap()
            .contains("Untrusted")
    );
    // The mail as data.
    let read = &out["read"]["structured"]["email"];
    assert!(
        read["body"]
            .as_str()
            .unwrap()
            .contains("נדבר בפגישה ביום שלישי"),
        "{read}"
    );
    assert_eq!(read["from"], "user3@example.test");
    // The draft: in Dovecot's Drafts, \Draft, answering the mail, not sent.
    let draft = &out["draft"];
    assert_eq!(draft["isError"], false, "{draft}");
    assert_eq!(draft["structured"]["savedInMailbox"], true);
    assert_eq!(draft["structured"]["sent"], false);
    let drafts = ms.messages("user1", "Drafts");
    assert_eq!(drafts.len(), 1);
    assert!(drafts[0].0.contains("\\Draft"), "{}", drafts[0].0);
    let raw = String::from_utf8_lossy(&drafts[0].1).to_string();
    assert!(raw.contains("In-Reply-To: <agent-1@example.test>"), "{raw}");
    assert!(raw.contains("user3@example.test>"), "{raw}");
    // No tool sends: the SDK's call of one is refused by the server.
    let send = &out["send"];
    assert!(
        send.get("error").is_some() || send["ok"]["isError"] == true,
        "{send}"
    );
    assert!(send.to_string().contains("Unknown tool"), "{send}");
    assert_eq!(ms.message_count("user3", "INBOX"), 0, "nothing went out");
    assert!(ms.messages("user1", "Sent").is_empty());
    // Rina's mail and thread are "not found" for Dana's agent, like ids that do not exist.
    assert_eq!(out["others"]["isError"], true, "{}", out["others"]);
    assert!(!out["others"].to_string().contains("1234"));
    assert_eq!(out["othersThread"]["isError"], true);
    assert!(!out["othersThread"].to_string().contains("1234"));
    assert_eq!(out["status"]["isError"], false, "{}", out["status"]);
    assert_eq!(
        out["resources"],
        json!(["mailclient://counts", "mailclient://folders"])
    );
    assert!(
        out["folders"].to_string().contains("INBOX"),
        "{}",
        out["folders"]
    );

    snooze_checks(&ms, &url, &full, &dana, &rina, &mail_id, &rina_mail).await;

    // The 2025 handshake on the same endpoint; a read-only token lists the read tools only.
    let old = sdk(&url, &read_only, "legacy", json!({}));
    assert_eq!(old["protocolVersion"], "2025-11-25", "{old}");
    assert_eq!(
        old["tools"],
        json!([
            "list_contacts",
            "list_folder",
            "list_snoozed",
            "list_tasks",
            "read_email",
            "read_thread",
            "search_mail"
        ])
    );
    assert_eq!(old["list"]["isError"], false, "{old}");

    transport_checks(&url, &read_only, &dana.token).await;

    // Every call is in its token's log: what was called, never what the mail said.
    let log = dana
        .get_json(&format!("/api/mcp/tokens/{full_id}/calls"))
        .await;
    let calls = log["calls"].as_array().unwrap();
    let targets: Vec<&str> = calls.iter().filter_map(|c| c["target"].as_str()).collect();
    for t in [
        "search_mail",
        "read_email",
        "write_reply_draft",
        "send_email",
    ] {
        assert!(targets.contains(&t), "{t} not logged: {log}");
    }
    assert!(
        calls
            .iter()
            .any(|c| c["ok"] == false && c["target"] == "send_email")
    );
    assert!(!log.to_string().contains("נדבר בפגישה"), "{log}");
    let listed = dana.get_json("/api/mcp/tokens").await;
    let t = listed["tokens"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["id"] == full_id.as_str())
        .unwrap()
        .clone();
    assert!(t["calls"].as_u64().unwrap() >= 10, "{t}");
    assert!(t["lastUsedAt"].is_string());
    assert!(
        !listed.to_string().contains(&full),
        "the secret is never shown again"
    );

    // Rina can neither revoke Dana's token nor read its log.
    let r = rina
        .client
        .delete(server.url(&format!("/api/mcp/tokens/{full_id}")))
        .header("authorization", &rina.token)
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 404);
    assert_eq!(
        rina.get(&format!("/api/mcp/tokens/{full_id}/calls"))
            .await
            .status(),
        404
    );
    // Revoked by Dana: the agent cannot connect any more; the other token still can.
    let r = dana
        .client
        .delete(server.url(&format!("/api/mcp/tokens/{full_id}")))
        .header("authorization", &dana.token)
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 200);
    let after = sdk(&url, &full, "connect", json!({}));
    assert!(after.get("error").is_some(), "{after}");
    let still = sdk(&url, &read_only, "connect", json!({}));
    assert!(still.get("ok").is_some(), "{still}");
    let _ = read_id;
}

/// The mail of `user1` in a Dovecot folder whose text holds `needle`: its flags, once there.
async fn on_server(ms: &MailServer, folder: &str, needle: &str) -> String {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    loop {
        let found = ms
            .messages("user1", folder)
            .into_iter()
            .find(|(_, raw)| String::from_utf8_lossy(raw).contains(needle));
        if let Some((flags, _)) = found {
            return flags;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "{needle} never reached {folder}"
        );
        tokio::time::sleep(std::time::Duration::from_millis(300)).await;
    }
}

/// The triage scope snoozes through the snooze feature: Dana's conversation goes to Dovecot's
/// Snoozed folder with its keywords and comes back when woken; Rina's mail and snooze are out of
/// reach (her snooze still sleeps after Dana's agent tried to wake it).
async fn snooze_checks(
    ms: &MailServer,
    url: &str,
    token: &str,
    dana: &Api,
    rina: &Api,
    mail_id: &str,
    rina_mail: &str,
) {
    let r = rina
        .post(
            "/api/snooze",
            json!({"emailId": rina_mail, "preset": "nextWeek"}),
        )
        .await;
    assert_eq!(r.status(), 200);
    let rina_snooze = r.json::<Value>().await.unwrap()["snooze"]["id"]
        .as_str()
        .unwrap()
        .to_string();
    let in_three_days = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs() as i64
        + 3 * 86_400;
    let until = chrono::DateTime::from_timestamp(in_three_days, 0)
        .unwrap()
        .to_rfc3339();
    let out = sdk(
        url,
        token,
        "snooze",
        json!({"email_id": mail_id, "until": until, "other_email_id": rina_mail}),
    );
    let snoozed = &out["snooze"];
    assert_eq!(snoozed["isError"], false, "{out}");
    let snooze_id = snoozed["structured"]["snooze"]["id"].as_str().unwrap();
    let listed = &out["list"]["structured"];
    assert_eq!(listed["total"], 1, "{out}");
    assert_eq!(listed["snoozed"][0]["id"], snooze_id);
    assert_eq!(listed["snoozed"][0]["subject"], "תיאום ליום שלישי");
    assert_eq!(out["others"]["isError"], true, "{out}");
    assert_eq!(out["badTime"]["isError"], true, "{out}");
    let flags = on_server(ms, "Snoozed", "agent-1@example.test").await;
    assert!(flags.contains("$SnoozedUntil-"), "{flags}");
    assert!(dana.get_json("/api/snooze").await["snoozed"][0]["id"] == snooze_id);

    let out = sdk(
        url,
        token,
        "wake",
        json!({"snooze_id": snooze_id, "other_snooze_id": rina_snooze}),
    );
    assert_eq!(out["wake"]["isError"], false, "{out}");
    assert_eq!(out["wake"]["structured"]["snooze"]["wokeBy"], "user");
    assert_eq!(out["others"]["isError"], true, "{out}");
    assert_eq!(out["list"]["structured"]["total"], 0, "{out}");
    let flags = on_server(ms, "INBOX", "agent-1@example.test").await;
    assert!(!flags.contains("$Snoozed"), "{flags}");
    let hers = rina.get_json("/api/snooze").await;
    assert_eq!(hers["snoozed"][0]["id"], rina_snooze.as_str(), "{hers}");
}

/// The transport's own checks, with plain HTTP.
async fn transport_checks(url: &str, token: &str, session: &str) {
    let bearer = format!("Bearer {token}");
    let meta = json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {}
    });
    let list =
        json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {"_meta": meta}});
    let modern = [
        ("authorization", bearer.as_str()),
        ("mcp-protocol-version", "2026-07-28"),
        ("mcp-method", "tools/list"),
        ("accept", "application/json, text/event-stream"),
    ];
    let (s, v) = post(url, &modern, list.clone()).await;
    assert_eq!(s, 200, "{v}");
    assert_eq!(v["result"]["resultType"], "complete");
    assert_eq!(v["result"]["cacheScope"], "private");
    // A session token of the web app opens nothing here.
    let with_session = format!("Bearer {session}");
    let (s, _) = post(
        url,
        &[("authorization", with_session.as_str())],
        list.clone(),
    )
    .await;
    assert_eq!(s, 401);
    let (s, _) = post(url, &[], list.clone()).await;
    assert_eq!(s, 401);
    // Headers that do not match the body.
    let (s, v) = post(url, &modern[..1], list.clone()).await;
    assert_eq!((s, v["error"]["code"].as_i64()), (400, Some(-32020)), "{v}");
    let mut wrong = modern;
    wrong[2] = ("mcp-method", "tools/call");
    let (s, v) = post(url, &wrong, list.clone()).await;
    assert_eq!((s, v["error"]["code"].as_i64()), (400, Some(-32020)), "{v}");
    // A version it does not speak: 400 with the versions it does.
    let mut old_meta = list.clone();
    old_meta["params"]["_meta"]["io.modelcontextprotocol/protocolVersion"] = json!("2099-01-01");
    let (s, v) = post(url, &modern, old_meta).await;
    assert_eq!((s, v["error"]["code"].as_i64()), (400, Some(-32022)), "{v}");
    assert_eq!(v["error"]["data"]["supported"][0], "2026-07-28");
    // An unknown method: 404 with -32601.
    let mut unknown = list.clone();
    unknown["method"] = json!("mail/send");
    let mut h = modern;
    h[2] = ("mcp-method", "mail/send");
    let (s, v) = post(url, &h, unknown).await;
    assert_eq!((s, v["error"]["code"].as_i64()), (404, Some(-32601)), "{v}");
    // A tool outside the token's scopes (read only): the tool's error, nothing changed.
    let call = json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {
        "_meta": meta, "name": "set_status", "arguments": {"email_id": "1", "status": "spam"}}});
    let mut h = modern.to_vec();
    h[2] = ("mcp-method", "tools/call");
    h.push(("mcp-name", "set_status"));
    let (s, v) = post(url, &h, call).await;
    assert_eq!(s, 200, "{v}");
    assert_eq!(v["result"]["isError"], true, "{v}");
    assert!(
        v["result"]["content"][0]["text"]
            .as_str()
            .unwrap()
            .contains("scopes")
    );
    // A page of another site (DNS rebinding) is refused; GET has no stream.
    let mut h = modern.to_vec();
    h.push(("origin", "http://evil.example"));
    let (s, _) = post(url, &h, list.clone()).await;
    assert_eq!(s, 403);
    let r = common::http()
        .build()
        .unwrap()
        .get(url)
        .header("authorization", &bearer)
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 405);
    // Batches are not JSON-RPC here.
    let (s, v) = post(url, &modern, json!([list])).await;
    assert_eq!((s, v["error"]["code"].as_i64()), (400, Some(-32600)), "{v}");
}
