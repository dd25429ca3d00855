//! Leaving a sender, as RFC 8058 and RFC 2369 allow, in this order:
//! 1. one click: the server POSTs `List-Unsubscribe=One-Click` to the https URL of
//!    `List-Unsubscribe` when `List-Unsubscribe-Post` offers it — no cookies, no credentials,
//!    bounded in time and size, no redirects, under the outbound host policy (`[unsubscribe]`:
//!    no internal address unless the admin allows the network);
//! 2. `mailto:`: a mail to the list's address (its subject and body as the URI says) from the
//!    user's mailbox that received the list's mail, through the outbox;
//! 3. the list's page, opened for the user in their browser;
//! 4. without any header, the removal links found in the body, offered to the user (never
//!    followed by the server).
//!
//! Each attempt is recorded with its result (done, failed and why, waiting in the outbox, or
//! opened by the user).

use std::time::Duration;

use super::headers::{self, Methods};
use super::model::{Attempt, AttemptState, KEEP_ATTEMPTS, Method, Sender};
use super::{ATTEMPTS, SENDERS};
use crate::config::UnsubscribeConfig;
use crate::error::Result;
use crate::http::outbound::{OutboundPolicy, UrlRefusal, read_capped};
use crate::messages;
use crate::outgoing::outbox::{self, Item, Kind};
use crate::outgoing::{self, Composed};
use crate::store::Store;

/// The body RFC 8058 asks for.
pub const ONE_CLICK_BODY: &str = "List-Unsubscribe=One-Click";
/// Bytes of an endpoint's answer read at most (it is not used, only drained).
const ANSWER_MAX: usize = 16 * 1024;

/// The client of one-click requests (a service of the state).
pub struct Unsubscriber {
    policy: OutboundPolicy,
    client: reqwest::Client,
}

impl Unsubscriber {
    pub fn new(config: &UnsubscribeConfig) -> anyhow::Result<Self> {
        let policy = OutboundPolicy::new(&config.allowed_hosts, &config.allowed_private_networks);
        let tls = if config.extra_ca_files.is_empty() {
            None
        } else {
            let ctx = crate::mail::tls::TlsContext::new(&config.extra_ca_files)?;
            let seen = std::sync::Arc::new(std::sync::Mutex::new(None));
            Some((*ctx.client_config(None, seen)?).clone())
        };
        let client = policy.client(Duration::from_secs(config.timeout_secs), tls)?;
        Ok(Self { policy, client })
    }

    /// RFC 8058's POST. Err: why it failed, in Hebrew.
    pub async fn one_click(&self, url: &str) -> std::result::Result<(), String> {
        let url =
            reqwest::Url::parse(url).map_err(|_| messages::UNSUBSCRIBE_BAD_URL.to_string())?;
        if url.scheme() != "https" {
            return Err(messages::UNSUBSCRIBE_NOT_HTTPS.into());
        }
        match self.policy.check_url(&url).await {
            Ok(()) => {}
            Err(UrlRefusal::Host(_)) => return Err(messages::UNSUBSCRIBE_HOST_REFUSED.into()),
            Err(UrlRefusal::Unresolved) => return Err(messages::UNSUBSCRIBE_UNREACHABLE.into()),
            Err(UrlRefusal::Malformed) => return Err(messages::UNSUBSCRIBE_BAD_URL.into()),
        }
        let sent = self
            .client
            .post(url)
            .header(
                reqwest::header::CONTENT_TYPE,
                "application/x-www-form-urlencoded",
            )
            .body(ONE_CLICK_BODY)
            .send()
            .await;
        let response = match sent {
            Ok(r) => r,
            Err(e) if e.is_timeout() => return Err(messages::UNSUBSCRIBE_TIMEOUT.into()),
            Err(e) => {
                tracing::info!(error = %e, "one-click unsubscribe failed");
                return Err(messages::UNSUBSCRIBE_UNREACHABLE.into());
            }
        };
        let status = response.status();
        // Drained (bounded) so the connection ends cleanly; its content is not used.
        let _ = read_capped(response, ANSWER_MAX).await;
        if status.is_success() {
            Ok(())
        } else if status.is_redirection() {
            Err(messages::UNSUBSCRIBE_REDIRECT.into())
        } else {
            Err(messages::unsubscribe_refused(status.as_u16()))
        }
    }
}

/// Queues the `mailto:` unsubscribe from the mailbox that received the list's mail.
pub fn queue_mailto(store: &Store, user_id: u64, s: &Sender, uri: &str) -> Result<u64> {
    let m = headers::mailto(uri)
        .ok_or_else(|| crate::error::AppError::bad_request(messages::UNSUBSCRIBE_BAD_URL))?;
    let account = crate::accounts::get_owned(store, user_id, s.account)?;
    let from = outgoing::sender(store, user_id, &account);
    let subject = if m.subject.trim().is_empty() {
        "unsubscribe".to_string()
    } else {
        m.subject
    };
    let body = if m.body.trim().is_empty() {
        "unsubscribe".to_string()
    } else {
        m.body
    };
    // The list's own words (a mailto body is the list's, in English), escaped, left to right.
    let html = crate::ai::routes::editor_html_in(&body, "english");
    let mail = Composed::to_one(from, &m.to, subject, html);
    let item = outbox::add(
        store,
        Item::new(user_id, account.id, Kind::Send, mail, outgoing::now()),
    )?;
    Ok(item.id)
}

/// The method an attempt takes for these methods, in the order of the module's doc.
pub fn method_of(m: &Methods) -> Option<(Method, String)> {
    if let Some(u) = &m.one_click {
        return Some((Method::OneClick, u.clone()));
    }
    if let Some(u) = &m.mailto {
        return Some((Method::Mailto, u.clone()));
    }
    if let Some(u) = &m.link {
        return Some((Method::Link, u.clone()));
    }
    (!m.body_links.is_empty()).then(|| (Method::BodyLink, m.body_links.join("\n")))
}

/// Records an attempt (and the sender as left when it is done), keeping the newest.
pub fn record(store: &Store, user_id: u64, mut a: Attempt) -> Result<Attempt> {
    let txn = store.begin_write()?;
    // Old attempts are trimmed after, never refused.
    a.id = ATTEMPTS.new_id_in(&txn, user_id, usize::MAX, "")?;
    ATTEMPTS.put_in(&txn, user_id, a.id, &a)?;
    if a.state == AttemptState::Done
        && let Some(mut s) = SENDERS.get_in::<Sender>(&txn, user_id, a.sender_id)?
    {
        s.unsubscribed = Some(a.at);
        SENDERS.put_in(&txn, user_id, s.id, &s)?;
    }
    txn.commit()?;
    ATTEMPTS.trim_oldest(store, user_id, KEEP_ATTEMPTS)?;
    Ok(a)
}

/// A `mailto:` attempt still waiting: done once the outbox sent it, failed when it gave up.
pub fn settle(store: &Store, user_id: u64, a: &mut Attempt) -> Result<bool> {
    let (AttemptState::Waiting, Some(id)) = (a.state, a.outbox_id) else {
        return Ok(false);
    };
    match outbox::get(store, user_id, id) {
        Ok(item) if item.last_error.is_some() && !item.retry => {
            a.state = AttemptState::Failed;
            a.reason = item.last_error.clone();
        }
        Ok(_) => return Ok(false),
        // Gone from the outbox: sent (an undone or deleted one is no attempt the user kept).
        Err(_) => a.state = AttemptState::Done,
    }
    let saved = a.clone();
    ATTEMPTS.update(store, user_id, a.id, |x: &mut Attempt| {
        *x = saved;
        Ok(())
    })?;
    if a.state == AttemptState::Done {
        SENDERS.update(store, user_id, a.sender_id, |s: &mut Sender| {
            s.unsubscribed = Some(a.at);
            Ok(())
        })?;
    }
    Ok(true)
}
