//! The IMAP side of writing mail: a short session next to the account's sync task, APPEND to
//! Drafts or Sent (stored locally at once, so the drafts page and Sent show it without
//! waiting for the next sync), expunging a draft, and \Answered on a replied mail.

use std::time::Duration;

use futures_util::TryStreamExt;

use super::outbox::MailboxRef;
use crate::accounts::AccountRecord;
use crate::mail::imap::ImapSession;
use crate::mail::imap_ops::{deadline, expunge_uids, refused, store_flags, uid_search};
use crate::mailstore::{self as mstore, Fetched, MailRead, MailWrite, Reason, ServerFlags};
use crate::state::AppState;
use crate::store::Store;
use crate::sync::{SyncManager, SyncShared};

pub struct Mailbox<'a> {
    pub session: ImapSession,
    store: &'a Store,
    account: &'a AccountRecord,
    limit: Duration,
    uidplus: bool,
}

impl<'a> Mailbox<'a> {
    /// The account's mailbox, through the sync's plumbing (its timeout, hosts, TLS and OAuth).
    pub async fn of_state(state: &'a AppState, account: &'a AccountRecord) -> anyhow::Result<Self> {
        Self::open(
            state.service::<SyncManager>().shared(),
            &state.store,
            account,
        )
        .await
    }

    pub async fn open(
        shared: &SyncShared,
        store: &'a Store,
        account: &'a AccountRecord,
    ) -> anyhow::Result<Self> {
        let endpoint = account.imap_endpoint(shared.timeout, &shared.hosts);
        let mut session = shared.oauth.imap(&shared.tls, &endpoint, account).await?;
        let limit = shared.timeout;
        let caps = deadline(limit, "CAPABILITY", session.capabilities()).await?;
        Ok(Self {
            uidplus: caps.has_str("UIDPLUS"),
            session,
            store,
            account,
            limit,
        })
    }

    pub async fn close(mut self) {
        let _ = tokio::time::timeout(Duration::from_secs(5), self.session.logout()).await;
    }

    /// The folder of a role (drafts, sent), as the sync found it; else the usual name,
    /// created when the mailbox has none.
    pub async fn folder(&mut self, role: &str) -> anyhow::Result<String> {
        let account = self.account.id;
        let role_owned = role.to_string();
        let store = self.store.clone();
        let known = tokio::task::spawn_blocking(move || -> anyhow::Result<Option<String>> {
            Ok(MailRead::new(&store)?
                .roles(account)?
                .get(&role_owned)
                .cloned())
        })
        .await??;
        if let Some(name) = known {
            return Ok(name);
        }
        let (name, use_) = match role {
            "drafts" => ("Drafts", "\\Drafts"),
            _ => ("Sent", "\\Sent"),
        };
        let list: Vec<_> = deadline(self.limit, "LIST", async {
            self.session
                .list(Some(""), Some(name))
                .await?
                .try_collect::<Vec<_>>()
                .await
        })
        .await?;
        if list.is_empty() {
            // CREATE-SPECIAL-USE where offered; a plain CREATE otherwise.
            let mailbox = crate::mail::imap_quoted::quoted(name)?;
            let special = format!("CREATE {mailbox} (USE ({use_}))");
            if deadline(
                self.limit,
                "CREATE",
                self.session.run_command_and_check_ok(&special),
            )
            .await
            .is_err()
            {
                deadline(self.limit, "CREATE", self.session.create(name)).await?;
            }
        }
        Ok(name.to_string())
    }

    /// APPENDs `raw` to `folder` and stores it locally. Returns where it is.
    pub async fn append(
        &mut self,
        folder: &str,
        seen: bool,
        draft: bool,
        raw: &[u8],
        message_id: &str,
    ) -> anyhow::Result<MailboxRef> {
        let flags = match (seen, draft) {
            (true, true) => "(\\Seen \\Draft)",
            (true, false) => "(\\Seen)",
            (false, true) => "(\\Draft)",
            (false, false) => "()",
        };
        deadline(
            self.limit,
            "APPEND",
            self.session.append(folder, Some(flags), None, raw),
        )
        .await?;
        let mailbox = deadline(self.limit, "SELECT", self.session.select(folder)).await?;
        let uidvalidity = mailbox.uid_validity.unwrap_or(0);
        let uid = self.find(message_id).await?.into_iter().max().unwrap_or(0);
        if uid > 0 {
            let (account, folder_owned, raw) = (self.account.id, folder.to_string(), raw.to_vec());
            self.write(move |w| {
                // Only into a folder the sync knows at this UIDVALIDITY: otherwise the next
                // sync fetches it like any other mail.
                if uidvalidity_of(w, account, &folder_owned)? == Some(uidvalidity) {
                    let fetched = Fetched {
                        uid,
                        flags: ServerFlags {
                            seen,
                            draft,
                            ..Default::default()
                        },
                        internal_date: None,
                        raw,
                        identity: None,
                        thread: None,
                    };
                    w.insert_messages(account, &folder_owned, &[fetched])?;
                }
                Ok(())
            })
            .await?;
        }
        Ok(MailboxRef {
            folder: folder.to_string(),
            uidvalidity,
            uid,
            message_id: Some(message_id.to_string()),
        })
    }

    /// Files a copy of ours (seen) like [`append`](Self::append), unless the folder already
    /// holds this Message-ID (an earlier attempt got that far): a retry never files the same
    /// mail twice.
    pub async fn append_once(
        &mut self,
        folder: &str,
        draft: bool,
        raw: &[u8],
        message_id: &str,
    ) -> anyhow::Result<MailboxRef> {
        let mailbox = deadline(self.limit, "SELECT", self.session.select(folder)).await?;
        if let Some(uid) = self.find(message_id).await?.into_iter().max() {
            return Ok(MailboxRef {
                folder: folder.to_string(),
                uidvalidity: mailbox.uid_validity.unwrap_or(0),
                uid,
                message_id: Some(message_id.to_string()),
            });
        }
        self.append(folder, true, draft, raw, message_id).await
    }

    /// Whether `folder` holds a message with this Message-ID (an idempotent writer looks
    /// before it APPENDs).
    pub async fn holds(&mut self, folder: &str, message_id: &str) -> anyhow::Result<bool> {
        deadline(self.limit, "SELECT", self.session.select(folder)).await?;
        Ok(!self.find(message_id).await?.is_empty())
    }

    /// UIDs of the selected folder's messages with this Message-ID.
    async fn find(&mut self, message_id: &str) -> anyhow::Result<Vec<u32>> {
        // Ours are plain ASCII; anything else (a hostile original's id) cannot go into a quoted
        // string and matches nothing.
        if !message_id.chars().all(|c| c.is_ascii_graphic()) || message_id.contains(['"', '\\']) {
            return Ok(Vec::new());
        }
        let query = format!("HEADER Message-ID \"{message_id}\"");
        // A NO (a throttled SEARCH) is an error: "not filed yet" would file it twice.
        let found = uid_search(&mut self.session, self.limit, &query).await?;
        Ok(found.into_iter().collect())
    }

    /// Removes a message from the mailbox and the store: by UID while the folder keeps its
    /// UIDVALIDITY, else by Message-ID. A message already gone is not an error.
    pub async fn expunge(&mut self, r: &MailboxRef) -> anyhow::Result<()> {
        let mailbox = match deadline(self.limit, "SELECT", self.session.select(&r.folder)).await {
            Ok(m) => m,
            // The folder is gone (renamed, deleted elsewhere): so is the message.
            Err(e) if refused(&e) => return Ok(()),
            Err(e) => return Err(e),
        };
        let uids: Vec<u32> = if mailbox.uid_validity == Some(r.uidvalidity) && r.uid > 0 {
            let query = format!("UID {}", r.uid);
            uid_search(&mut self.session, self.limit, &query)
                .await?
                .into_iter()
                .collect()
        } else if let Some(mid) = &r.message_id {
            self.find(mid).await?
        } else {
            Vec::new()
        };
        if !uids.is_empty() {
            expunge_uids(&mut self.session, &uids, self.uidplus, self.limit).await?;
        }
        let (account, folder) = (self.account.id, r.folder.clone());
        let uidvalidity = mailbox.uid_validity;
        self.write(move |w| {
            if uidvalidity_of(w, account, &folder)? != uidvalidity {
                return Ok(());
            }
            for uid in uids {
                if let Some(id) = w.id_of_uid(account, &folder, uid)? {
                    w.delete_message(id)?;
                }
            }
            Ok(())
        })
        .await
    }

    /// Sets \Answered on a stored mail (the one a sent reply answers), here and on the server.
    pub async fn mark_answered(&mut self, id: u64) -> anyhow::Result<()> {
        let account = self.account.id;
        let found = self
            .write(move |w| {
                let Some(mut meta) = w.meta(id)? else {
                    return Ok(None);
                };
                if meta.account_id != account {
                    return Ok(None);
                }
                let uidvalidity = uidvalidity_of(w, account, &meta.folder)?.unwrap_or(0);
                meta.answered = true;
                w.write_meta(&meta)?;
                Ok(Some((meta.folder, meta.uid, uidvalidity)))
            })
            .await?;
        let Some((folder, uid, uidvalidity)) = found else {
            return Ok(());
        };
        let mailbox = deadline(self.limit, "SELECT", self.session.select(&folder)).await?;
        if mailbox.uid_validity == Some(uidvalidity) {
            store_flags(
                &mut self.session,
                &uid.to_string(),
                "+FLAGS.SILENT (\\Answered)",
                self.limit,
            )
            .await?;
        }
        Ok(())
    }
}

impl Mailbox<'_> {
    /// One write transaction over the mail tables on the blocking pool (redb commits
    /// fsync), logged as mail this client wrote.
    async fn write<T: Send + 'static>(
        &self,
        f: impl FnOnce(MailWrite) -> anyhow::Result<T> + Send + 'static,
    ) -> anyhow::Result<T> {
        mstore::write(self.store, Reason::Outgoing, f).await
    }
}

/// The UIDVALIDITY the sync recorded for a folder (none: the sync does not know it yet).
fn uidvalidity_of(w: MailWrite, account: u64, folder: &str) -> anyhow::Result<Option<u32>> {
    Ok(w.folder(account, folder)?.map(|f| f.uidvalidity))
}

/// Whether the account's provider files sent mail into Sent by itself (Gmail does, for mail
/// sent through its SMTP): a copy of ours would show twice.
pub fn provider_keeps_sent(account: &AccountRecord) -> bool {
    let host = account.servers.smtp_server.to_ascii_lowercase();
    host == "smtp.gmail.com" || host.ends_with(".gmail.com") || host == "smtp.googlemail.com"
}
