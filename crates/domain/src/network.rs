//! Whether two client addresses are on the same network, as the device sign-in's approval page
//! tells the person approving: the same IPv4 /24 or the same IPv6 /64. A rough rule on purpose —
//! it answers "is this request from where I am?", not who owns the addresses. And whether an
//! address is public: what the server may connect to on behalf of a team (an identity provider).

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

/// Whether the server may open a connection to `ip` for a party outside (an identity provider's
/// documents): only a public unicast address. Refused: unspecified (`0.0.0.0`, `::`), loopback,
/// private (10/8, 172.16/12, 192.168/16), shared (100.64/10), link-local (169.254/16, fe80::/10),
/// unique local (fc00::/7), benchmarking, documentation, reserved, broadcast and multicast
/// addresses, and the same inside IPv4-mapped, IPv4-compatible, NAT64 and 6to4 IPv6 addresses.
pub fn is_public_address(ip: IpAddr) -> bool {
    match ip {
        IpAddr::V4(v4) => is_public_v4(v4),
        IpAddr::V6(v6) => {
            let s = v6.segments();
            if let Some(v4) = v6.to_ipv4_mapped() {
                return is_public_v4(v4);
            }
            // ::a.b.c.d (IPv4-compatible, deprecated) and 64:ff9b::/96 (NAT64) carry an IPv4 address.
            if s[..6] == [0, 0, 0, 0, 0, 0] || s[..6] == [0x64, 0xff9b, 0, 0, 0, 0] {
                let [a, b] = s[6].to_be_bytes();
                let [c, d] = s[7].to_be_bytes();
                return is_public_v4(std::net::Ipv4Addr::new(a, b, c, d));
            }
            // 2002::/16 (6to4) carries one in its next 32 bits.
            if s[0] == 0x2002 {
                let [a, b] = s[1].to_be_bytes();
                let [c, d] = s[2].to_be_bytes();
                return is_public_v4(std::net::Ipv4Addr::new(a, b, c, d));
            }
            !(v6.is_unspecified()
                || v6.is_loopback()
                || v6.is_multicast()
                || (s[0] & 0xfe00) == 0xfc00 // unique local, fc00::/7
                || (s[0] & 0xffc0) == 0xfe80 // link-local, fe80::/10
                || (s[0] & 0xffc0) == 0xfec0 // site-local (deprecated), fec0::/10
                || (s[0] == 0x2001 && s[1] == 0x0db8) // documentation, 2001:db8::/32
                || (s[0] == 0x2001 && s[1] < 0x0200) // IETF protocol assignments (Teredo...), 2001::/23
                || s[0] == 0x0100 && s[1..4] == [0, 0, 0]) // discard-only, 100::/64
        }
    }
}

fn is_public_v4(ip: std::net::Ipv4Addr) -> bool {
    let [a, b, c, _] = ip.octets();
    !(ip.is_unspecified()
        || a == 0 // "this network", 0/8
        || ip.is_loopback()
        || ip.is_private()
        || ip.is_link_local()
        || ip.is_broadcast()
        || ip.is_multicast()
        || ip.is_documentation()
        || (a == 100 && (b & 0xc0) == 64) // shared address space, 100.64/10
        || (a == 192 && b == 0 && c == 0) // IETF protocol assignments, 192.0.0/24
        || (a == 198 && (b & 0xfe) == 18) // benchmarking, 198.18/15
        || a >= 240) // reserved, 240/4
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn only_public_unicast_addresses_are_public() {
        for private in [
            "127.0.0.1",
            "127.9.9.9",
            "::1",
            "0.0.0.0",
            "0.1.2.3",
            "::",
            "10.0.0.1",
            "10.255.255.255",
            "172.16.0.1",
            "172.31.255.254",
            "192.168.0.1",
            "192.168.255.255",
            "169.254.169.254",
            "100.64.0.1",
            "100.127.255.255",
            "192.0.0.8",
            "198.18.0.1",
            "192.0.2.1",
            "203.0.113.9",
            "224.0.0.1",
            "240.0.0.1",
            "255.255.255.255",
            "fc00::1",
            "fd12:3456::1",
            "fe80::1",
            "febf::1",
            "fec0::1",
            "ff02::1",
            "2001:db8::1",
            "::ffff:127.0.0.1",
            "::ffff:10.0.0.1",
            "::ffff:169.254.169.254",
            "::127.0.0.1",
            "64:ff9b::a00:1",
            "2002:7f00:1::1",
            "2002:c0a8:101::1",
        ] {
            assert!(!is_public_address(ip(private)), "{private}");
        }
        for public in [
            "8.8.8.8",
            "1.1.1.1",
            "172.15.255.255",
            "172.32.0.1",
            "100.63.255.255",
            "100.128.0.1",
            "169.253.0.1",
            "2606:4700::1111",
            "2a00:1450:4001::200e",
            "::ffff:8.8.8.8",
            "64:ff9b::808:808",
            "2002:808:808::1",
        ] {
            assert!(is_public_address(ip(public)), "{public}");
        }
    }

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
