//! Delivering one notification to one device (RFC 8030): the note as JSON, encrypted for the
//! device (`ece`), posted to its push service with the server's VAPID token, a time to live,
//! an urgency and a topic (a newer note of the same topic replaces one still waiting at the push
//! service, so a phone that was off gets the last, not fifty).
//!
//! The push service's URL came from a browser, so the request follows the `[push]` outbound
//! policy ([`Push::endpoint_ok`]): the listed hosts only, HTTPS only (plain HTTP only to a
//! private network the admin listed: a test's stand-in), no private address, no redirect.

use std::time::Duration;

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use reqwest::Url;

use super::ece;
use super::model::{Device, Note};
use super::vapid::Vapid;
use crate::config::Config;
use crate::http::outbound::OutboundPolicy;
use crate::messages;

/// How long a push service keeps a note for a device that is off (a day: older mail news is
/// not news; the inbox has it).
const TTL_SECS: u32 = 24 * 3600;

/// The push feature's service: the server's identity, the client and the policy.
pub struct Push {
    pub vapid: Vapid,
    enabled: bool,
    contact: String,
    policy: OutboundPolicy,
    client: reqwest::Client,
}

/// How a delivery went.
#[derive(Debug, PartialEq, Eq)]
pub enum Outcome {
    Sent,
    /// The subscription is no more (404, 410): the device is dropped.
    Gone,
    /// Anything else, in Hebrew with the status, for the device's line in the settings.
    Failed(String),
}

impl Outcome {
    /// What the user is told when a delivery did not reach the device, in Hebrew.
    pub fn failure(&self) -> Option<String> {
        match self {
            Outcome::Sent => None,
            Outcome::Gone => Some(messages::PUSH_TEST_GONE.to_string()),
            Outcome::Failed(why) => Some(why.clone()),
        }
    }
}

impl Push {
    /// The service for `config`, with the identity kept in the store.
    pub fn new(config: &Config, vapid: Vapid) -> anyhow::Result<Self> {
        let push = &config.push;
        let policy = OutboundPolicy::new(&push.allowed_hosts, &push.allowed_private_networks);
        let client = policy.client(Duration::from_secs(push.timeout_secs), None)?;
        let contact = if !push.contact.is_empty() {
            push.contact.clone()
        } else if let Some(url) = config.https_public_url() {
            url.to_string()
        } else {
            "mailto:postmaster@mailclient.invalid".to_string()
        };
        Ok(Self {
            vapid,
            enabled: push.enabled,
            contact,
            policy,
            client,
        })
    }

    /// Whether the admin offers notifications.
    pub fn enabled(&self) -> bool {
        self.enabled
    }

    /// Checks a subscription's push service URL before it is kept: a Hebrew reason when the
    /// policy refuses it.
    pub async fn endpoint_ok(&self, endpoint: &str) -> Result<Url, &'static str> {
        let url = Url::parse(endpoint).map_err(|_| messages::PUSH_ENDPOINT_REFUSED)?;
        if url.scheme() == "http" && !self.policy.listed_private_literal(&url) {
            return Err(messages::PUSH_ENDPOINT_REFUSED);
        }
        self.policy
            .check_url(&url)
            .await
            .map_err(|_| messages::PUSH_ENDPOINT_REFUSED)?;
        Ok(url)
    }

    /// Sends `note` to `device`.
    pub async fn deliver(&self, device: &Device, note: &Note, urgent: bool) -> Outcome {
        match self.try_deliver(device, note, urgent).await {
            Ok(outcome) => outcome,
            Err(e) => {
                tracing::info!(device = device.id, error = %e, "push: not delivered");
                Outcome::Failed(messages::PUSH_TEST_FAILED.to_string())
            }
        }
    }

    async fn try_deliver(
        &self,
        device: &Device,
        note: &Note,
        urgent: bool,
    ) -> anyhow::Result<Outcome> {
        let url = self
            .endpoint_ok(&device.endpoint)
            .await
            .map_err(|e| anyhow::anyhow!(e))?;
        let audience = url.origin().ascii_serialization();
        let body = ece::seal(
            &URL_SAFE_NO_PAD.decode(&device.p256dh)?,
            &URL_SAFE_NO_PAD.decode(&device.auth)?,
            &serde_json::to_vec(note)?,
        )?;
        let auth = self
            .vapid
            .authorization(&audience, &self.contact, crate::kit::now())?;
        let response = self
            .client
            .post(url)
            .header("Authorization", auth)
            .header("TTL", TTL_SECS.to_string())
            .header("Content-Encoding", "aes128gcm")
            .header("Content-Type", "application/octet-stream")
            .header("Urgency", if urgent { "high" } else { "normal" })
            .header("Topic", topic(&note.tag))
            .body(body)
            .send()
            .await?;
        let status = response.status().as_u16();
        Ok(match status {
            200..=299 => Outcome::Sent,
            404 | 410 => Outcome::Gone,
            _ => {
                tracing::info!(
                    device = device.id,
                    status,
                    "push: refused by the push service"
                );
                Outcome::Failed(format!("{} ({status})", messages::PUSH_TEST_FAILED))
            }
        })
    }
}

/// A topic is at most 32 characters of the URL-safe base64 alphabet (RFC 8030 5.4).
fn topic(tag: &str) -> String {
    let clean: String = tag
        .chars()
        .filter(|c| c.is_ascii_alphanumeric() || *c == '-' || *c == '_')
        .take(32)
        .collect();
    if clean.is_empty() {
        "mail".into()
    } else {
        clean
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The default host list, or any host and these private networks (a test's config).
    fn push(allowed_private: &[&str]) -> Push {
        let mut config = Config::default();
        if !allowed_private.is_empty() {
            config.push.allowed_hosts.clear();
        }
        config.push.allowed_private_networks =
            allowed_private.iter().map(|s| s.to_string()).collect();
        let (_dir, store, _) = crate::schema::store_with_user();
        let vapid = Vapid::load_or_create(&store, &crate::crypto::ServerKey::ephemeral()).unwrap();
        Push::new(&config, vapid).unwrap()
    }

    /// Only the browsers' push services over HTTPS; a private address only when listed, and
    /// plain HTTP only there.
    #[tokio::test]
    async fn only_listed_push_services_are_reached() {
        let p = push(&[]);
        for bad in [
            "http://fcm.googleapis.com/fcm/send/x",
            "https://evil.example/push",
            "https://127.0.0.1/push",
            "https://169.254.169.254/latest",
            "file:///etc/passwd",
            "not a url",
        ] {
            assert_eq!(
                p.endpoint_ok(bad).await.err(),
                Some(messages::PUSH_ENDPOINT_REFUSED),
                "{bad}"
            );
        }
        let listed = push(&["127.0.0.1/32"]);
        assert!(
            listed
                .endpoint_ok("http://127.0.0.1:9/push/a")
                .await
                .is_ok()
        );
        assert!(
            listed
                .endpoint_ok("http://10.0.0.1:9/push/a")
                .await
                .is_err()
        );
        assert_eq!(topic("new mail/1"), "newmail1");
        assert_eq!(topic("ש"), "mail");
    }
}
