//! Connections per client (`[server] max_connections_per_client`): one host must not be able
//! to hold every connection slot (a few hundred idle sockets once made `/api/health` time out
//! for everyone). A client is its address, an IPv6 one counted per /64 (one host is handed a
//! whole /64). The reverse proxies of `[server] trusted_proxies` are not capped: every client
//! behind them arrives from their address.

use std::collections::HashMap;
use std::net::{IpAddr, Ipv6Addr};
use std::sync::{Arc, Mutex};

use ipnet::IpNet;

/// The address a client is counted as: its IPv6 /64, or its IPv4 address (an IPv4-mapped IPv6
/// address as the IPv4 one).
pub fn client_key(ip: IpAddr) -> IpAddr {
    match ip.to_canonical() {
        IpAddr::V6(v6) => {
            let s = v6.segments();
            IpAddr::V6(Ipv6Addr::new(s[0], s[1], s[2], s[3], 0, 0, 0, 0))
        }
        v4 => v4,
    }
}

/// The open connections of each client.
pub struct Clients {
    cap: usize,
    uncapped: Vec<IpNet>,
    open: Mutex<HashMap<IpAddr, usize>>,
}

/// A connection's place in its client's count, given back when it is dropped.
pub struct Slot {
    clients: Option<(Arc<Clients>, IpAddr)>,
}

impl Clients {
    /// `cap` connections per client; the `uncapped` networks (trusted proxies) have none.
    pub fn new(cap: usize, uncapped: Vec<IpNet>) -> Arc<Self> {
        Arc::new(Self {
            cap,
            uncapped,
            open: Mutex::new(HashMap::new()),
        })
    }

    /// A place for one more connection from `peer`, or `None` when its client holds its cap.
    pub fn enter(self: &Arc<Self>, peer: IpAddr) -> Option<Slot> {
        let peer = peer.to_canonical();
        if self.uncapped.iter().any(|net| net.contains(&peer)) {
            return Some(Slot { clients: None });
        }
        let key = client_key(peer);
        let mut open = self.open.lock().unwrap_or_else(|e| e.into_inner());
        let n = open.entry(key).or_insert(0);
        if *n >= self.cap {
            return None;
        }
        *n += 1;
        Some(Slot {
            clients: Some((self.clone(), key)),
        })
    }

    #[cfg(test)]
    fn count(&self, peer: IpAddr) -> usize {
        let open = self.open.lock().unwrap();
        open.get(&client_key(peer)).copied().unwrap_or(0)
    }
}

impl Drop for Slot {
    fn drop(&mut self) {
        let Some((clients, key)) = self.clients.take() else {
            return;
        };
        let mut open = clients.open.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(n) = open.get_mut(&key) {
            *n = n.saturating_sub(1);
            if *n == 0 {
                open.remove(&key);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ip(s: &str) -> IpAddr {
        s.parse().unwrap()
    }

    #[test]
    fn ipv6_is_counted_per_64_and_mapped_ipv4_as_ipv4() {
        assert_eq!(client_key(ip("2001:db8:1:2:3:4:5:6")), ip("2001:db8:1:2::"));
        assert_eq!(client_key(ip("::ffff:192.0.2.1")), ip("192.0.2.1"));
        assert_eq!(client_key(ip("192.0.2.1")), ip("192.0.2.1"));
    }

    #[test]
    fn a_client_holds_its_cap_and_gets_a_place_back_when_one_closes() {
        let clients = Clients::new(2, vec!["10.0.0.1/32".parse().unwrap()]);
        let a = clients.enter(ip("2001:db8::1")).unwrap();
        let _b = clients.enter(ip("2001:db8::2")).unwrap();
        // A third address of the same /64 is the same client.
        assert!(clients.enter(ip("2001:db8::ffff")).is_none());
        // Another client is not affected.
        assert!(clients.enter(ip("2001:db8:0:1::1")).is_some());
        drop(a);
        assert_eq!(clients.count(ip("2001:db8::1")), 1);
        assert!(clients.enter(ip("2001:db8::3")).is_some());
        // A trusted proxy is never capped, and never counted.
        let proxied: Vec<Slot> = (0..10)
            .map(|_| clients.enter(ip("10.0.0.1")).unwrap())
            .collect();
        assert_eq!(proxied.len(), 10);
        assert_eq!(clients.count(ip("10.0.0.1")), 0);
    }
}
