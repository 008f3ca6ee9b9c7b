//! The settings' parsing and the refusals production makes.

use super::*;
use std::collections::HashMap;

fn settings(vars: &[(&str, &str)]) -> anyhow::Result<Settings> {
    let map: HashMap<String, String> = vars
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    Settings::from_lookup(|k| map.get(k).cloned())
}

#[test]
fn no_variables_give_the_local_defaults() {
    let s = settings(&[]).unwrap();
    assert_eq!(s.base_url, "http://localhost:8080");
    assert_eq!(s.database_url, "sqlite://data/closewise.db");
    assert_eq!(s.stripe.api_base, DEV_STRIPE_API_BASE);
    assert!(s.smtp_url.is_none());
    assert!(s.insecure_cookies());
}

#[test]
fn production_refuses_the_development_defaults() {
    let err = settings(&[("APP_ENV", "production")]).unwrap_err();
    assert!(err.to_string().contains("JWT_PRIVATE_KEY"), "{err}");
    let err = settings(&[
        ("APP_ENV", "production"),
        ("JWT_PRIVATE_KEY", "pem"),
        (
            "MFA_ENCRYPTION_KEY",
            "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=",
        ),
        ("APP_BASE_URL", "https://closewise.app"),
    ])
    .unwrap_err();
    assert!(err.to_string().contains("local mock"), "{err}");
    let err = settings(&[
        ("APP_ENV", "production"),
        ("JWT_PRIVATE_KEY", "pem"),
        (
            "MFA_ENCRYPTION_KEY",
            "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=",
        ),
        ("APP_BASE_URL", "https://closewise.app"),
        ("STRIPE_API_BASE", "https://api.stripe.com"),
    ])
    .unwrap_err();
    assert!(err.to_string().contains("STRIPE_SECRET_KEY"), "{err}");
}

#[test]
fn development_refuses_to_listen_beyond_this_machine() {
    for addr in ["0.0.0.0:8080", "[::]:8080", "192.0.2.10:8080"] {
        let err = settings(&[("APP_ADDR", addr)]).unwrap_err();
        assert!(
            err.to_string().contains("APP_ENV=production"),
            "{addr}: {err}"
        );
    }
    for addr in ["127.0.0.1:8080", "127.0.0.2:9000", "[::1]:8080"] {
        assert!(settings(&[("APP_ADDR", addr)]).is_ok(), "{addr}");
    }
}

const PROD: [(&str, &str); 8] = [
    ("APP_ENV", "production"),
    ("JWT_PRIVATE_KEY", "pem"),
    (
        "MFA_ENCRYPTION_KEY",
        "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=",
    ),
    ("APP_BASE_URL", "https://closewise.app"),
    ("STRIPE_API_BASE", "https://api.stripe.com"),
    ("STRIPE_SECRET_KEY", "sk_live_x"),
    ("STRIPE_WEBHOOK_SECRET", "whsec_live_x"),
    (
        "DOWNLOAD_BASE_URL",
        "https://github.com/closewise/closewise-desktop/releases/download",
    ),
];

fn prod_with(extra: &[(&'static str, &'static str)]) -> anyhow::Result<Settings> {
    let mut vars: Vec<(&str, &str)> = PROD
        .iter()
        .filter(|(k, _)| !extra.iter().any(|(e, _)| e == k))
        .copied()
        .collect();
    vars.extend_from_slice(extra);
    settings(&vars)
}

#[test]
fn production_accepts_only_what_it_allows() {
    let ok = prod_with(&[("APP_ADDR", "0.0.0.0:8080")]).unwrap();
    assert!(!ok.is_development());
    for (extra, names) in [
        (
            ("STRIPE_API_BASE", "http://stripe.internal"),
            "STRIPE_API_BASE",
        ),
        (
            ("STRIPE_API_BASE", "https://127.0.0.1:12111"),
            "STRIPE_API_BASE",
        ),
        (
            ("ALLOW_UNVERIFIED_SIGNIN", "true"),
            "ALLOW_UNVERIFIED_SIGNIN",
        ),
        (("APP_BASE_URL", "http://closewise.app"), "APP_BASE_URL"),
        (
            ("STRIPE_SECRET_KEY", DEV_STRIPE_SECRET_KEY),
            "STRIPE_SECRET_KEY",
        ),
        (
            ("STRIPE_WEBHOOK_SECRET", DEV_STRIPE_WEBHOOK_SECRET),
            "STRIPE_WEBHOOK_SECRET",
        ),
        (("JWT_PRIVATE_KEY", ""), "JWT_PRIVATE_KEY"),
        (("MFA_ENCRYPTION_KEY", ""), "MFA_ENCRYPTION_KEY"),
        (
            ("MFA_ENCRYPTION_KEY", "c2hvcnQ="),
            "MFA_ENCRYPTION_KEY must be 32 bytes",
        ),
        (
            ("MFA_ENCRYPTION_KEY", "not base64!"),
            "MFA_ENCRYPTION_KEY must be base64",
        ),
        // An empty webhook secret would let anyone sign webhooks.
        (("STRIPE_SECRET_KEY", ""), "STRIPE_SECRET_KEY"),
        (("STRIPE_WEBHOOK_SECRET", " "), "STRIPE_WEBHOOK_SECRET"),
    ] {
        let err = prod_with(&[extra]).unwrap_err();
        assert!(err.to_string().contains(names), "{extra:?}: {err}");
    }
}

#[test]
fn trusted_proxies_are_a_list_of_cidrs_and_a_malformed_one_refuses_to_start() {
    assert!(settings(&[]).unwrap().trusted_proxies.is_empty());
    let s = settings(&[("TRUSTED_PROXIES", "10.0.0.0/8, 192.0.2.1,fd00::/8")]).unwrap();
    assert_eq!(s.trusted_proxies.len(), 3);
    for bad in ["10.0.0.0/33", "10.0.0.0/8;fd00::/8", "proxy.internal"] {
        let err = settings(&[("TRUSTED_PROXIES", bad)]).unwrap_err();
        assert!(err.to_string().contains("TRUSTED_PROXIES"), "{bad}: {err}");
    }
    let err = settings(&[("TRUST_X_FORWARDED_FOR", "true")]).unwrap_err();
    assert!(err.to_string().contains("TRUSTED_PROXIES"), "{err}");
}

#[test]
fn an_empty_variable_is_unset_and_takes_its_default() {
    let blank = settings(&[
        ("APP_ADDR", ""),
        ("APP_BASE_URL", " "),
        ("DATABASE_URL", ""),
        ("MAIL_FROM", ""),
        ("WEB_DIST", ""),
        ("STRIPE_API_BASE", ""),
        ("RATE_LIMIT_MAIL_PER_IP", ""),
    ])
    .unwrap();
    let defaults = settings(&[]).unwrap();
    assert_eq!(blank.addr, defaults.addr);
    assert_eq!(blank.base_url, defaults.base_url);
    assert_eq!(blank.database_url, defaults.database_url);
    assert_eq!(blank.mail_from, defaults.mail_from);
    assert_eq!(blank.web_dist, defaults.web_dist);
    assert_eq!(blank.stripe.api_base, defaults.stripe.api_base);
    assert_eq!(blank.limits.mail_per_ip, defaults.limits.mail_per_ip);
}

#[test]
fn a_bad_number_names_its_variable() {
    let err = settings(&[("RATE_LIMIT_MAIL_PER_IP", "lots")]).unwrap_err();
    assert!(err.to_string().contains("RATE_LIMIT_MAIL_PER_IP"), "{err}");
}

#[test]
fn downloads_default_to_this_servers_own_address_and_v1_0_0() {
    let s = settings(&[]).unwrap();
    assert_eq!(s.downloads.base_url, None);
    assert_eq!(
        s.downloads.release_base(&s.base_url),
        "http://localhost:8080/downloads"
    );
    assert_eq!(s.downloads.version.as_str(), "v1.0.0");
    let s = settings(&[
        ("DOWNLOAD_BASE_URL", "https://dl.example.com/releases/"),
        ("DESKTOP_VERSION", "v2.3.4"),
    ])
    .unwrap();
    assert_eq!(
        s.downloads.release_base(&s.base_url),
        "https://dl.example.com/releases"
    );
    assert_eq!(s.downloads.version.as_str(), "v2.3.4");
}

#[test]
fn bad_download_settings_are_refused_with_their_name() {
    for (key, value) in [
        ("DOWNLOAD_BASE_URL", "/relative"),
        ("DOWNLOAD_BASE_URL", "ftp://dl.example.com"),
        ("DESKTOP_VERSION", "1.0"),
        ("DESKTOP_VERSION", "v1.0.0/../../x"),
    ] {
        let err = settings(&[(key, value)]).unwrap_err();
        assert!(err.to_string().contains(key), "{key}={value}: {err}");
    }
}

#[test]
fn production_needs_a_real_https_release_address() {
    assert!(prod_with(&[]).is_ok());
    let mut vars: Vec<(&str, &str)> = PROD
        .iter()
        .filter(|(k, _)| *k != "DOWNLOAD_BASE_URL")
        .copied()
        .collect();
    let err = settings(&vars).unwrap_err();
    assert!(
        err.to_string()
            .contains("DOWNLOAD_BASE_URL must be set in production"),
        "{err}"
    );
    vars.push(("DOWNLOAD_BASE_URL", "http://dl.example.com"));
    let err = settings(&vars).unwrap_err();
    assert!(
        err.to_string().contains("DOWNLOAD_BASE_URL must be https"),
        "{err}"
    );
}

#[test]
fn the_dns_resolver_defaults_to_the_systems_and_is_host_and_port() {
    assert_eq!(settings(&[]).unwrap().dns_resolver, None);
    let s = settings(&[("DNS_RESOLVER", "127.0.0.1:5353")]).unwrap();
    assert_eq!(s.dns_resolver, Some("127.0.0.1:5353".parse().unwrap()));
    let s = settings(&[("DNS_RESOLVER", "localhost:53")]).unwrap();
    assert_eq!(s.dns_resolver.map(|a| a.port()), Some(53));
    let err = settings(&[("DNS_RESOLVER", "not a server")]).unwrap_err();
    assert!(err.to_string().contains("DNS_RESOLVER"), "{err}");
}

#[test]
fn automatic_tax_is_off_unless_asked_for_and_a_bad_value_is_refused() {
    assert!(!settings(&[]).unwrap().stripe.automatic_tax);
    assert!(
        !settings(&[("STRIPE_AUTOMATIC_TAX", "")])
            .unwrap()
            .stripe
            .automatic_tax
    );
    assert!(
        settings(&[("STRIPE_AUTOMATIC_TAX", "true")])
            .unwrap()
            .stripe
            .automatic_tax
    );
    let err = settings(&[("STRIPE_AUTOMATIC_TAX", "yes")]).unwrap_err();
    assert!(err.to_string().contains("STRIPE_AUTOMATIC_TAX"), "{err}");
}
