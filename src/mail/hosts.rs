//! Where the server may open mail connections (`[mail] allowed_hosts`, `deny_private_ranges`).
//! Any signed-in user names the IMAP and SMTP hosts of a connection test, so without a limit the
//! server would connect wherever they say: a port scanner of the LAN. Names are checked against
//! the allowed list before anything is sent; addresses are checked after DNS, on the resolved
//! IPs (a public name may resolve to 127.0.0.1), and the connection goes to exactly those IPs,
//! never to a second lookup of the name.
//!
//! Whatever the config, addresses where no mail server lives are refused: link-local (the
//! cloud metadata service at 169.254.169.254 and its IPv6 and vendor twins), unspecified,
//! broadcast, multicast and reserved ones ([`never_mail`]). Loopback and the private ranges stay
//! allowed by default, because a household's mail server is often on the LAN or on this very
//! machine (a Dovecot beside mailclient, ProtonMail Bridge on 127.0.0.1); `deny_private_ranges`
//! refuses them too when every mailbox is on the internet. What a user can learn there is bounded
//! anyway: a connection test reads back a server's words only when it speaks IMAP or SMTP, and
//! each user has a few tries a minute.

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};
use std::sync::Arc;

/// The policy, cheap to clone into every [`super::net::Endpoint`].
#[derive(Debug, Clone, Default, PartialEq)]
pub struct HostPolicy {
    /// Lowercase names (or `*.domain`); empty means any host.
    allowed: Arc<[String]>,
    /// Refuse loopback, private, link-local and other non-public addresses.
    deny_private: bool,
}

/// Why a host was refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refusal {
    NotListed,
    Private,
    /// An address no mail server has (link-local, metadata, multicast…), refused always.
    NeverMail,
}

impl HostPolicy {
    pub fn new(allowed: &[String], deny_private: bool) -> Self {
        Self {
            allowed: allowed.iter().map(|h| normalize(h)).collect(),
            deny_private,
        }
    }

    /// Whether `host` (as typed: a name or an IP literal) is on the allowed list.
    pub fn check_name(&self, host: &str) -> Result<(), Refusal> {
        if self.allowed.is_empty() {
            return Ok(());
        }
        let host = normalize(host);
        let listed = self
            .allowed
            .iter()
            .any(|pattern| match pattern.strip_prefix("*.") {
                Some(domain) => host
                    .strip_suffix(domain)
                    .is_some_and(|sub| sub.len() > 1 && sub.ends_with('.')),
                None => *pattern == host,
            });
        if listed {
            Ok(())
        } else {
            Err(Refusal::NotListed)
        }
    }

    /// Whether every address `host` resolved to may be connected to. One refused address
    /// refuses the name: a name that mixes public and private addresses is not a mail server
    /// to trust with a password.
    pub fn check_addresses(&self, addrs: &[SocketAddr]) -> Result<(), Refusal> {
        if addrs.iter().any(|a| never_mail(a.ip())) {
            return Err(Refusal::NeverMail);
        }
        if self.deny_private && addrs.iter().any(|a| is_internal(a.ip())) {
            return Err(Refusal::Private);
        }
        Ok(())
    }
}

fn normalize(host: &str) -> String {
    host.trim()
        .trim_end_matches('.')
        .trim_start_matches('[')
        .trim_end_matches(']')
        .to_ascii_lowercase()
}

/// An address where no mail server lives, refused whatever the config: link-local (IPv4
/// 169.254/16 with the cloud metadata service, IPv6 fe80::/10), the metadata services at other
/// addresses (AWS's fd00:ec2::254, Alibaba's 100.100.100.200), unspecified, broadcast,
/// multicast, 0/8 and the reserved 240/4; IPv4 inside IPv6 is judged as IPv4.
pub fn never_mail(ip: IpAddr) -> bool {
    match ip {
        IpAddr::V4(v4) => never_mail_v4(v4),
        IpAddr::V6(v6) => {
            if let Some(v4) = v6.to_ipv4_mapped() {
                return never_mail_v4(v4);
            }
            let s = v6.segments();
            v6.is_unspecified()
                || v6.is_multicast()
                || (s[0] & 0xffc0) == 0xfe80
                || v6 == Ipv6Addr::new(0xfd00, 0xec2, 0, 0, 0, 0, 0, 0x254)
        }
    }
}

fn never_mail_v4(ip: Ipv4Addr) -> bool {
    let [a, ..] = ip.octets();
    ip.is_link_local()
        || ip.is_unspecified()
        || ip.is_broadcast()
        || ip.is_multicast()
        || a == 0
        || a >= 240
        || ip == Ipv4Addr::new(100, 100, 100, 200)
}

/// An address that is not on the public internet: loopback, private (RFC 1918, IPv6 unique
/// local), link-local, shared (CGNAT), unspecified, broadcast, multicast, documentation and
/// benchmarking ranges; IPv4 inside IPv6 (mapped, compatible, NAT64) is judged as IPv4.
pub fn is_internal(ip: IpAddr) -> bool {
    match ip {
        IpAddr::V4(v4) => internal_v4(v4),
        IpAddr::V6(v6) => internal_v6(v6),
    }
}

fn internal_v4(ip: Ipv4Addr) -> bool {
    let [a, b, c, _] = ip.octets();
    ip.is_loopback()
        || ip.is_private()
        || ip.is_link_local()
        || ip.is_unspecified()
        || ip.is_broadcast()
        || ip.is_multicast()
        || ip.is_documentation()
        || a == 0
        || (a == 100 && (64..128).contains(&b)) // shared address space (CGNAT)
        || (a == 192 && b == 0 && c == 0) // IETF protocol assignments
        || (a == 198 && (b == 18 || b == 19)) // benchmarking
        || a >= 240 // reserved
}

fn internal_v6(ip: Ipv6Addr) -> bool {
    if let Some(v4) = ip.to_ipv4_mapped() {
        return internal_v4(v4);
    }
    let s = ip.segments();
    // ::a.b.c.d (deprecated IPv4-compatible) and 64:ff9b::a.b.c.d (NAT64) carry an IPv4.
    let embedded = || Ipv4Addr::new((s[6] >> 8) as u8, s[6] as u8, (s[7] >> 8) as u8, s[7] as u8);
    if s[..6] == [0; 6] && !ip.is_loopback() && !ip.is_unspecified() {
        return internal_v4(embedded());
    }
    if s[..6] == [0x64, 0xff9b, 0, 0, 0, 0] {
        return internal_v4(embedded());
    }
    ip.is_loopback()
        || ip.is_unspecified()
        || ip.is_multicast()
        || (s[0] & 0xfe00) == 0xfc00 // unique local
        || (s[0] & 0xffc0) == 0xfe80 // link-local
        || (s[0] & 0xffc0) == 0xfec0 // site-local (deprecated)
        || (s[0] == 0x2001 && s[1] == 0x0db8) // documentation
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ip(s: &str) -> IpAddr {
        s.parse().unwrap()
    }

    #[test]
    fn internal_ranges_are_recognized() {
        for a in [
            "127.0.0.1",
            "127.9.9.9",
            "10.1.2.3",
            "172.16.0.1",
            "172.31.255.255",
            "192.168.1.1",
            "169.254.169.254",
            "0.0.0.0",
            "100.64.0.1",
            "255.255.255.255",
            "224.0.0.1",
            "::1",
            "::",
            "fe80::1",
            "fd00::1",
            "fc00::1",
            "::ffff:127.0.0.1",
            "::ffff:10.0.0.1",
            "::127.0.0.1",
            "64:ff9b::a9fe:a9fe",
            "ff02::1",
        ] {
            assert!(is_internal(ip(a)), "{a}");
        }
        for a in [
            "8.8.8.8",
            "172.32.0.1",
            "100.128.0.1",
            "2a00:1450:4001::1",
            "::ffff:8.8.8.8",
        ] {
            assert!(!is_internal(ip(a)), "{a}");
        }
    }

    #[test]
    fn names_are_matched_exactly_or_by_domain() {
        let any = HostPolicy::default();
        assert_eq!(any.check_name("anything.example"), Ok(()));
        let p = HostPolicy::new(
            &[
                "IMAP.Gmail.com".into(),
                "*.example.org".into(),
                "10.0.0.5".into(),
            ],
            false,
        );
        assert_eq!(p.check_name("imap.gmail.com."), Ok(()));
        assert_eq!(p.check_name("mail.example.org"), Ok(()));
        assert_eq!(p.check_name("a.b.example.org"), Ok(()));
        assert_eq!(p.check_name("10.0.0.5"), Ok(()));
        assert_eq!(p.check_name("example.org"), Err(Refusal::NotListed));
        assert_eq!(p.check_name("evilexample.org"), Err(Refusal::NotListed));
        assert_eq!(p.check_name("smtp.gmail.com"), Err(Refusal::NotListed));
        assert_eq!(p.check_name("10.0.0.6"), Err(Refusal::NotListed));
    }

    #[test]
    fn addresses_are_refused_only_when_asked() {
        let local: SocketAddr = "127.0.0.1:993".parse().unwrap();
        let public: SocketAddr = "8.8.8.8:993".parse().unwrap();
        assert_eq!(HostPolicy::default().check_addresses(&[local]), Ok(()));
        let strict = HostPolicy::new(&[], true);
        assert_eq!(strict.check_addresses(&[public]), Ok(()));
        assert_eq!(
            strict.check_addresses(&[public, local]),
            Err(Refusal::Private)
        );
    }

    #[test]
    fn metadata_and_link_local_addresses_are_refused_by_default() {
        let default = HostPolicy::default();
        for a in [
            "169.254.169.254:993",
            "169.254.1.1:143",
            "[fe80::1]:993",
            "[fd00:ec2::254]:993",
            "100.100.100.200:993",
            "0.0.0.0:993",
            "[::]:993",
            "255.255.255.255:993",
            "224.0.0.1:993",
            "[::ffff:169.254.169.254]:993",
        ] {
            let addr: SocketAddr = a.parse().unwrap();
            assert_eq!(
                default.check_addresses(&[addr]),
                Err(Refusal::NeverMail),
                "{a}"
            );
        }
        // A household's own mail server stays reachable by default: loopback, the LAN.
        for a in [
            "127.0.0.1:993",
            "[::1]:993",
            "192.168.1.10:993",
            "10.0.0.5:143",
            "[fd12::5]:993",
            "8.8.8.8:993",
        ] {
            let addr: SocketAddr = a.parse().unwrap();
            assert_eq!(default.check_addresses(&[addr]), Ok(()), "{a}");
        }
    }
}
