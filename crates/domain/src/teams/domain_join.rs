//! Domain join's rules: the owner turns it on for their own verified company domain, and verified
//! addresses at that domain may ask to join; never for a public mail provider's domain
//! (`crate::mail_domains`, the vendored list).

pub use crate::mail_domains::is_public_mail_domain;

/// The domain of an address, lower-cased (the part after the last `@`).
pub fn mail_domain(email: &str) -> Option<String> {
    let (_, domain) = email.rsplit_once('@')?;
    let domain = domain.trim().trim_end_matches('.').to_ascii_lowercase();
    (!domain.is_empty()).then_some(domain)
}

/// Domain join may be turned on for `domain` only when the owner's verified address is at that
/// very domain and it is not a public mail domain.
pub fn may_enable_domain_join(owner_email: &str, owner_verified: bool, domain: &str) -> bool {
    let domain = domain.trim().trim_end_matches('.').to_ascii_lowercase();
    owner_verified
        && !is_public_mail_domain(&domain)
        && mail_domain(owner_email).as_deref() == Some(domain.as_str())
}

/// The domain the owner may turn domain join on for, which the screen offers: their own verified
/// address's, unless anyone can get an address there. `None` when there is none to offer.
pub fn domain_join_offer(owner_email: &str, owner_verified: bool) -> Option<String> {
    mail_domain(owner_email).filter(|d| may_enable_domain_join(owner_email, owner_verified, d))
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

    #[test]
    fn domain_join_needs_the_owners_verified_company_address() {
        assert!(may_enable_domain_join(
            "boss@northwind.com",
            true,
            "Northwind.com"
        ));
        assert!(!may_enable_domain_join(
            "boss@northwind.com",
            false,
            "northwind.com"
        ));
        assert!(!may_enable_domain_join("boss@gmail.com", true, "gmail.com"));
        assert!(!may_enable_domain_join(
            "boss@northwind.com",
            true,
            "contoso.com"
        ));
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

    /// Issue 22: providers the 33 hand-picked names missed, refused for domain join by name.
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
            assert!(!may_enable_domain_join(&owner, true, d), "enable {d}");
            assert!(
                !may_request_join(&format!("rep@{d}"), true, Some(d)),
                "ask {d}"
            );
            assert_eq!(domain_join_offer(&owner, true), None, "offer {d}");
        }
        assert_eq!(
            domain_join_offer("Boss@Northwind.Example", true).as_deref(),
            Some("northwind.example")
        );
        assert_eq!(domain_join_offer("boss@northwind.example", false), None);
        assert_eq!(domain_join_offer("not an address", true), None);
    }

    proptest! {
        /// What the screen offers is exactly what turning domain join on accepts.
        #[test]
        fn the_offer_is_what_enabling_accepts(local in "[a-z]{1,8}", domain in "(gmail\\.com|orange\\.fr|yahoo\\.fr|[a-z]{1,8}\\.example)", verified in any::<bool>()) {
            let email = format!("{local}@{domain}");
            let offer = domain_join_offer(&email, verified);
            prop_assert_eq!(offer.is_some(), may_enable_domain_join(&email, verified, &domain));
            if let Some(d) = offer {
                prop_assert_eq!(d, domain);
            }
        }
    }
}
