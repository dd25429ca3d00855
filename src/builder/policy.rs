//! Where a form's action URL may make the server connect (`[builder] allowed_hosts`,
//! `allowed_private_networks`). Whoever edits the Builder content chooses the action, with any
//! method and headers, and reads the answer: so unlike a mail server (which a household often
//! runs on its LAN), an action may never reach loopback, private, link-local (the cloud
//! metadata address 169.254.169.254 among them), unique-local or other non-public addresses,
//! in IPv4, IPv6 or IPv4-inside-IPv6 (`mail::hosts::is_internal`), unless the admin lists the
//! network. `[mail]`'s settings play no part.
//!
//! The name is checked against the list before anything is sent, and every address it
//! resolves to is checked; the connection then goes to exactly those addresses (the resolver
//! of the forms' HTTP client, [`PolicyResolver`]), never to a second lookup that could answer
//! otherwise (DNS rebinding).

use std::net::{IpAddr, SocketAddr};

use ipnet::IpNet;

use crate::config::{BuilderConfig, parse_network};
use crate::mail::hosts::{HostPolicy, Refusal, is_internal};

/// The form actions' policy.
#[derive(Debug, Clone, Default)]
pub struct ActionPolicy {
    /// The names allowed (no address rule: that is ours below).
    names: HostPolicy,
    /// Non-public networks the admin allowed.
    allowed_private: Vec<IpNet>,
}

impl ActionPolicy {
    pub fn new(config: &BuilderConfig) -> Self {
        Self {
            names: HostPolicy::new(&config.allowed_hosts, false),
            allowed_private: config
                .allowed_private_networks
                .iter()
                .filter_map(|n| parse_network(n))
                .collect(),
        }
    }

    /// Whether `host` (a name or an IP literal, as in the URL) is on the allowed list.
    pub fn check_name(&self, host: &str) -> Result<(), Refusal> {
        self.names.check_name(host)
    }

    /// Whether every address may be connected to: a public one, or one in a network the admin
    /// allowed. One refused address refuses them all.
    pub fn check_addresses(&self, addrs: &[SocketAddr]) -> Result<(), Refusal> {
        if addrs.is_empty() || addrs.iter().any(|a| !self.allowed(a.ip())) {
            return Err(Refusal::Private);
        }
        Ok(())
    }

    fn allowed(&self, ip: IpAddr) -> bool {
        let ip = ip.to_canonical();
        !is_internal(ip) || self.allowed_private.iter().any(|n| n.contains(&ip))
    }
}

/// Resolves names for form requests and refuses addresses the policy refuses, so the
/// connection goes only to addresses that were checked.
pub struct PolicyResolver(pub ActionPolicy);

impl reqwest::dns::Resolve for PolicyResolver {
    fn resolve(&self, name: reqwest::dns::Name) -> reqwest::dns::Resolving {
        let policy = self.0.clone();
        let host = name.as_str().to_string();
        Box::pin(async move {
            let addrs: Vec<SocketAddr> =
                tokio::net::lookup_host((host.as_str(), 0)).await?.collect();
            if policy.check_addresses(&addrs).is_err() {
                return Err(
                    Box::new(std::io::Error::other("refused by the form action policy"))
                        as Box<dyn std::error::Error + Send + Sync>,
                );
            }
            Ok(Box::new(addrs.into_iter()) as reqwest::dns::Addrs)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(ip: &str) -> Vec<SocketAddr> {
        vec![SocketAddr::new(ip.parse().unwrap(), 80)]
    }

    #[test]
    fn internal_addresses_are_refused_by_default() {
        let p = ActionPolicy::new(&BuilderConfig::default());
        for ip in [
            "127.0.0.1",
            "10.1.2.3",
            "192.168.1.1",
            "169.254.169.254",
            "::1",
            "fd00::1",
            "fe80::1",
            "::ffff:127.0.0.1",
            "::ffff:169.254.169.254",
            "0.0.0.0",
        ] {
            assert_eq!(p.check_addresses(&at(ip)), Err(Refusal::Private), "{ip}");
        }
        assert_eq!(p.check_addresses(&at("93.184.216.34")), Ok(()));
        assert_eq!(p.check_addresses(&[]), Err(Refusal::Private));
        // One internal address among public ones refuses the name.
        let mixed = [at("93.184.216.34"), at("127.0.0.1")].concat();
        assert_eq!(p.check_addresses(&mixed), Err(Refusal::Private));
    }

    #[test]
    fn the_admin_may_allow_a_network_and_list_the_hosts() {
        let p = ActionPolicy::new(&BuilderConfig {
            allowed_hosts: vec!["forms.example.org".into(), "127.0.0.1".into()],
            allowed_private_networks: vec!["127.0.0.1".into(), "192.168.5.0/24".into()],
            ..BuilderConfig::default()
        });
        assert_eq!(p.check_addresses(&at("127.0.0.1")), Ok(()));
        assert_eq!(p.check_addresses(&at("::ffff:127.0.0.1")), Ok(()));
        assert_eq!(p.check_addresses(&at("192.168.5.9")), Ok(()));
        assert_eq!(p.check_addresses(&at("127.0.0.2")), Err(Refusal::Private));
        assert_eq!(
            p.check_addresses(&at("169.254.169.254")),
            Err(Refusal::Private)
        );
        assert_eq!(p.check_name("forms.example.org"), Ok(()));
        assert_eq!(p.check_name("evil.example"), Err(Refusal::NotListed));
    }
}
