//! Who the client is when mailclient runs behind a reverse proxy. The TCP peer of a proxied
//! request is the proxy, so keying the login throttle on it would lock every user out together.
//! `X-Forwarded-For` names the client, but anyone can send that header: it is read only when
//! the peer is one of `[server] trusted_proxies`, and then from the right (the hop our proxy
//! added) past the addresses that are themselves trusted proxies; what a client wrote to the
//! left of that is never believed.

use std::net::IpAddr;

use axum::http::HeaderMap;
use ipnet::IpNet;

/// `[server] trusted_proxies`, parsed (the config checked every entry).
#[derive(Debug, Default, Clone)]
pub struct TrustedProxies(Vec<IpNet>);

impl TrustedProxies {
    pub fn new(entries: &[String]) -> Self {
        Self(
            entries
                .iter()
                .filter_map(|e| crate::config::parse_network(e))
                .collect(),
        )
    }

    fn trusts(&self, ip: IpAddr) -> bool {
        self.0.iter().any(|net| net.contains(&ip))
    }

    /// The client of a request that came from `peer` carrying `headers`.
    pub fn client(&self, peer: IpAddr, headers: &HeaderMap) -> IpAddr {
        let peer = peer.to_canonical();
        if !self.trusts(peer) {
            return peer;
        }
        // Several header lines are one list, in order.
        let hops: Vec<&str> = headers
            .get_all("x-forwarded-for")
            .iter()
            .filter_map(|v| v.to_str().ok())
            .flat_map(|v| v.split(','))
            .map(str::trim)
            .collect();
        let mut nearest = peer;
        for hop in hops.iter().rev() {
            // Garbage where an address should be: the last hop we trust is as far as we know.
            let Ok(ip) = hop.parse::<IpAddr>().map(|ip| ip.to_canonical()) else {
                return nearest;
            };
            if !self.trusts(ip) {
                return ip;
            }
            nearest = ip;
        }
        nearest
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn proxies(list: &[&str]) -> TrustedProxies {
        TrustedProxies::new(&list.iter().map(|s| s.to_string()).collect::<Vec<_>>())
    }

    fn xff(values: &[&str]) -> HeaderMap {
        let mut h = HeaderMap::new();
        for v in values {
            h.append("x-forwarded-for", v.parse().unwrap());
        }
        h
    }

    fn ip(s: &str) -> IpAddr {
        s.parse().unwrap()
    }

    #[test]
    fn the_header_is_ignored_from_an_untrusted_peer() {
        let none = proxies(&[]);
        assert_eq!(
            none.client(ip("203.0.113.9"), &xff(&["1.1.1.1"])),
            ip("203.0.113.9")
        );
        let some = proxies(&["10.0.0.1"]);
        assert_eq!(
            some.client(ip("10.0.0.2"), &xff(&["1.1.1.1"])),
            ip("10.0.0.2")
        );
    }

    #[test]
    fn the_right_most_untrusted_hop_is_the_client() {
        let p = proxies(&["10.0.0.0/8", "::1"]);
        // The client wrote "6.6.6.6" itself; our proxy appended the address it saw.
        let h = xff(&["6.6.6.6, 198.51.100.7"]);
        assert_eq!(p.client(ip("10.0.0.1"), &h), ip("198.51.100.7"));
        // Two proxies of ours, the outer one's line first.
        let h = xff(&["6.6.6.6, 198.51.100.7", "10.1.2.3"]);
        assert_eq!(p.client(ip("::1"), &h), ip("198.51.100.7"));
        // IPv4 peers seen on an IPv6 socket.
        assert_eq!(
            p.client(ip("::ffff:10.0.0.1"), &xff(&["198.51.100.7"])),
            ip("198.51.100.7")
        );
    }

    #[test]
    fn without_a_usable_header_the_nearest_trusted_hop_is_used() {
        let p = proxies(&["10.0.0.0/8"]);
        assert_eq!(p.client(ip("10.0.0.1"), &HeaderMap::new()), ip("10.0.0.1"));
        assert_eq!(
            p.client(ip("10.0.0.1"), &xff(&["10.0.0.9"])),
            ip("10.0.0.9")
        );
        assert_eq!(
            p.client(ip("10.0.0.1"), &xff(&["1.1.1.1, nonsense, 10.0.0.9"])),
            ip("10.0.0.9")
        );
    }
}
