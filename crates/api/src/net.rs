//! Client addresses: which proxies we trust (`TRUSTED_PROXIES`, a list of CIDRs), who the client
//! is behind them, and the key its rate limits count under.
//!
//! Proxies append the address they received a request from to `X-Forwarded-For`, so only the
//! entries our own proxies appended are facts; whatever lies to the left was written by the client.
//! Walking from the right, the first address that is not one of our proxies is the client.

use std::fmt;
use std::net::{IpAddr, Ipv6Addr};
use std::str::FromStr;

/// An IP network: an address and a prefix length (`10.0.0.0/8`, `fd00::/8`; a bare address is a
/// network of one).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Cidr {
    addr: IpAddr,
    prefix: u8,
}

impl Cidr {
    pub fn contains(&self, ip: IpAddr) -> bool {
        match (self.addr, ip.to_canonical()) {
            (IpAddr::V4(net), IpAddr::V4(ip)) => {
                mask(u32::from(ip).into(), 32, self.prefix) == u128::from(u32::from(net))
            }
            (IpAddr::V6(net), IpAddr::V6(ip)) => {
                mask(u128::from(ip), 128, self.prefix) == u128::from(net)
            }
            _ => false,
        }
    }
}

/// The `bits`-wide number `n` with all but its first `prefix` bits cleared.
fn mask(n: u128, bits: u8, prefix: u8) -> u128 {
    if prefix == 0 {
        return 0;
    }
    let keep = u128::MAX << (bits - prefix);
    n & keep & (u128::MAX >> (128 - bits))
}

impl FromStr for Cidr {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let bad = || format!("{s:?} is not an IP address or a CIDR such as 10.0.0.0/8");
        let (addr, prefix) = match s.trim().split_once('/') {
            Some((a, p)) => (a, Some(p)),
            None => (s.trim(), None),
        };
        let addr: IpAddr = addr.parse().map_err(|_| bad())?;
        let addr = addr.to_canonical();
        let bits = if addr.is_ipv4() { 32 } else { 128 };
        let prefix = match prefix {
            None => bits,
            Some(p) if !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()) => p
                .parse::<u8>()
                .ok()
                .filter(|p| *p <= bits)
                .ok_or_else(bad)?,
            Some(_) => return Err(bad()),
        };
        let addr = match addr {
            IpAddr::V4(a) => IpAddr::V4((mask(u32::from(a).into(), 32, prefix) as u32).into()),
            IpAddr::V6(a) => IpAddr::V6(mask(u128::from(a), 128, prefix).into()),
        };
        Ok(Cidr { addr, prefix })
    }
}

impl fmt::Display for Cidr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.addr, self.prefix)
    }
}

/// Parses `TRUSTED_PROXIES`: CIDRs separated by commas or whitespace; empty means none.
pub fn parse_cidr_list(s: &str) -> Result<Vec<Cidr>, String> {
    s.split(|c: char| c == ',' || c.is_whitespace())
        .filter(|part| !part.is_empty())
        .map(str::parse)
        .collect()
}

/// The client behind `peer`. Forwarding headers count only when `peer` is a trusted proxy; then
/// the rightmost `X-Forwarded-For` address that is not a trusted proxy is the client. A malformed
/// entry ends the walk (nothing left of it can be believed), leaving the last trusted hop.
pub fn client_address<'a>(
    peer: IpAddr,
    forwarded_for: impl DoubleEndedIterator<Item = &'a str>,
    trusted: &[Cidr],
) -> IpAddr {
    let is_trusted = |ip: IpAddr| trusted.iter().any(|c| c.contains(ip));
    let mut client = peer.to_canonical();
    if !is_trusted(client) {
        return client;
    }
    let entries = forwarded_for.rev().flat_map(|v| v.rsplit(','));
    for entry in entries {
        match entry.trim().parse::<IpAddr>() {
            Ok(ip) => {
                client = ip.to_canonical();
                if !is_trusted(client) {
                    break;
                }
            }
            Err(_) => break,
        }
    }
    client
}

/// What per-address limits count under: an IPv4 address, or an IPv6 client's /64 (one subscriber
/// usually holds a whole /64, so its addresses are one client).
pub fn rate_key(ip: IpAddr) -> String {
    match ip.to_canonical() {
        IpAddr::V4(v4) => v4.to_string(),
        IpAddr::V6(v6) => {
            let net = Ipv6Addr::from(u128::from(v6) & (u128::MAX << 64));
            format!("{net}/64")
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ip(s: &str) -> IpAddr {
        s.parse().unwrap()
    }

    fn cidrs(s: &str) -> Vec<Cidr> {
        parse_cidr_list(s).unwrap()
    }

    #[test]
    fn cidrs_parse_and_contain_their_addresses() {
        let c: Cidr = "10.0.0.0/8".parse().unwrap();
        assert!(c.contains(ip("10.255.1.2")));
        assert!(!c.contains(ip("11.0.0.1")));
        assert!(
            c.contains(ip("::ffff:10.1.1.1")),
            "IPv4-mapped IPv6 is IPv4"
        );
        let c: Cidr = "2001:db8::/32".parse().unwrap();
        assert!(c.contains(ip("2001:db8:ffff::1")));
        assert!(!c.contains(ip("2001:db9::1")));
        assert!(!c.contains(ip("10.0.0.1")));
        let one: Cidr = "192.0.2.7".parse().unwrap();
        assert_eq!(one.to_string(), "192.0.2.7/32");
        assert!(one.contains(ip("192.0.2.7")) && !one.contains(ip("192.0.2.8")));
        assert_eq!(
            "10.1.2.3/8".parse::<Cidr>().unwrap().to_string(),
            "10.0.0.0/8"
        );
        assert!("0.0.0.0/0".parse::<Cidr>().unwrap().contains(ip("8.8.8.8")));
        assert!("::/0".parse::<Cidr>().unwrap().contains(ip("2001:db8::1")));
    }

    #[test]
    fn malformed_cidrs_are_refused() {
        for bad in [
            "10.0.0.0/33",
            "::/129",
            "10.0.0/8",
            "10.0.0.0/",
            "10.0.0.0/+8",
            "proxy",
            "10.0.0.0/8/8",
        ] {
            assert!(bad.parse::<Cidr>().is_err(), "{bad}");
        }
        assert!(parse_cidr_list("10.0.0.0/8, nonsense").is_err());
        assert_eq!(parse_cidr_list("").unwrap(), vec![]);
        assert_eq!(parse_cidr_list(" 10.0.0.0/8 ,fd00::/8 ").unwrap().len(), 2);
    }

    #[test]
    fn forwarding_headers_are_ignored_unless_the_peer_is_trusted() {
        let xff = ["198.51.100.1"];
        assert_eq!(
            client_address(ip("203.0.113.9"), xff.into_iter(), &[]),
            ip("203.0.113.9")
        );
        let trusted = cidrs("10.0.0.0/8");
        assert_eq!(
            client_address(ip("203.0.113.9"), xff.into_iter(), &trusted),
            ip("203.0.113.9")
        );
    }

    #[test]
    fn the_rightmost_untrusted_address_is_the_client() {
        let trusted = cidrs("10.0.0.0/8, 127.0.0.1");
        let peer = ip("10.0.0.1");
        let case = |headers: &[&str]| client_address(peer, headers.iter().copied(), &trusted);
        assert_eq!(case(&["1.1.1.1, 203.0.113.7, 10.2.3.4"]), ip("203.0.113.7"));
        assert_eq!(
            case(&["1.1.1.1", "203.0.113.7 ,10.2.3.4"]),
            ip("203.0.113.7"),
            "headers in order"
        );
        assert_eq!(case(&["garbage, 203.0.113.7"]), ip("203.0.113.7"));
        assert_eq!(
            case(&["203.0.113.7, garbage, 10.2.3.4"]),
            ip("10.2.3.4"),
            "malformed ends the walk"
        );
        assert_eq!(
            case(&["10.9.9.9, 10.2.3.4"]),
            ip("10.9.9.9"),
            "all trusted: the farthest hop"
        );
        assert_eq!(case(&[]), peer);
        assert_eq!(case(&["::ffff:203.0.113.7"]), ip("203.0.113.7"));
    }

    #[test]
    fn ipv6_clients_count_as_their_64() {
        assert_eq!(rate_key(ip("203.0.113.7")), "203.0.113.7");
        assert_eq!(rate_key(ip("::ffff:203.0.113.7")), "203.0.113.7");
        assert_eq!(rate_key(ip("2001:db8:1:2:3:4:5:6")), "2001:db8:1:2::/64");
        assert_eq!(
            rate_key(ip("2001:db8:1:2::ffff")),
            rate_key(ip("2001:db8:1:2:aaaa::1"))
        );
        assert_ne!(
            rate_key(ip("2001:db8:1:2::1")),
            rate_key(ip("2001:db8:1:3::1"))
        );
    }
}
