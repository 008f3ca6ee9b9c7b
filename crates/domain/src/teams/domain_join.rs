//! Domain join's rules: the owner turns it on for one of the team's verified domains (verified by
//! its DNS record, the sibling `domains` rules), and verified addresses at that domain may ask to
//! join; never for a public mail provider's domain (`crate::mail_domains`, the vendored list).

pub use super::domains::may_enable_domain_join;
pub use crate::mail_domains::is_public_mail_domain;

/// The domain of an address, lower-cased (the part after the last `@`).
pub fn mail_domain(email: &str) -> Option<String> {
    let (_, domain) = email.rsplit_once('@')?;
    let domain = domain.trim().trim_end_matches('.').to_ascii_lowercase();
    (!domain.is_empty()).then_some(domain)
}

/// The domain the owner's screen offers for domain join: one of the team's verified domains (the
/// owner's own address's when it is one of them, else the first), `None` when the team has none.
pub fn domain_join_offer(owner_email: &str, verified_domains: &[String]) -> Option<String> {
    let own = mail_domain(owner_email).filter(|d| may_enable_domain_join(d, verified_domains));
    own.or_else(|| {
        verified_domains
            .iter()
            .find(|d| may_enable_domain_join(d, verified_domains))
            .cloned()
    })
}

/// A verified address may ask to join a team that turned domain join on for its domain.
pub fn may_request_join(email: &str, verified: bool, join_domain: Option<&str>) -> bool {
    let (Some(join), Some(domain)) = (join_domain, mail_domain(email)) else {
        return false;
    };
    verified && !is_public_mail_domain(&domain) && domain == join.to_ascii_lowercase()
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn verified(ds: &[&str]) -> Vec<String> {
        ds.iter().map(|d| d.to_string()).collect()
    }

    #[test]
    fn domain_join_needs_a_verified_domain_of_the_team() {
        let nw = verified(&["northwind.example"]);
        assert!(may_enable_domain_join(
            "Northwind.com",
            &verified(&["northwind.com"])
        ));
        assert!(!may_enable_domain_join("northwind.example", &[]));
        assert!(!may_enable_domain_join("contoso.example", &nw));
        assert!(may_request_join(
            "rep@NorthWind.com",
            true,
            Some("northwind.com")
        ));
        assert!(!may_request_join(
            "rep@northwind.com",
            false,
            Some("northwind.com")
        ));
        assert!(!may_request_join("rep@gmail.com", true, Some("gmail.com")));
        assert!(!may_request_join("rep@northwind.com", true, None));
        assert!(!may_request_join(
            "rep@sub.northwind.com",
            true,
            Some("northwind.com")
        ));
    }

    /// Providers the 33 hand-picked names missed, refused for domain join by name.
    #[test]
    fn domain_join_refuses_the_public_providers_of_the_vendored_list() {
        for d in [
            "outlook.fr",
            "t-online.de",
            "comcast.net",
            "yahoo.fr",
            "orange.fr",
            "libero.it",
        ] {
            let owner = format!("boss@{d}");
            // Even a list that somehow held one (it cannot be verified: `normalize_domain`).
            let listed = verified(&[d]);
            assert!(!may_enable_domain_join(d, &listed), "enable {d}");
            assert!(
                !may_request_join(&format!("rep@{d}"), true, Some(d)),
                "ask {d}"
            );
            assert_eq!(domain_join_offer(&owner, &listed), None, "offer {d}");
        }
        let both = verified(&["contoso.example", "northwind.example"]);
        assert_eq!(
            domain_join_offer("Boss@Northwind.Example", &both).as_deref(),
            Some("northwind.example"),
            "the owner's own domain first"
        );
        assert_eq!(
            domain_join_offer("boss@elsewhere.example", &both).as_deref(),
            Some("contoso.example")
        );
        assert_eq!(domain_join_offer("boss@northwind.example", &[]), None);
    }

    proptest! {
        /// What the screen offers is always something enabling accepts, and there is an offer
        /// exactly when the team has a verified domain.
        #[test]
        fn the_offer_is_what_enabling_accepts(local in "[a-z]{1,8}", domain in "[a-z]{1,8}\\.example", others in prop::collection::vec("[a-z]{1,8}\\.example", 0..3)) {
            let email = format!("{local}@{domain}");
            let offer = domain_join_offer(&email, &others);
            prop_assert_eq!(offer.is_some(), !others.is_empty());
            if let Some(d) = offer {
                prop_assert!(may_enable_domain_join(&d, &others));
                prop_assert!(others.contains(&domain) == (d == domain));
            }
        }
    }
}
