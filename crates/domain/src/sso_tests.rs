use super::*;
use crate::email::Email;

use ProviderReach::{Local, PublicOnly};

#[test]
fn a_request_that_names_no_protocol_is_openid_connect() {
    assert_eq!(Protocol::requested(None), Some(Protocol::Oidc));
    assert_eq!(Protocol::requested(Some("saml")), Some(Protocol::Saml));
    assert_eq!(Protocol::requested(Some("oidc")), Some(Protocol::Oidc));
    assert_eq!(Protocol::requested(Some("SAML")), None);
    assert_eq!(Protocol::requested(Some("")), None);
}

#[test]
fn issuers_are_https_or_a_provider_on_this_machine() {
    for reach in [Local, PublicOnly] {
        assert_eq!(
            parse_issuer(" https://login.acme.example/ ", reach).unwrap(),
            "https://login.acme.example"
        );
        assert_eq!(
            parse_issuer("https://idp.example/realms/acme", reach).unwrap(),
            "https://idp.example/realms/acme"
        );
    }
    assert!(parse_issuer("http://127.0.0.1:4000", Local).is_ok());
    assert!(parse_issuer("http://localhost:4000/oidc", Local).is_ok());
    assert_eq!(
        parse_issuer("http://idp.example", Local),
        Err(IssuerError::NotHttps)
    );
    for bad in [
        "idp.example",
        "https://u:p@idp.example",
        "https://idp.example/?x=1",
        "https://idp.example/#x",
        "javascript:alert(1)",
    ] {
        assert!(parse_issuer(bad, Local).is_err(), "{bad}");
    }
    assert_eq!(
        parse_issuer("ftp://idp.example", Local),
        Err(IssuerError::NotHttps)
    );
}

#[test]
fn production_reaches_only_public_https_providers() {
    for local in [
        "http://127.0.0.1:4000",
        "http://localhost:4000/oidc",
        "http://[::1]:4000",
    ] {
        assert!(parse_issuer(local, Local).is_ok(), "{local}");
        assert_eq!(
            parse_issuer(local, PublicOnly),
            Err(IssuerError::NotHttps),
            "{local}"
        );
    }
    for private in [
        "https://127.0.0.1",
        "https://[::1]",
        "https://10.1.2.3",
        "https://172.16.0.9",
        "https://192.168.1.1",
        "https://169.254.169.254",
        "https://0.0.0.0",
        "https://[fd00::1]",
        "https://[fe80::1]",
        "https://[::ffff:127.0.0.1]",
        "https://[::ffff:10.0.0.1]",
    ] {
        assert_eq!(
            parse_issuer(private, PublicOnly),
            Err(IssuerError::NotPublic),
            "{private}"
        );
        assert!(parse_issuer(private, Local).is_ok(), "{private}");
    }
    assert!(parse_issuer("https://93.184.215.14", PublicOnly).is_ok());
    assert!(PublicOnly.allows("8.8.8.8".parse().unwrap()));
    assert!(!PublicOnly.allows("10.0.0.1".parse().unwrap()));
    assert!(Local.allows("10.0.0.1".parse().unwrap()));
    assert!(provider_url("https://idp.example/token?x=1", PublicOnly).is_ok());
    assert_eq!(
        provider_url("http://idp.example/jwks", PublicOnly).map(|_| ()),
        Err(IssuerError::NotHttps)
    );
}

#[test]
fn only_a_provider_verified_address_at_a_verified_domain_signs_in() {
    let domains = vec!["acme.example".to_string()];
    let ana = Email::parse("ana@acme.example").unwrap();
    assert_eq!(
        check_identity(&ana, Some(true), EmailClaim::Email, &domains),
        Ok(())
    );
    assert_eq!(
        check_identity(&ana, None, EmailClaim::Email, &domains),
        Err(IdentityRefusal::EmailNotVerified)
    );
    assert_eq!(
        check_identity(&ana, Some(false), EmailClaim::Email, &domains),
        Err(IdentityRefusal::EmailNotVerified)
    );
    let sub = Email::parse("bo@eu.acme.example").unwrap();
    assert_eq!(
        check_identity(&sub, Some(true), EmailClaim::Email, &domains),
        Err(IdentityRefusal::DomainNotVerified)
    );
    assert_eq!(
        check_identity(&ana, Some(true), EmailClaim::Email, &[]),
        Err(IdentityRefusal::DomainNotVerified)
    );
}

#[test]
fn a_sign_in_name_claim_needs_no_verified_flag_but_a_verified_domain() {
    let domains = vec!["acme.example".to_string()];
    let ana = Email::parse("ana@acme.example").unwrap();
    for claim in [EmailClaim::Upn, EmailClaim::PreferredUsername] {
        assert_eq!(check_identity(&ana, None, claim, &domains), Ok(()));
        let other = Email::parse("ana@other.example").unwrap();
        assert_eq!(
            check_identity(&other, None, claim, &domains),
            Err(IdentityRefusal::DomainNotVerified)
        );
    }
    assert_eq!(EmailClaim::default(), EmailClaim::Email);
    for claim in EmailClaim::ALL {
        assert_eq!(EmailClaim::parse(claim.as_str()), Some(claim));
    }
    assert_eq!(EmailClaim::parse("mail"), None);
    assert_eq!(EmailClaim::parse("Email"), None);
}

#[test]
fn an_assertion_holds_inside_its_window_with_a_minute_of_skew() {
    let now = OffsetDateTime::UNIX_EPOCH + Duration::days(1);
    let m = Duration::minutes;
    assert!(saml_window_holds(now, Some(now - m(1)), Some(now + m(5))));
    assert!(saml_window_holds(now, None, Some(now + m(5))));
    assert!(
        !saml_window_holds(now, Some(now - m(1)), None),
        "a bearer assertion must end"
    );
    assert!(saml_window_holds(
        now,
        Some(now + Duration::seconds(59)),
        Some(now + m(5))
    ));
    assert!(!saml_window_holds(
        now,
        Some(now + Duration::seconds(61)),
        Some(now + m(5))
    ));
    assert!(saml_window_holds(
        now,
        None,
        Some(now - Duration::seconds(59))
    ));
    assert!(!saml_window_holds(now, None, Some(now - m(1))));
    assert!(!saml_window_holds(now, None, Some(now - m(10))));
}

#[test]
fn a_teams_service_provider_lives_under_its_id() {
    let team = uuid::Uuid::nil();
    assert_eq!(
        saml_sp_entity_id("http://localhost:8080/", team),
        format!("http://localhost:8080/api/auth/saml/{team}/metadata")
    );
    assert_eq!(
        saml_acs_url("https://app.closewise.example", team),
        format!("https://app.closewise.example/api/auth/saml/{team}/acs")
    );
    assert_eq!(Protocol::parse("saml"), Some(Protocol::Saml));
    assert_eq!(Protocol::parse("oidc"), Some(Protocol::Oidc));
    assert_eq!(Protocol::parse("SAML"), None);
    assert_eq!(Protocol::default().as_str(), "oidc");
}

#[test]
fn a_sign_in_lasts_ten_minutes_and_lands_on_our_callback() {
    let now = OffsetDateTime::UNIX_EPOCH;
    assert_eq!(login_expires_at(now) - now, Duration::minutes(10));
    assert_eq!(
        redirect_uri("http://localhost:8080/"),
        "http://localhost:8080/api/auth/sso/callback"
    );
    assert_eq!(
        no_free_seat_message(3),
        "All 3 seats are taken. Ask your team's owner to add seats."
    );
}

#[test]
fn the_owner_is_due_the_certificate_mail_from_thirty_days_before_it_expires() {
    let not_after = time::macros::datetime!(2027-03-31 12:00 UTC);
    let before = |days: i64| not_after - Duration::days(days);
    assert!(!certificate_expiry_due(not_after, before(31)));
    assert!(!certificate_expiry_due(
        not_after,
        before(30) - Duration::seconds(1)
    ));
    assert!(certificate_expiry_due(not_after, before(30)));
    assert!(certificate_expiry_due(not_after, before(1)));
    assert!(
        certificate_expiry_due(not_after, not_after + Duration::days(3)),
        "expired already"
    );
}

#[test]
fn metadata_from_a_url_is_read_again_a_day_after_the_last_read() {
    let read = time::macros::datetime!(2027-03-01 08:00 UTC);
    assert!(
        metadata_refresh_due(None, read),
        "never read by the daily job"
    );
    assert!(!metadata_refresh_due(
        Some(read),
        read + Duration::hours(23)
    ));
    assert!(metadata_refresh_due(Some(read), read + Duration::days(1)));
}

#[test]
fn the_certificate_in_use_is_the_one_that_verified_the_last_sign_in_else_each_configured() {
    let configured = ["AA".to_string(), "BB".to_string()];
    assert_eq!(certificates_in_use(&configured, Some("BB")), ["BB"]);
    assert_eq!(certificates_in_use(&configured, None), ["AA", "BB"]);
    assert_eq!(
        certificates_in_use(&configured, Some("CC")),
        ["AA", "BB"],
        "a certificate no longer configured says nothing"
    );
    assert_eq!(certificates_in_use(&configured[..1], None), ["AA"]);
}
