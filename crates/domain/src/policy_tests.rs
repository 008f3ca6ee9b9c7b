use super::*;
use proptest::prelude::*;
use serde_json::json;

fn with_notice(mode: &str, text: &str, regions: &[(&str, &str)]) -> Policy {
    Policy {
        consent_notice: ConsentNotice {
            mode: mode.into(),
            text: text.into(),
            regions: regions
                .iter()
                .map(|(r, t)| (r.to_string(), t.to_string()))
                .collect(),
        },
        ..Policy::default()
    }
}

fn field(p: Policy) -> String {
    p.validate().unwrap_err().field
}

#[test]
fn the_default_is_the_contracts_shape_with_the_notice_off() {
    let p = Policy::default();
    assert_eq!(
        serde_json::to_value(&p).unwrap(),
        json!({"consent_notice": {"mode": "off", "text": "", "regions": {}},
            "allowed_apps": ["zoom", "meet", "teams", "phone"],
            "hint_categories": {"objections": true, "replies": true, "follow_ups": true},
            "retention_days": 30, "require_mfa": false, "require_sso": false})
    );
    assert_eq!(p.clone().validate(), Ok(p.clone()));
    assert_eq!(p.consent_text(Some("US-CA")), None);
}

#[test]
fn a_wrong_field_is_named() {
    let mut p = Policy::default();
    p.allowed_apps.push("fax".into());
    assert_eq!(field(p), "allowed_apps");
    let mut p = Policy::default();
    p.hint_categories.insert("gossip".into(), true);
    assert_eq!(field(p), "hint_categories.gossip");
    let mut p = Policy::default();
    p.hint_categories.remove("replies");
    assert_eq!(field(p), "hint_categories.replies");
    let p = Policy {
        retention_days: 14,
        ..Policy::default()
    };
    assert_eq!(field(p), "retention_days");
    assert_eq!(field(with_notice("shout", "x", &[])), "consent_notice.mode");
    assert_eq!(field(with_notice("show", " ", &[])), "consent_notice.text");
    let long = "é".repeat(1001);
    assert_eq!(field(with_notice("off", &long, &[])), "consent_notice.text");
    assert!(with_notice("show", &"é".repeat(1000), &[])
        .validate()
        .is_ok());
    let err = with_notice("show", "x", &[("US-XX", "y")])
        .validate()
        .unwrap_err();
    assert_eq!(err.field, "consent_notice.regions.US-XX");
    assert!(err.message.contains("US-XX"), "{}", err.message);
    assert!(err
        .to_string()
        .starts_with("consent_notice.regions.US-XX: \"US-XX\" is not"));
    assert_eq!(
        field(with_notice("show", "x", &[("EU", &long)])),
        "consent_notice.regions.EU"
    );
    assert_eq!(
        field(with_notice("show", "x", &[("eu", "y")])),
        "consent_notice.regions.eu"
    );
}

#[test]
fn region_codes_are_eu_countries_and_us_states() {
    for ok in ["EU", "US-CA", "US-DC", "DE", "GB", "US", "CA"] {
        assert!(valid_region(ok), "{ok}");
    }
    for bad in ["", "XX", "US-", "US-XX", "us-ca", "DEU", "EU-DE", "US-CA-1"] {
        assert!(!valid_region(bad), "{bad}");
    }
}

#[test]
fn the_most_specific_variant_applies() {
    let p = with_notice(
        "read_aloud",
        "This call is recorded.",
        &[("US-CA", "California"), ("EU", "Europe"), ("FR", "France")],
    )
    .validate()
    .unwrap();
    assert_eq!(p.consent_text(None), Some("This call is recorded."));
    assert_eq!(p.consent_text(Some("US-CA")), Some("California"));
    assert_eq!(
        p.consent_text(Some("US-NY")),
        Some("This call is recorded.")
    );
    assert_eq!(p.consent_text(Some("DE")), Some("Europe"));
    assert_eq!(p.consent_text(Some("FR")), Some("France"));
    assert_eq!(p.consent_text(Some("JP")), Some("This call is recorded."));
}

#[test]
fn apps_are_normalised_and_the_version_hashes_the_canonical_json() {
    let p = Policy {
        allowed_apps: vec!["phone".into(), "meet".into(), "phone".into()],
        ..Policy::default()
    };
    let p = p.validate().unwrap();
    assert_eq!(p.allowed_apps, ["meet", "phone"]);
    assert!(p.allows_app("meet") && !p.allows_app("zoom"));
    let canonical = p.canonical_json();
    assert!(canonical.starts_with(r#"{"allowed_apps":["meet","phone"],"consent_notice":{"mode":"off","regions":{},"text":""},"hint_categories":{"follow_ups":true,"#));
    assert_eq!(p.version(), version_of(&canonical));
    assert!(is_policy_version(&p.version()));
    assert!(!is_policy_version("v1") && !is_policy_version(&p.version().to_uppercase()));
    assert_ne!(p.version(), Policy::default().version());
}

#[test]
fn adoption_counts_devices_on_the_current_version() {
    let t = time::OffsetDateTime::UNIX_EPOCH;
    let day = time::Duration::days(1);
    let a = adoption(
        "v2",
        [
            (Some("v2"), t),
            (Some("v1"), t + day),
            (None, t),
            (Some("v2"), t),
        ],
    );
    assert_eq!((a.devices, a.current), (4, 2));
    assert_eq!(a.behind_last_seen_at, Some(t + day));
    let a = adoption("v2", [(Some("v2"), t)]);
    assert_eq!((a.devices, a.current, a.behind_last_seen_at), (1, 1, None));
}

fn policy() -> impl Strategy<Value = Policy> {
    let apps = proptest::sample::subsequence(APPS.to_vec(), 0..=4);
    let hints = proptest::collection::vec(any::<bool>(), 3);
    let mode = proptest::sample::select(vec!["off", "show", "read_aloud"]);
    let regions = proptest::collection::btree_map(
        proptest::sample::select(vec!["EU", "US-CA", "US-WA", "DE", "GB"]),
        "[a-zA-Z][a-zA-Z \"é\\\\]{0,40}",
        0..4,
    );
    (
        apps,
        hints,
        mode,
        "[a-z]{1,20}",
        regions,
        proptest::sample::select(RETENTION_DAYS.to_vec()),
        any::<bool>(),
    )
        .prop_map(|(apps, hints, mode, text, regions, days, mfa)| Policy {
            consent_notice: ConsentNotice {
                mode: mode.into(),
                text,
                regions: regions.into_iter().map(|(r, t)| (r.into(), t)).collect(),
            },
            allowed_apps: apps.into_iter().map(String::from).collect(),
            hint_categories: HINT_CATEGORIES
                .iter()
                .zip(hints)
                .map(|(c, on)| (c.to_string(), on))
                .collect(),
            retention_days: days,
            require_mfa: mfa,
            require_sso: !mfa,
        })
}

proptest! {
    /// A valid policy survives validation, its canonical JSON reads back as itself, and the
    /// version depends on the content only (not on the order keys were written in).
    #[test]
    fn canonical_json_round_trips_and_versions_are_stable(p in policy()) {
        let p = p.validate().unwrap();
        let canonical = p.canonical_json();
        let back: Policy = serde_json::from_str(&canonical).unwrap();
        prop_assert_eq!(&back, &p);
        let value: serde_json::Value = serde_json::from_str(&canonical).unwrap();
        prop_assert_eq!(canonical_json(&value), canonical.clone());
        let pretty = serde_json::to_string_pretty(&p).unwrap();
        let reread: Policy = serde_json::from_str(&pretty).unwrap();
        prop_assert_eq!(reread.version(), p.version());
    }

    /// Any change to the policy changes its version.
    #[test]
    fn a_change_changes_the_version(p in policy(), days in proptest::sample::select(RETENTION_DAYS.to_vec())) {
        let mut q = p.clone();
        q.retention_days = days;
        prop_assert_eq!(q.version() == p.version(), q == p);
    }

    /// Texts up to 1,000 characters pass, longer ones name their field; any region other than the
    /// listed codes is refused by name.
    #[test]
    fn text_length_and_region_codes(n in 990usize..1010, region in "[A-Z-]{1,6}") {
        let text = "a".repeat(n);
        let r = with_notice("show", &text, &[]).validate();
        prop_assert_eq!(r.is_ok(), n <= 1000);
        let r = with_notice("show", "x", &[(region.as_str(), "y")]).validate();
        match r {
            Ok(_) => prop_assert!(valid_region(&region)),
            Err(e) => prop_assert_eq!(e.field, format!("consent_notice.regions.{region}")),
        }
    }

    /// Off means no notice anywhere; otherwise every region gets some text of the policy.
    #[test]
    fn a_notice_applies_everywhere_unless_off(p in policy(), region in proptest::option::of("[A-Z]{2}(-[A-Z]{2})?")) {
        let p = p.validate().unwrap();
        let text = p.consent_text(region.as_deref());
        if p.consent_notice.mode == "off" {
            prop_assert_eq!(text, None);
        } else {
            let text = text.unwrap();
            prop_assert!(text == p.consent_notice.text || p.consent_notice.regions.values().any(|t| t == text));
        }
    }
}
