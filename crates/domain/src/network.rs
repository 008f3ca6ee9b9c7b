//! Whether two client addresses are on the same network, as the device sign-in's approval page
//! tells the person approving: the same IPv4 /24 or the same IPv6 /64. A rough rule on purpose —
//! it answers "is this request from where I am?", not who owns the addresses.

use std::net::IpAddr;

/// An IPv4-mapped IPv6 address (`::ffff:a.b.c.d`, what a dual-stack socket reports) as IPv4.
pub fn canonical(ip: IpAddr) -> IpAddr {
    match ip {
        IpAddr::V6(v6) => v6.to_ipv4_mapped().map_or(ip, IpAddr::V4),
        v4 => v4,
    }
}

/// Same /24 for IPv4, same /64 for IPv6; an IPv4 and an IPv6 address are never the same network.
pub fn same_network(a: IpAddr, b: IpAddr) -> bool {
    match (canonical(a), canonical(b)) {
        (IpAddr::V4(a), IpAddr::V4(b)) => a.octets()[..3] == b.octets()[..3],
        (IpAddr::V6(a), IpAddr::V6(b)) => a.segments()[..4] == b.segments()[..4],
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn ip(s: &str) -> IpAddr {
        s.parse().unwrap()
    }

    #[test]
    fn the_same_24_or_64_is_the_same_network_and_nothing_else_is() {
        assert!(same_network(ip("198.51.100.7"), ip("198.51.100.200")));
        assert!(!same_network(ip("198.51.100.7"), ip("198.51.101.7")));
        assert!(!same_network(ip("198.51.100.7"), ip("203.0.113.7")));
        assert!(same_network(
            ip("2001:db8:1:2::1"),
            ip("2001:db8:1:2:ffff::9")
        ));
        assert!(!same_network(ip("2001:db8:1:2::1"), ip("2001:db8:1:3::1")));
        assert!(same_network(ip("::ffff:198.51.100.7"), ip("198.51.100.8")));
        assert!(!same_network(ip("198.51.100.7"), ip("2001:db8::1")));
    }

    proptest! {
        #[test]
        fn ipv4_addresses_share_a_network_exactly_when_their_first_three_octets_agree(a: [u8; 4], b: [u8; 4]) {
            let (x, y) = (IpAddr::from(a), IpAddr::from(b));
            prop_assert_eq!(same_network(x, y), a[..3] == b[..3]);
            prop_assert_eq!(same_network(x, y), same_network(y, x));
            prop_assert!(same_network(x, x));
        }

        #[test]
        fn ipv6_addresses_share_a_network_exactly_when_their_first_64_bits_agree(a: [u16; 8], b: [u16; 8], tail: [u16; 4]) {
            let (x, y) = (IpAddr::from(a), IpAddr::from(b));
            let mut same_prefix = a;
            same_prefix[4..].copy_from_slice(&tail);
            // Mapped IPv4 addresses compare as IPv4: keep the property to real IPv6 prefixes.
            prop_assume!(canonical(x).is_ipv6() && canonical(y).is_ipv6());
            prop_assert_eq!(same_network(x, y), a[..4] == b[..4]);
            prop_assert!(same_network(x, IpAddr::from(same_prefix)));
        }

        #[test]
        fn an_ipv4_and_a_real_ipv6_address_never_share_a_network(a: [u8; 4], b: [u16; 8]) {
            let y = IpAddr::from(b);
            prop_assume!(canonical(y).is_ipv6());
            prop_assert!(!same_network(IpAddr::from(a), y));
        }
    }
}
