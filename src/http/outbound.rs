//! Where the server's own web requests may go when a page or a mail chose the address: a
//! page-builder form's action (`[builder]`), a list's one-click unsubscribe URL
//! (`[unsubscribe]`). Whoever wrote that content chose the URL, so unlike a mail server (which
//! a household often runs on its LAN) such a request may never reach loopback, private,
//! link-local (the cloud metadata address 169.254.169.254 among them), unique-local or other
//! non-public addresses, in IPv4, IPv6 or IPv4-inside-IPv6 (`mail::hosts::is_internal`),
//! unless the admin lists the network; an optional list of names narrows it further.
//!
//! The name is checked against the list before anything is sent ([`OutboundPolicy::check_url`]
//! also resolves it and checks every address: a URL naming an IP literal never reaches a
//! resolver), and every address a name resolves to is checked again when the client connects;
//! the connection then goes to exactly those addresses ([`PolicyResolver`]), never to a second
//! lookup that could answer otherwise (DNS rebinding). The clients built here follow no
//! redirect, use no proxy from the environment and are bounded in time.

use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;
use std::time::Duration;

use ipnet::IpNet;

use crate::config::parse_network;
use crate::mail::hosts::{HostPolicy, Refusal, is_internal};

/// The policy of one kind of outbound request.
#[derive(Debug, Clone, Default)]
pub struct OutboundPolicy {
    /// The names allowed (no address rule: that is ours below).
    names: HostPolicy,
    /// Non-public networks the admin allowed.
    allowed_private: Vec<IpNet>,
}

/// Why a URL was refused before anything was sent.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UrlRefusal {
    /// Not an http(s) URL with a host.
    Malformed,
    /// The name is not on the list, or an address is not public (nor allowed).
    Host(Refusal),
    /// The name did not resolve.
    Unresolved,
}

impl OutboundPolicy {
    /// `allowed_hosts` as `[mail] allowed_hosts` (empty: any name); `allowed_private_networks`
    /// the non-public networks that may be reached all the same (addresses or CIDR networks;
    /// the config's check refuses any other form).
    pub fn new(allowed_hosts: &[String], allowed_private_networks: &[String]) -> Self {
        Self {
            names: HostPolicy::new(allowed_hosts, false),
            allowed_private: allowed_private_networks
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

    /// Checks a URL before anything is sent: its name against the list, and the addresses it
    /// names or resolves to (the resolver checks them again when it connects).
    pub async fn check_url(&self, url: &reqwest::Url) -> Result<(), UrlRefusal> {
        if !matches!(url.scheme(), "http" | "https") {
            return Err(UrlRefusal::Malformed);
        }
        let Some(host) = url.host_str() else {
            return Err(UrlRefusal::Malformed);
        };
        let host = host.trim_start_matches('[').trim_end_matches(']');
        self.check_name(host).map_err(UrlRefusal::Host)?;
        let port = url.port_or_known_default().unwrap_or(443);
        let addrs: Vec<SocketAddr> = match host.parse::<IpAddr>() {
            Ok(ip) => vec![SocketAddr::new(ip, port)],
            Err(_) => tokio::net::lookup_host((host, port))
                .await
                .map_err(|_| UrlRefusal::Unresolved)?
                .collect(),
        };
        self.check_addresses(&addrs).map_err(UrlRefusal::Host)
    }

    /// Whether the URL names, by an IP literal, an address in a non-public network the admin
    /// listed: where a policy that wants HTTPS may still take plain HTTP (a LAN stand-in or
    /// relay has no public certificate; anything on the way to a public address could read it).
    pub fn listed_private_literal(&self, url: &reqwest::Url) -> bool {
        let host = url.host_str().unwrap_or_default();
        let host = host.trim_start_matches('[').trim_end_matches(']');
        host.parse::<IpAddr>().is_ok_and(|ip| {
            let ip = ip.to_canonical();
            is_internal(ip) && self.allowed_private.iter().any(|n| n.contains(&ip))
        })
    }

    /// A client under this policy: no redirects, no proxy, `timeout` for the whole request,
    /// connections only to checked addresses; `tls` replaces the system's trust store (the mail
    /// connections' roots and extra CAs).
    pub fn client(
        &self,
        timeout: Duration,
        tls: Option<tokio_rustls::rustls::ClientConfig>,
    ) -> anyhow::Result<reqwest::Client> {
        let b = reqwest::Client::builder()
            .redirect(reqwest::redirect::Policy::none())
            .connect_timeout(timeout)
            .timeout(timeout)
            .user_agent(concat!("mailclient/", env!("CARGO_PKG_VERSION")))
            .no_proxy()
            .dns_resolver(Arc::new(PolicyResolver(self.clone())));
        let tls = match tls {
            Some(tls) => tls,
            None => crate::mail::tls::system_https()?,
        };
        Ok(b.tls_backend_preconfigured(tls).build()?)
    }
}

/// Resolves names for outbound requests and refuses addresses the policy refuses, so the
/// connection goes only to addresses that were checked.
pub struct PolicyResolver(pub OutboundPolicy);

impl reqwest::dns::Resolve for PolicyResolver {
    fn resolve(&self, name: reqwest::dns::Name) -> reqwest::dns::Resolving {
        let policy = self.0.clone();
        let host = name.as_str().to_string();
        Box::pin(async move {
            let addrs: Vec<SocketAddr> =
                tokio::net::lookup_host((host.as_str(), 0)).await?.collect();
            if policy.check_addresses(&addrs).is_err() {
                return Err(
                    Box::new(std::io::Error::other("refused by the outbound host policy"))
                        as Box<dyn std::error::Error + Send + Sync>,
                );
            }
            Ok(Box::new(addrs.into_iter()) as reqwest::dns::Addrs)
        })
    }
}

/// Reads at most `max` bytes of a body; None when it is larger (nothing more is read).
pub async fn read_capped(
    mut response: reqwest::Response,
    max: usize,
) -> Result<Option<Vec<u8>>, reqwest::Error> {
    if response.content_length().is_some_and(|n| n > max as u64) {
        return Ok(None);
    }
    let mut out = Vec::new();
    while let Some(chunk) = response.chunk().await? {
        if out.len() + chunk.len() > max {
            return Ok(None);
        }
        out.extend_from_slice(&chunk);
    }
    Ok(Some(out))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(ip: &str) -> Vec<SocketAddr> {
        vec![SocketAddr::new(ip.parse().unwrap(), 80)]
    }

    #[test]
    fn internal_addresses_are_refused_by_default() {
        let p = OutboundPolicy::default();
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
        let p = OutboundPolicy::new(
            &["forms.example.org".into(), "127.0.0.1".into()],
            &["127.0.0.1".into(), "192.168.5.0/24".into()],
        );
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

    #[test]
    fn plain_http_is_for_a_listed_private_address_only() {
        let p = OutboundPolicy::new(&[], &["127.0.0.1".into(), "fd00::/8".into()]);
        let url = |u: &str| reqwest::Url::parse(u).unwrap();
        assert!(p.listed_private_literal(&url("http://127.0.0.1:8080/push")));
        assert!(p.listed_private_literal(&url("http://[fd00::5]/push")));
        // Not listed, public, or a name (whatever it resolves to later).
        assert!(!p.listed_private_literal(&url("http://127.0.0.2/push")));
        assert!(!p.listed_private_literal(&url("http://93.184.216.34/push")));
        assert!(!p.listed_private_literal(&url("http://localhost/push")));
        assert!(!OutboundPolicy::default().listed_private_literal(&url("http://127.0.0.1/push")));
    }

    #[tokio::test]
    async fn a_url_naming_an_internal_address_is_refused_before_any_request() {
        let p = OutboundPolicy::default();
        for url in [
            "https://127.0.0.1/unsubscribe",
            "https://[::1]:8443/u",
            "http://10.0.0.7/u",
            "https://169.254.169.254/latest/meta-data",
            "https://localhost/u",
        ] {
            let url = reqwest::Url::parse(url).unwrap();
            assert_eq!(
                p.check_url(&url).await,
                Err(UrlRefusal::Host(Refusal::Private)),
                "{url}"
            );
        }
        let ftp = reqwest::Url::parse("ftp://example.org/x").unwrap();
        assert_eq!(p.check_url(&ftp).await, Err(UrlRefusal::Malformed));
    }
}
