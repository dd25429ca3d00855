//! Gmail's model (issue 38) on a Dovecot shaped like Gmail (`MAILTEST_GMAIL=1`): real folders
//! holding copies, as Gmail shows them over IMAP. INBOX, `[Gmail]/All Mail` (`\All`, every mail
//! again), `[Gmail]/Sent Mail`, `[Gmail]/Drafts`, `[Gmail]/Trash`, `[Gmail]/Spam`,
//! `[Gmail]/Starred` (`\Flagged`), `[Gmail]/Important`, and two labels, one Hebrew. The mailbox
//! has 40 distinct mails in 87 copies; the client must download 40, count, search and list
//! mails and not copies, and archive as Gmail does (out of INBOX, still in All Mail and its
//! labels).

use super::outlook::full_pass;
use super::*;

/// The mailbox of the issue: 40 mails (Message-ID `<gm{i}@sender.test>`, subject
/// `חשבונית {i}`), in these folders, the starred ones flagged in every copy.
pub(super) const INBOX: std::ops::Range<usize> = 0..30;
pub(super) const ALL_MAIL: std::ops::Range<usize> = 0..40;
pub(super) const WORK: std::ops::Range<usize> = 25..31;
const RECEIPTS: std::ops::Range<usize> = 28..33;
const STARRED: [usize; 3] = [1, 26, 35];
const IMPORTANT: [usize; 3] = [2, 3, 36];
pub(super) const WORK_LABEL: &str = "עבודה";
/// The name `Receipts` is given in Gmail, quotes included.
const RENAMED: &str = "קבלות \"2025\"";

pub(super) fn gmail_mail(i: usize) -> String {
    format!(
        "From: Noa <noa@sender.test>\r\nTo: user1@example.test\r\n\
         Subject: =?UTF-8?B?{}?=\r\nMessage-ID: <gm{i}@sender.test>\r\n\
         Date: Mon, 3 Mar 2025 {:02}:{:02}:00 +0000\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n\
         חשבונית מספר {i}\r\n",
        base64(&format!("חשבונית {i}")),
        i / 60 + 8,
        i % 60,
    )
}

fn base64(s: &str) -> String {
    use base64::Engine;
    base64::engine::general_purpose::STANDARD.encode(s)
}

/// Seeds `folder` with the mails `which`, the starred ones flagged.
fn seed(ms: &MailServer, folder: &str, which: impl IntoIterator<Item = usize>) {
    let (starred, plain): (Vec<usize>, Vec<usize>) =
        which.into_iter().partition(|i| STARRED.contains(i));
    for (set, flags) in [(plain, ""), (starred, "F")] {
        if set.is_empty() {
            continue;
        }
        let dir = tempfile::tempdir().unwrap();
        for i in set {
            std::fs::write(dir.path().join(format!("{i:03}.eml")), gmail_mail(i)).unwrap();
        }
        ms.seed_flagged("user1", dir.path(), folder, flags);
    }
}

/// A Gmail-shaped Dovecot holding the mailbox (87 copies of 40 mails).
pub(super) fn gmail_server() -> MailServer {
    let ms = MailServer::start_with(&[("MAILTEST_GMAIL", "1")]);
    seed(&ms, "INBOX", INBOX);
    seed(&ms, "[Gmail]/All Mail", ALL_MAIL);
    seed(&ms, WORK_LABEL, WORK);
    seed(&ms, "Receipts", RECEIPTS);
    seed(&ms, "[Gmail]/Starred", STARRED);
    seed(&ms, "[Gmail]/Important", IMPORTANT);
    ms
}

/// The Message-IDs a listing (or search) answer holds, each as often as listed.
pub(super) fn message_ids(rows: &[Value]) -> Vec<String> {
    let mut ids: Vec<String> = rows
        .iter()
        .map(|r| r["messageId"].as_str().unwrap_or_default().to_string())
        .collect();
    ids.sort();
    ids
}

pub(super) fn gm_ids(which: impl IntoIterator<Item = usize>) -> Vec<String> {
    let mut ids: Vec<String> = which
        .into_iter()
        .map(|i| format!("gm{i}@sender.test"))
        .collect();
    ids.sort();
    ids
}

pub(super) async fn search(app: &TestApp, token: &str, q: &str) -> Vec<Value> {
    let q: String = q
        .bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' => (b as char).to_string(),
            _ => format!("%{b:02X}"),
        })
        .collect();
    let (s, v) = app
        .json(
            "GET",
            &format!("/api/search?q={q}&perPage=100"),
            Some(token),
            None,
        )
        .await;
    assert_eq!(s, 200, "{v}");
    v["results"].as_array().unwrap().clone()
}

pub(super) async fn get(app: &TestApp, token: &str, path: &str) -> Value {
    let (s, v) = app.json("GET", path, Some(token), None).await;
    assert_eq!(s, 200, "{path}: {v}");
    v
}

/// The figures: 40 downloads for 87 copies, search and every virtual folder list each
/// mail once, starred counts 3, the Archive view holds the mail that is only in All Mail, and a
/// label folder lists its mail.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_gmail_mailbox_is_downloaded_counted_and_listed_once_per_mail() {
    let ms = gmail_server();
    let (app, token) = synced_app(&ms, "user1").await;
    let sync = super::outlook::sync_status(&app, &token).await;
    if std::env::var("GM_DEBUG").is_ok() {
        let all = list(&app, &token, "all").await;
        eprintln!("ALL {:?}", message_ids(&all));
        eprintln!("ROW {}", all[0]);
    }
    assert_eq!(sync["fetchedMessages"], 40, "one download per mail: {sync}");

    // A Hebrew search finds every mail once (once the index has caught up).
    let found = eventually(Duration::from_secs(30), "the search index", || async {
        let found = search(&app, &token, "חשבונית").await;
        (found.len() >= 40).then_some(found)
    })
    .await;
    assert_eq!(message_ids(&found), gm_ids(ALL_MAIL), "search");
    // Its labels shown as labels, the Hebrew one readable (Gmail's Starred is no label).
    let row = found
        .iter()
        .find(|r| r["messageId"] == "gm28@sender.test")
        .unwrap();
    assert_eq!(
        row["folderLabels"],
        json!(["Receipts", WORK_LABEL]),
        "{row}"
    );
    let row = found
        .iter()
        .find(|r| r["messageId"] == "gm26@sender.test")
        .unwrap();
    assert_eq!(row["folderLabels"], json!([WORK_LABEL]), "{row}");

    let counts = get(&app, &token, "/api/emails/counts").await;
    assert_eq!(counts["starred"], 3, "{counts}");
    assert_eq!(counts["inbox"], 30, "{counts}");
    let starred = list(&app, &token, "starred").await;
    assert_eq!(message_ids(&starred), gm_ids(STARRED));
    assert_eq!(inbox_total(&app, &token).await, 30);
    assert_eq!(
        message_ids(&list(&app, &token, "inbox").await),
        gm_ids(INBOX)
    );

    // Gmail's archive: the mail that is only in All Mail (and its labels).
    let archive = list(&app, &token, "session/Archive").await;
    assert_eq!(message_ids(&archive), gm_ids(30..40), "archive view");

    // A label folder is in the tree by its Hebrew name, and lists its mail once each.
    let work = list(
        &app,
        &token,
        &format!("box:{}", url(&label_path(&app, &token).await)),
    )
    .await;
    assert_eq!(message_ids(&work), gm_ids(WORK), "label folder");

    // `[Gmail]/Starred` is not in the tree beside the Starred view; Important is.
    let tree = get(&app, &token, "/api/folders/tree").await;
    let paths: Vec<&str> = tree["mailboxes"][0]["folders"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["path"].as_str().unwrap())
        .collect();
    assert!(
        !paths.contains(&"[Gmail]/Starred") && paths.contains(&"[Gmail]/Important"),
        "{paths:?}"
    );
    // Important reads as Gmail's Hebrew interface names it, at the top of the tree.
    let important = tree["mailboxes"][0]["folders"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["path"] == "[Gmail]/Important")
        .unwrap();
    assert_eq!(
        (
            &important["name"],
            &important["fullName"],
            &important["depth"]
        ),
        (&json!("חשוב"), &json!("חשוב"), &json!(1)),
        "{important}"
    );
    assert_eq!(important["total"], IMPORTANT.len(), "{important}");
}

/// Archive (the "processed" status) takes the mail out of Gmail's INBOX on the server, keeps
/// it in All Mail and its labels, and lists it once in the Archive view.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn archiving_takes_gmail_mail_out_of_the_inbox_and_keeps_its_labels() {
    let ms = gmail_server();
    let (app, token) = synced_app(&ms, "user1").await;
    let inbox = list(&app, &token, "inbox").await;
    let mail = inbox
        .iter()
        .find(|m| m["messageId"] == "gm26@sender.test")
        .expect("gm26 in the inbox");
    let id = mail["id"]
        .as_str()
        .map(str::to_string)
        .unwrap_or(mail["id"].to_string());
    let (s, v) = app
        .json(
            "PUT",
            &format!("/api/emails/{id}/status"),
            Some(&token),
            Some(json!({"status": "processed"})),
        )
        .await;
    assert_eq!(s, 200, "{v}");
    eventually(
        Duration::from_secs(30),
        "out of the server's INBOX",
        || async { (ms.message_count("user1", "INBOX") == 29).then_some(()) },
    )
    .await;
    full_pass(&app, &token).await;
    assert_eq!(
        ms.message_count("user1", "[Gmail]/All Mail"),
        40,
        "still in All Mail, once"
    );
    assert_eq!(
        ms.message_count("user1", WORK_LABEL),
        6,
        "still in its label"
    );
    let archive = list(&app, &token, "session/Archive").await;
    let mut want = gm_ids(30..40);
    want.extend(gm_ids([26]));
    want.sort();
    assert_eq!(message_ids(&archive), want, "archive view");
    let work = list(
        &app,
        &token,
        &format!("box:{}", url(&label_path(&app, &token).await)),
    )
    .await;
    assert_eq!(
        message_ids(&work),
        gm_ids(WORK),
        "still listed under its label"
    );
    let counts = get(&app, &token, "/api/emails/counts").await;
    assert_eq!(counts["starred"], 3, "{counts}");
    assert_eq!(inbox_total(&app, &token).await, 29);

    // A label renamed in Gmail: the rows carry the new name, nothing is downloaded again. The
    // new name holds quotes, which LIST sends escaped: it reads as the user wrote it.
    let fetched = super::outlook::sync_status(&app, &token).await["fetchedMessages"].clone();
    ms.doveadm(&["mailbox", "rename", "-u", "user1", "Receipts", RENAMED]);
    full_pass(&app, &token).await;
    let row = eventually(Duration::from_secs(30), "the renamed label", || async {
        let found = search(&app, &token, "חשבונית").await;
        found
            .into_iter()
            .find(|r| r["messageId"] == "gm28@sender.test")
            .filter(|r| r["folderLabels"] == json!([WORK_LABEL, RENAMED]))
    })
    .await;
    assert_eq!(row["folderLabels"], json!([WORK_LABEL, RENAMED]), "{row}");
    assert_eq!(
        super::outlook::sync_status(&app, &token).await["fetchedMessages"],
        fetched,
        "a rename downloads nothing"
    );
}

fn url(s: &str) -> String {
    s.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' => (b as char).to_string(),
            _ => format!("%{b:02X}"),
        })
        .collect()
}

/// The server path of the Hebrew label folder, as the folder tree names it.
async fn label_path(app: &TestApp, token: &str) -> String {
    let tree = get(app, token, "/api/folders/tree").await;
    let folders = tree["mailboxes"][0]["folders"].as_array().unwrap().clone();
    let work = folders
        .iter()
        .find(|f| f.as_object().unwrap().values().any(|v| v == WORK_LABEL))
        .unwrap_or_else(|| panic!("{WORK_LABEL} in the tree: {tree}"));
    work["path"].as_str().unwrap().to_string()
}

/// The id of a mail as a listing shows it.
pub(super) async fn id_of(app: &TestApp, token: &str, folder: &str, n: usize) -> String {
    let rows = list(app, token, folder).await;
    let mail = rows
        .iter()
        .find(|m| m["messageId"] == format!("gm{n}@sender.test"))
        .unwrap_or_else(|| panic!("gm{n} in {folder}"));
    mail["id"].as_str().unwrap().to_string()
}

/// Delete puts the mail in `[Gmail]/Trash` and spam in `[Gmail]/Spam`, out of INBOX, All Mail
/// and its labels, as Gmail does; the mail is then listed once, in Trash (or Spam). A mail of
/// the archive marked "needs reply" goes back to INBOX and stays in All Mail.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn delete_spam_and_back_to_the_inbox_as_gmail_does() {
    let ms = gmail_server();
    let (app, token) = synced_app(&ms, "user1").await;
    let trashed = id_of(&app, &token, "inbox", 27).await;
    let (s, v) = app
        .json(
            "POST",
            &format!("/api/emails/{trashed}/trash"),
            Some(&token),
            None,
        )
        .await;
    assert_eq!(s, 200, "{v}");
    let spam = id_of(&app, &token, "inbox", 28).await;
    let back = id_of(&app, &token, "session/Archive", 31).await;
    for (id, status) in [(&spam, "spam"), (&back, "needs_reply")] {
        let (s, v) = app
            .json(
                "PUT",
                &format!("/api/emails/{id}/status"),
                Some(&token),
                Some(json!({"status": status})),
            )
            .await;
        assert_eq!(s, 200, "{v}");
    }
    eventually(Duration::from_secs(30), "the server's folders", || async {
        let counts = [
            ms.message_count("user1", "INBOX"),
            ms.message_count("user1", "[Gmail]/All Mail"),
            ms.message_count("user1", "[Gmail]/Trash"),
            ms.message_count("user1", "[Gmail]/Spam"),
            ms.message_count("user1", WORK_LABEL),
            ms.message_count("user1", "Receipts"),
        ];
        // 27 and 28 out of INBOX, All Mail and both labels; 31 back in INBOX.
        if std::env::var("GM_DEBUG").is_ok() {
            eprintln!("COUNTS {counts:?}");
        }
        (counts == [29, 38, 1, 1, 4, 4]).then_some(())
    })
    .await;
    full_pass(&app, &token).await;
    let trash = list(&app, &token, "trash").await;
    assert_eq!(message_ids(&trash), gm_ids([27]), "trash");
    let junk = list(&app, &token, "session/Spam").await;
    assert_eq!(message_ids(&junk), gm_ids([28]), "spam");
    let mut inbox: Vec<usize> = INBOX.filter(|i| ![27, 28].contains(i)).collect();
    inbox.push(31);
    assert_eq!(
        message_ids(&list(&app, &token, "inbox").await),
        gm_ids(inbox)
    );
    let archive = list(&app, &token, "session/Archive").await;
    assert_eq!(
        message_ids(&archive),
        gm_ids((30..40).filter(|i| *i != 31)),
        "archive view"
    );
    let work = list(
        &app,
        &token,
        &format!("box:{}", url(&label_path(&app, &token).await)),
    )
    .await;
    assert_eq!(message_ids(&work), gm_ids([25, 26, 29, 30]), "label");
    let found = search(&app, &token, "חשבונית").await;
    assert_eq!(message_ids(&found), gm_ids(ALL_MAIL), "search: each once");
}

/// New mail, a draft and a sent mail on the Gmail-shaped mailbox: new mail (in INBOX, then in
/// All Mail as Gmail files it) is downloaded and listed once; a draft is saved in
/// `[Gmail]/Drafts` and a sent mail in `[Gmail]/Sent Mail`, each listed once.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn new_mail_a_draft_and_a_send_on_a_gmail_mailbox() {
    let ms = gmail_server();
    let app = TestApp::with_config(&format!(
        "{}\n[compose]\nundo_send_secs = 0\n",
        ms.config_toml()
    ));
    let token = app.admin_token("dana", ADMIN_PASSWORD).await;
    assert_eq!(connect(&app, &token, ms.account("user1")).await.0, 200);
    wait_synced(&app, &token).await;

    ms.deliver("user1@example.test", &gmail_mail(40));
    eventually(Duration::from_secs(30), "the new mail", || async {
        (inbox_total(&app, &token).await == 31).then_some(())
    })
    .await;
    // Gmail has it in All Mail too.
    ms.doveadm(&[
        "copy",
        "-u",
        "user1@example.test",
        "[Gmail]/All Mail",
        "mailbox",
        "INBOX",
        "header",
        "Message-ID",
        "gm40@sender.test",
    ]);
    full_pass(&app, &token).await;
    assert_eq!(ms.message_count("user1", "[Gmail]/All Mail"), 41);
    let sync = super::outlook::sync_status(&app, &token).await;
    assert_eq!(sync["fetchedMessages"], 41, "{sync}");
    assert_eq!(inbox_total(&app, &token).await, 31);
    let found = search(&app, &token, "חשבונית").await;
    assert_eq!(found.len(), 41, "each once");

    let original = id_of(&app, &token, "inbox", 0).await;
    let (s, v) = app
        .json(
            "POST",
            "/api/drafts/save",
            Some(&token),
            Some(
                json!({"originalEmail": {"id": original, "messageId": "gm0@sender.test",
                "from": "noa@sender.test", "from_name": "Noa", "subject": "חשבונית 0"},
                "draftContent": "<p>טיוטה</p>"}),
            ),
        )
        .await;
    assert_eq!(s, 200, "{v}");
    assert_eq!(ms.message_count("user1", "[Gmail]/Drafts"), 1);
    let (s, v) = app
        .json(
            "POST",
            "/api/emails/send",
            Some(&token),
            Some(
                json!({"from": "user1@example.test", "to": ["user2@example.test"],
                "subject": "נשלח מ-Gmail", "body": "<p>שלום</p>"}),
            ),
        )
        .await;
    assert_eq!(s, 200, "{v}");
    eventually(Duration::from_secs(30), "the sent copy", || async {
        (ms.message_count("user1", "[Gmail]/Sent Mail") == 1).then_some(())
    })
    .await;
    full_pass(&app, &token).await;
    let (_, drafts) = app.json("GET", "/api/drafts", Some(&token), None).await;
    assert_eq!(drafts["total"], 1, "{drafts}");
    let sent = list(&app, &token, "sent").await;
    assert_eq!(sent.len(), 1, "{sent:?}");
    assert_eq!(sent[0]["subject"], "נשלח מ-Gmail");
}
