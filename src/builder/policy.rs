//! Where a form's action URL may make the server connect (`[builder] allowed_hosts`,
//! `allowed_private_networks`). Whoever edits the Builder content chooses the action, with any
//! method and headers, and reads the answer: so an action may never reach a non-public address
//! unless the admin lists the network. `[mail]`'s settings play no part. The policy and its
//! resolver are the server's one outbound policy (`crate::http::outbound`), which the
//! unsubscribe requests use too.

pub use crate::http::outbound::{OutboundPolicy as ActionPolicy, PolicyResolver};

use crate::config::BuilderConfig;

/// The form actions' policy from `[builder]`.
pub fn action_policy(config: &BuilderConfig) -> ActionPolicy {
    ActionPolicy::new(&config.allowed_hosts, &config.allowed_private_networks)
}

#[cfg(test)]
mod tests {
    use std::net::SocketAddr;

    use super::*;
    use crate::mail::hosts::Refusal;

    #[test]
    fn builder_settings_make_the_policy() {
        let at = |ip: &str| vec![SocketAddr::new(ip.parse().unwrap(), 80)];
        let default = action_policy(&BuilderConfig::default());
        assert_eq!(
            default.check_addresses(&at("127.0.0.1")),
            Err(Refusal::Private)
        );
        let p = action_policy(&BuilderConfig {
            allowed_hosts: vec!["forms.example.org".into()],
            allowed_private_networks: vec!["192.168.5.0/24".into()],
            ..BuilderConfig::default()
        });
        assert_eq!(p.check_addresses(&at("192.168.5.9")), Ok(()));
        assert_eq!(p.check_name("evil.example"), Err(Refusal::NotListed));
    }
}
