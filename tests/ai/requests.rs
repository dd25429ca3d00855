//! The exact requests each call makes, as the AI-training settings shape them.

use super::*;

#[tokio::test]
async fn anthropic_requests_follow_the_training_settings() {
    let llm = FakeLlm::start().await;
    let (app, token) = app(&llm, "").await;
    with_key(&app, &token, "sk-ant-test").await;

    // Defaults (spec 000 §9): professional, auto language, creativity 0.7, 500 words, context,
    // auto-correct. A Hebrew mail asks for a Hebrew reply.
    let (s, v) = app
        .json(
            "POST",
            "/api/claude/smart-reply",
            Some(&token),
            Some(json!({"emailContent": {"from": "דנה <dana@example.test>", "subject": "פגישה", "body": "שלום, אפשר להיפגש מחר בעשר?", "date": "2026-11-22"}})),
        )
        .await;
    assert_eq!(s, 200, "{v}");
    assert_eq!(v["reply"], "תודה על ההודעה, מחר בעשר מתאים לי.\n\nבברכה");
    let r = llm.last();
    assert_eq!(r.path, "/v1/messages");
    assert_eq!(r.header("anthropic-version"), Some("2023-06-01"));
    assert_eq!(r.header("content-type"), Some("application/json"));
    assert_eq!(r.body["model"], "claude-test");
    assert_eq!(r.body["max_tokens"], 1600);
    assert_eq!(r.body["temperature"], 0.7);
    assert_eq!(r.body["messages"].as_array().unwrap().len(), 1);
    assert_eq!(r.body["messages"][0]["role"], "user");
    let system = r.system();
    assert!(
        system.starts_with(mailclient::ai::training::DEFAULT_SYSTEM_PROMPT),
        "{system}"
    );
    assert!(
        system.contains("Write the reply in Hebrew (עברית)"),
        "{system}"
    );
    assert!(system.contains("professional") && system.contains("At most 500 words"));
    assert!(system.contains("spelling and grammar"));
    assert!(
        r.user().contains("שלום, אפשר להיפגש מחר בעשר?") && r.user().contains("Subject: פגישה")
    );

    // Saved settings change the next request.
    let (s, v) = app
        .json(
            "POST",
            "/api/settings/ai-training",
            Some(&token),
            Some(json!({"systemPrompt": "אתה העוזר של דנה.", "tone": "friendly", "language": "english", "creativity": 0.2, "maxLength": 100, "autoCorrect": false})),
        )
        .await;
    assert_eq!(s, 200, "{v}");
    assert_eq!(v["settings"]["tone"], "friendly");
    assert_eq!(
        v["settings"]["includeContext"], true,
        "missing fields keep their defaults"
    );
    let (_, got) = app
        .json("GET", "/api/settings/ai-training", Some(&token), None)
        .await;
    assert_eq!(got["maxLength"], 100);
    assert!(got["updatedAt"].is_string());
    let (s, _) = app
        .json(
            "POST",
            "/api/claude/smart-reply",
            Some(&token),
            Some(json!({"emailContent": "שלום, מה שלומך?"})),
        )
        .await;
    assert_eq!(s, 200);
    let r = llm.last();
    assert!(r.system().starts_with("אתה העוזר של דנה.\n\nRules:"));
    assert!(r.system().contains("in English") && r.system().contains("friendly"));
    assert!(!r.system().contains("spelling"));
    assert_eq!(
        (
            r.body["temperature"].as_f64(),
            r.body["max_tokens"].as_u64()
        ),
        (Some(0.2), Some(400))
    );

    // A call's own settings and system prompt win for that call only.
    let (s, _) = app
        .json(
            "POST",
            "/api/claude/improve-email",
            Some(&token),
            Some(json!({"emailContent": "<p>היי, מה קורה עם הדוח?</p>", "style": "concise", "settings": {"language": "auto", "creativity": 0.5}, "customSystemPrompt": "SYSTEM-X"})),
        )
        .await;
    assert_eq!(s, 200);
    let r = llm.last();
    assert!(r.system().starts_with("SYSTEM-X\n\nRules:"));
    assert!(r.system().contains("shorter") && r.system().contains("in Hebrew (עברית)"));
    assert_eq!(r.body["temperature"], 0.5);
    assert!(r.user().contains("היי, מה קורה עם הדוח?") && !r.user().contains("<p>"));
    let (_, got) = app
        .json("GET", "/api/settings/ai-training", Some(&token), None)
        .await;
    assert_eq!(
        (got["creativity"].as_f64(), got["language"].as_str()),
        (Some(0.2), Some("english"))
    );

    // Invalid settings are refused with the field's message.
    let (s, v) = app
        .json(
            "POST",
            "/api/settings/ai-training",
            Some(&token),
            Some(json!({"maxLength": 10})),
        )
        .await;
    assert_message((s, &v), 400, messages::AI_MAX_LENGTH_RANGE);
    // Settings are an object of the fields to change; anything else is refused, nothing saved.
    let (s, v) = app
        .json(
            "POST",
            "/api/settings/ai-training",
            Some(&token),
            Some(json!(["maxLength", 600])),
        )
        .await;
    assert_eq!(s, 400, "{v}");
    assert!(
        v["message"]
            .as_str()
            .unwrap()
            .starts_with(messages::MALFORMED_JSON),
        "{v}"
    );
    let (_, v) = app
        .json("GET", "/api/settings/ai-training", Some(&token), None)
        .await;
    assert_ne!(v["maxLength"], 600);
}

#[tokio::test]
async fn improve_gives_editor_html_in_each_style_and_subject_is_one_line() {
    let llm = FakeLlm::start().await;
    let (app, token) = app(&llm, "").await;
    with_key(&app, &token, "sk-ant-test").await;
    let mut instructions = Vec::new();
    for style in ["professional", "friendly", "concise"] {
        let (s, v) = app
            .json(
                "POST",
                "/api/claude/improve-email",
                Some(&token),
                Some(json!({"emailContent": "<p>רציתי לשאול אם אפשר להיפגש</p>", "style": style})),
            )
            .await;
        assert_eq!(s, 200, "{v}");
        assert_eq!(
            v["improved"],
            "<p>שלום רב,</p><p>אשמח לקבוע פגישה מחר בשעה עשר.</p><p>בברכה</p>"
        );
        assert_eq!(
            v["improvedText"],
            "שלום רב,\n\nאשמח לקבוע פגישה מחר בשעה עשר.\n\nבברכה"
        );
        instructions.push(llm.last().system());
    }
    assert!(instructions[0].contains("professional"));
    assert!(instructions[1].contains("friendly"));
    assert!(instructions[2].contains("shorter"));
    let (s, v) = app
        .json(
            "POST",
            "/api/claude/improve-email",
            Some(&token),
            Some(json!({"emailContent": "x", "style": "angry"})),
        )
        .await;
    assert_message((s, &v), 400, messages::AI_STYLE_UNKNOWN);

    llm.push(Reply::Text(
        "Subject: \"דוח רבעוני — סיכום\"\nשורה נוספת".into(),
    ));
    let (s, v) = subject(&app, &token, "הנה הדוח הרבעוני").await;
    assert_eq!(
        (s, v["subject"].as_str()),
        (200, Some("דוח רבעוני — סיכום"))
    );
    assert_eq!(llm.last().body["max_tokens"], 100);
}

#[tokio::test]
async fn an_openai_compatible_server_needs_no_key_and_gets_one_when_stored() {
    let llm = FakeLlm::start().await;
    let (app, token) = app(&llm, "").await;
    let (s, v) = app
        .json(
            "PUT",
            "/api/settings/ai",
            Some(&token),
            Some(json!({"provider": "openai", "model": "llama-test", "baseUrl": format!("{}/v1", llm.base)})),
        )
        .await;
    assert_eq!(s, 200, "{v}");
    assert_eq!(v["effective"]["provider"], "openai");
    assert_eq!(v["keyRequired"], false);
    assert_eq!(v["defaults"]["model"], "claude-test");

    let (s, v) = subject(&app, &token, "Can we meet on Sunday to plan the release?").await;
    assert_eq!(
        (s, v["subject"].as_str()),
        (200, Some("Team meeting on Sunday")),
        "{v}"
    );
    let r = llm.last();
    assert_eq!(r.path, "/v1/chat/completions");
    assert_eq!(r.header("authorization"), None);
    assert_eq!(r.body["model"], "llama-test");
    assert_eq!(r.body["messages"][0]["role"], "system");
    assert_eq!(r.body["messages"][1]["role"], "user");
    assert_eq!(r.body["max_tokens"], 100);
    assert!(r.system().contains("in English, the language of the email"));

    with_key(&app, &token, "sk-local").await;
    subject(&app, &token, "שלום").await;
    assert_eq!(llm.last().header("authorization"), Some("Bearer sk-local"));

    // The key is bound to the endpoint it was stored for: back on Anthropic it is not there,
    // and it never travels to the other provider.
    let (s, v) = app
        .json(
            "PUT",
            "/api/settings/ai",
            Some(&token),
            Some(json!({"provider": "anthropic"})),
        )
        .await;
    assert_eq!((s, &v["keyStored"]), (200, &json!(false)), "{v}");
    let (s, v) = subject(&app, &token, "שלום").await;
    assert_eq!((s, v["error"].as_str()), (400, Some("ai_key_missing")));
    let (_, v) = app
        .json(
            "GET",
            "/api/settings/claude-api-key/exists",
            Some(&token),
            None,
        )
        .await;
    assert_eq!(v, json!({"exists": false, "household": false}));
    for bad in [
        "http://user:pw@127.0.0.1:1/v1",
        "http://127.0.0.1:1/v1?token=x",
    ] {
        let (s, v) = app
            .json(
                "PUT",
                "/api/settings/ai",
                Some(&token),
                Some(json!({"provider": "openai", "baseUrl": bad})),
            )
            .await;
        assert_eq!(
            (s, v["message"].as_str()),
            (400, Some(messages::AI_BASE_URL_INVALID)),
            "{bad}"
        );
    }

    let (s, v) = app
        .json(
            "PUT",
            "/api/settings/ai",
            Some(&token),
            Some(json!({"provider": "openai", "baseUrl": "file:///etc"})),
        )
        .await;
    assert_message((s, &v), 400, messages::AI_BASE_URL_INVALID);
}

/// Replies in the thread's language (issue 40): whatever the UI's language, the smart reply is
/// asked for in the mail's own (Hebrew, English, Arabic, Russian) and comes back with its
/// direction; a training that names a language wins.
#[tokio::test]
async fn a_reply_is_asked_in_the_language_of_the_mail() {
    let llm = FakeLlm::start().await;
    let (app, token) = app(&llm, "").await;
    with_key(&app, &token, "sk-ant-test").await;
    let mails = [
        (
            "פגישה",
            "שלום, אפשר להיפגש מחר בעשר?",
            "Hebrew (עברית)",
            "hebrew",
            "rtl",
        ),
        (
            "Meeting",
            "Hi, can we meet tomorrow at ten?",
            "English",
            "english",
            "ltr",
        ),
        (
            "اجتماع",
            "مرحبا، هل يمكننا أن نلتقي غدا في العاشرة؟",
            "Arabic (العربية)",
            "arabic",
            "rtl",
        ),
        (
            "Встреча",
            "Привет, можем встретиться завтра в десять?",
            "Russian (русский)",
            "russian",
            "ltr",
        ),
    ];
    for (subject, body, name, language, dir) in mails {
        let (s, v) = app
            .json(
                "POST",
                "/api/claude/smart-reply",
                Some(&token),
                Some(json!({"emailContent": {"from": "x <x@example.test>", "subject": subject, "body": body}})),
            )
            .await;
        assert_eq!(s, 200, "{v}");
        let system = llm.last().system();
        assert!(
            system.contains(&format!(
                "Write the reply in {name}, the language of the email."
            )),
            "{language}: {system}"
        );
        assert_eq!(
            (v["language"].as_str(), v["dir"].as_str()),
            (Some(language), Some(dir)),
            "{v}"
        );
    }
    // The training names English: an Arabic mail is answered in English.
    let (s, v) = app
        .json(
            "POST",
            "/api/settings/ai-training",
            Some(&token),
            Some(json!({"language": "english"})),
        )
        .await;
    assert_eq!(s, 200, "{v}");
    let (_, v) = app
        .json(
            "POST",
            "/api/claude/smart-reply",
            Some(&token),
            Some(json!({"emailContent": {"from": "x <x@example.test>", "subject": "اجتماع", "body": "مرحبا، هل يمكننا أن نلتقي غدا؟"}})),
        )
        .await;
    assert!(llm.last().system().contains("Write the reply in English."));
    assert_eq!(v["dir"], "ltr", "{v}");
}

/// Held-out mail in each language, in the styles real mail comes in (tests/fixtures/languages:
/// a short reply above a long quoted thread in another language, Outlook's and Gmail's quote
/// headers in Hebrew, Arabic and Russian, Hebrew full of English technical terms, English
/// signatures and links under Arabic and Russian text): each is answered in the language its
/// writer wrote in, which the file name starts with.
#[tokio::test]
async fn held_out_mail_is_answered_in_its_writers_language() {
    let llm = FakeLlm::start().await;
    let (app, token) = app(&llm, "").await;
    with_key(&app, &token, "sk-ant-test").await;
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/languages");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    assert!(files.len() >= 8, "{files:?}");
    let mut wrong = Vec::new();
    for path in files {
        let raw = std::fs::read(&path).unwrap();
        let m = mail_parser::MessageParser::default().parse(&raw).unwrap();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let (want, name_in_prompt, dir) = match &name[..2] {
            "he" => ("hebrew", "Hebrew (עברית)", "rtl"),
            "en" => ("english", "English", "ltr"),
            "ar" => ("arabic", "Arabic (العربية)", "rtl"),
            "ru" => ("russian", "Russian (русский)", "ltr"),
            other => panic!("{name}: unknown language {other}"),
        };
        let (s, v) = app
            .json(
                "POST",
                "/api/claude/smart-reply",
                Some(&token),
                Some(json!({"emailContent": {
                    "from": m.from().and_then(|a| a.first()).and_then(|a| a.address()).unwrap(),
                    "subject": m.subject().unwrap(),
                    "body": m.body_text(0).unwrap(),
                }})),
            )
            .await;
        assert_eq!(s, 200, "{name}: {v}");
        let asked = llm.last().system().contains(&format!(
            "Write the reply in {name_in_prompt}, the language of the email."
        ));
        if !asked || v["language"] != want || v["dir"] != dir {
            wrong.push(format!("{name}: answered {} {}", v["language"], v["dir"]));
        }
    }
    assert!(wrong.is_empty(), "{wrong:#?}");
}
