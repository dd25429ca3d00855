//! A server whose LIST-STATUS replies carry RFC 5258's extended data items (`("CHILDINFO" ...)`),
//! which the IMAP parser underneath cannot read: the session that met them ends, and the next
//! one lists plainly and syncs, instead of failing on every pass.

use std::collections::HashSet;
use std::sync::{Arc, Mutex};

use super::*;
use crate::common::imap_relay::{Act, ClientLine, Rewrite};

/// Adds an extended data item to every `* LIST` line answering a LIST with RETURN options;
/// records each connection's LIST commands.
#[derive(Default)]
struct ExtendedList {
    returning: Mutex<HashSet<usize>>,
    lists: Mutex<Vec<(usize, String)>>,
}

impl Rewrite for ExtendedList {
    fn client_line(&self, line: &ClientLine<'_>) -> Act {
        if line.command == "LIST" {
            self.lists
                .lock()
                .unwrap()
                .push((line.conn, line.args.clone()));
            if line.args.contains("RETURN") {
                self.returning.lock().unwrap().insert(line.conn);
            }
        }
        Act::Forward
    }
    fn server_line(&self, conn: usize, line: Vec<u8>) -> Vec<Vec<u8>> {
        if line.starts_with(b"* LIST ") && self.returning.lock().unwrap().contains(&conn) {
            let text = String::from_utf8_lossy(&line);
            let text = text.trim_end_matches("\r\n");
            return vec![format!("{text} (\"CHILDINFO\" (\"SUBSCRIBED\"))\r\n").into_bytes()];
        }
        vec![line]
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_unreadable_list_status_reply_falls_back_to_a_plain_list() {
    let ms = MailServer::start();
    let mails: Vec<String> = (1..=12).map(|n| small_mail(&format!("xl {n}"))).collect();
    ms.seed("user1", mail_dir(&mails).path(), "INBOX");
    let rewrite = Arc::new(ExtendedList::default());
    let (app, token, _relay, _) = super::network::through(&ms, rewrite.clone()).await;
    wait_synced(&app, &token).await;
    assert_eq!(inbox_total(&app, &token).await, 12);
    // The first pass asks no STATUS (no folder has a last pass to compare one with); a later
    // one may, and meets the unreadable reply if the first did not.
    super::outlook::full_pass(&app, &token).await;
    let lists = rewrite.lists.lock().unwrap().clone();
    assert!(
        lists.first().is_some_and(|(_, a)| !a.contains("STATUS")),
        "{lists:?}"
    );
    // The session that met it asked with RETURN; the ones after it list plainly.
    let Some((first, _)) = lists.iter().find(|(_, a)| a.contains("RETURN (")) else {
        panic!("no LIST with RETURN: {lists:?}");
    };
    let later: Vec<&(usize, String)> = lists.iter().filter(|(c, _)| c > first).collect();
    assert!(
        !later.is_empty() && later.iter().all(|(_, a)| !a.contains("RETURN")),
        "{lists:?}"
    );
}
