use super::*;
use proptest::prelude::*;
use time::macros::datetime;

const T0: OffsetDateTime = datetime!(2026-11-23 12:00:00 UTC);

#[test]
fn lifetimes_and_the_client_are_the_documented_ones() {
    assert_eq!(CLIENT_ID, "closewise-desktop");
    assert_eq!(AUTH_CODE_TTL, Duration::seconds(60));
    assert_eq!(DEVICE_CODE_TTL, Duration::seconds(600));
    assert_eq!(POLL_INTERVAL, Duration::seconds(5));
    assert_eq!(SLOW_DOWN_STEP, Duration::seconds(5));
}

#[test]
fn loopback_redirects_on_any_port_are_accepted() {
    for uri in [
        "http://127.0.0.1:1/callback",
        "http://127.0.0.1:53682/callback",
        "http://127.0.0.1:65535/callback",
        "http://[::1]:8080/callback",
    ] {
        assert!(is_loopback_redirect(uri), "{uri}");
    }
}

#[test]
fn every_other_redirect_is_refused() {
    for uri in [
        "http://localhost:8080/callback",
        "https://127.0.0.1:8080/callback",
        "http://127.0.0.1/callback",
        "http://127.0.0.1:0/callback",
        "http://127.0.0.1:65536/callback",
        "http://127.0.0.1:08080/callback",
        "http://127.0.0.1:000080/callback",
        "http://127.0.0.1:+80/callback",
        "http://127.0.0.1:8080/callback/",
        "http://127.0.0.1:8080/callbackx",
        "http://127.0.0.1:8080/other",
        "http://127.0.0.1:8080/callback?x=1",
        "http://127.0.0.1:8080/callback#x",
        "http://user@127.0.0.1:8080/callback",
        "http://127.0.0.1:8080@evil.example/callback",
        "http://127.0.0.2:8080/callback",
        "http://127.1:8080/callback",
        "http://[::2]:8080/callback",
        "http://[0:0:0:0:0:0:0:1]:8080/callback",
        "HTTP://127.0.0.1:8080/callback",
        "http://127.0.0.1:8080/Callback",
        "http://evil.example/callback",
        " http://127.0.0.1:8080/callback",
        "",
    ] {
        assert!(!is_loopback_redirect(uri), "{uri}");
    }
}

#[test]
fn the_rfc_7636_example_verifies() {
    // RFC 7636 Appendix B.
    let verifier = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk";
    let challenge = "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM";
    assert_eq!(s256_challenge(verifier), challenge);
    assert!(verify_pkce(verifier, challenge));
    assert!(!verify_pkce(&verifier.replace('d', "e"), challenge));
}

#[test]
fn malformed_verifiers_and_challenges_never_verify() {
    let short = "a".repeat(42);
    assert!(!verify_pkce(&short, &s256_challenge(&short)));
    let long = "a".repeat(129);
    assert!(!verify_pkce(&long, &s256_challenge(&long)));
    let spaced = format!("{} ", "a".repeat(50));
    assert!(!verify_pkce(&spaced, &s256_challenge(&spaced)));
    let ok = "a".repeat(43);
    assert!(verify_pkce(&ok, &s256_challenge(&ok)));
    assert!(!verify_pkce(&ok, &format!("{}=", s256_challenge(&ok))));
    assert!(!is_valid_challenge(&"+".repeat(43)));
}

fn params<'a>() -> AuthorizeParams<'a> {
    AuthorizeParams {
        response_type: Some("code"),
        client_id: Some(CLIENT_ID),
        redirect_uri: Some("http://127.0.0.1:4000/callback"),
        code_challenge: Some("E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM"),
        code_challenge_method: Some("S256"),
        state: Some("xyz"),
        device_name: None,
        platform: None,
    }
}

#[test]
fn an_authorization_request_is_checked_client_first_then_redirect_then_the_rest() {
    let ok = AuthorizationRequest::parse(&params()).unwrap();
    assert_eq!(ok.state, "xyz");
    assert_eq!(ok.device_name, None);
    let bad = |p: AuthorizeParams| AuthorizationRequest::parse(&p).unwrap_err();
    let everything_wrong = AuthorizeParams {
        client_id: Some("other"),
        redirect_uri: Some("http://localhost/callback"),
        ..Default::default()
    };
    assert_eq!(bad(everything_wrong.clone()), AuthorizeError::InvalidClient);
    assert_eq!(
        bad(AuthorizeParams {
            client_id: Some(CLIENT_ID),
            ..everything_wrong
        }),
        AuthorizeError::InvalidRedirectUri
    );
    for (p, name) in [
        (
            AuthorizeParams {
                response_type: Some("token"),
                ..params()
            },
            "response_type",
        ),
        (
            AuthorizeParams {
                code_challenge: Some("short"),
                ..params()
            },
            "code_challenge",
        ),
        (
            AuthorizeParams {
                code_challenge_method: Some("plain"),
                ..params()
            },
            "code_challenge_method",
        ),
        (
            AuthorizeParams {
                state: None,
                ..params()
            },
            "state",
        ),
        (
            AuthorizeParams {
                state: Some(""),
                ..params()
            },
            "state",
        ),
        (
            AuthorizeParams {
                device_name: Some(&"n".repeat(101)),
                ..params()
            },
            "device_name",
        ),
        (
            AuthorizeParams {
                platform: Some(&"p".repeat(41)),
                ..params()
            },
            "platform",
        ),
    ] {
        let e = bad(p);
        assert_eq!(e, AuthorizeError::InvalidRequest(name));
        assert!(e.message().contains(name));
    }
    let long_state = "s".repeat(512);
    let named = AuthorizationRequest::parse(&AuthorizeParams {
        device_name: Some(" Ana's MacBook "),
        platform: Some("macos"),
        state: Some(&long_state),
        ..params()
    })
    .unwrap();
    assert_eq!(named.device_name.as_deref(), Some("Ana's MacBook"));
    assert_eq!(named.platform.as_deref(), Some("macos"));
}

#[test]
fn user_codes_read_whatever_the_case_dashes_and_spaces() {
    let code = UserCode::parse("WDJB-MJHT").unwrap();
    assert_eq!(code.as_str(), "WDJBMJHT");
    assert_eq!(code.display(), "WDJB-MJHT");
    for typed in ["wdjbmjht", "wdjb-mjht", " WDJB MJHT ", "wd-jb-mj-ht"] {
        assert_eq!(UserCode::parse(typed), Some(code.clone()), "{typed}");
    }
    for typed in [
        "WDJB-MJH",
        "WDJB-MJHTX",
        "WAJB-MJHT",
        "WDJB-MJH1",
        "",
        "ÀDJB-MJHT",
    ] {
        assert_eq!(UserCode::parse(typed), None, "{typed}");
    }
}

fn poll(status: DeviceStatus, last: Option<i64>, interval: i64) -> DevicePollState {
    DevicePollState {
        status,
        expires_at: T0 + DEVICE_CODE_TTL,
        interval: Duration::seconds(interval),
        last_polled_at: last.map(|s| T0 + Duration::seconds(s)),
    }
}

#[test]
fn polls_are_answered_as_rfc_8628_says() {
    use PollDecision::*;
    let at = |s: i64| T0 + Duration::seconds(s);
    assert_eq!(
        decide_poll(&poll(DeviceStatus::Pending, None, 5), at(0)),
        AuthorizationPending
    );
    assert_eq!(
        decide_poll(&poll(DeviceStatus::Pending, Some(0), 5), at(5)),
        AuthorizationPending
    );
    assert_eq!(
        decide_poll(&poll(DeviceStatus::Pending, Some(0), 5), at(4)),
        SlowDown {
            interval: Duration::seconds(10)
        }
    );
    assert_eq!(
        decide_poll(&poll(DeviceStatus::Approved, Some(0), 5), at(1)),
        Approved
    );
    assert_eq!(
        decide_poll(&poll(DeviceStatus::Denied, Some(0), 5), at(1)),
        AccessDenied
    );
    assert_eq!(
        decide_poll(&poll(DeviceStatus::Consumed, None, 5), at(1)),
        InvalidGrant
    );
    assert_eq!(
        decide_poll(&poll(DeviceStatus::Approved, None, 5), at(600)),
        ExpiredToken
    );
    assert_eq!(
        decide_poll(&poll(DeviceStatus::Pending, None, 5), at(599)),
        AuthorizationPending
    );
    assert_eq!(
        decide_poll(&poll(DeviceStatus::Consumed, None, 5), at(900)),
        InvalidGrant
    );
}

#[test]
fn device_statuses_round_trip() {
    for s in [
        DeviceStatus::Pending,
        DeviceStatus::Approved,
        DeviceStatus::Denied,
        DeviceStatus::Consumed,
    ] {
        assert_eq!(DeviceStatus::parse(s.as_str()), Some(s));
    }
    assert_eq!(DeviceStatus::parse("other"), None);
}

proptest! {
    #[test]
    fn every_port_from_1_to_65535_is_a_loopback_redirect_and_no_padded_one(port in 1u32..=65535, pad in 1usize..4) {
        let plain = format!("http://127.0.0.1:{port}/callback");
        let v6 = format!("http://[::1]:{port}/callback");
        let padded = format!("http://127.0.0.1:{}{port}/callback", "0".repeat(pad));
        prop_assert!(is_loopback_redirect(&plain));
        prop_assert!(is_loopback_redirect(&v6));
        prop_assert!(!is_loopback_redirect(&padded));
    }

    #[test]
    fn a_loopback_redirect_with_anything_appended_is_refused(port in 1u32..=65535, tail in "[?#/a-z0-9:@.]{1,12}") {
        let uri = format!("http://127.0.0.1:{port}/callback{tail}");
        prop_assert!(!is_loopback_redirect(&uri));
    }

    #[test]
    fn arbitrary_text_is_never_a_redirect_unless_exactly_of_the_form(s in ".{0,60}") {
        if is_loopback_redirect(&s) {
            prop_assert!(s.starts_with("http://127.0.0.1:") || s.starts_with("http://[::1]:"));
            prop_assert!(s.ends_with("/callback"));
        }
    }

    #[test]
    fn every_valid_verifier_verifies_against_its_own_challenge_only(v in "[A-Za-z0-9._~-]{43,128}", w in "[A-Za-z0-9._~-]{43,128}") {
        let c = s256_challenge(&v);
        prop_assert!(is_valid_challenge(&c));
        prop_assert!(verify_pkce(&v, &c));
        prop_assert_eq!(verify_pkce(&w, &c), w == v);
    }

    #[test]
    fn a_generated_user_code_reads_back_from_its_display_in_any_case(idx in proptest::array::uniform8(0u8..20), lower in any::<bool>()) {
        let code = UserCode::from_indices(idx);
        let shown = code.display();
        prop_assert_eq!(shown.len(), 9);
        let typed = if lower { shown.to_lowercase() } else { shown.clone() };
        prop_assert_eq!(UserCode::parse(&typed), Some(code.clone()));
        prop_assert_eq!(UserCode::parse(&shown.replace('-', " ")), Some(code));
    }

    #[test]
    fn slow_down_grows_the_interval_by_five_seconds_and_only_when_too_soon(interval in 5i64..120, since in 0i64..200) {
        let s = poll(DeviceStatus::Pending, Some(0), interval);
        let d = decide_poll(&s, T0 + Duration::seconds(since));
        if since < interval {
            prop_assert_eq!(d, PollDecision::SlowDown { interval: Duration::seconds(interval + 5) });
        } else {
            prop_assert_eq!(d, PollDecision::AuthorizationPending);
        }
    }
}
