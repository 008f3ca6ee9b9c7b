use super::*;
use proptest::prelude::*;

/// Characters that hide or reorder text: bidi embeddings, overrides, isolates and marks, the
/// zero-width ones, the word joiner, the soft hyphen, a tag, the BOM, line and paragraph
/// separators, the Mongolian vowel separator, the Hangul filler and an interlinear annotation.
const HIDDEN: &[char] = &[
    '\u{202A}',
    '\u{202B}',
    '\u{202C}',
    '\u{202D}',
    '\u{202E}',
    '\u{2066}',
    '\u{2067}',
    '\u{2068}',
    '\u{2069}',
    '\u{200E}',
    '\u{200F}',
    '\u{061C}',
    '\u{200B}',
    '\u{200C}',
    '\u{200D}',
    '\u{2060}',
    '\u{00AD}',
    '\u{E0041}',
    '\u{FEFF}',
    '\u{2028}',
    '\u{2029}',
    '\u{180E}',
    '\u{3164}',
    '\u{FFF9}',
    '\u{0000}',
    '\u{001B}',
    '\u{0085}',
];

#[test]
fn a_name_that_reorders_or_hides_its_letters_is_refused() {
    for (raw, why) in [
        ("Your MacBook \u{202E}(TI)", "right-to-left override"),
        ("Your\u{200B}MacBook", "zero-width space"),
        ("MacBook\u{2066}(IT)\u{2069}", "isolate"),
        ("Ana\u{2028}IT department", "line separator"),
        (
            "Ana's MacBook\u{2029}",
            "trailing paragraph separator: not trimmed away",
        ),
        ("\u{FEFF}Ana's MacBook", "byte order mark"),
    ] {
        assert_eq!(device_label(raw, 100), Err(LabelError::Invisible), "{why}");
    }
}

#[test]
fn ordinary_names_accents_scripts_and_emoji_with_variation_selectors_are_kept() {
    for name in [
        "Ana's MacBook",
        "Zoë's PC",
        "Ноутбук Ани",
        "مكتب أحمد",
        "田中のパソコン",
        "❤\u{FE0F} laptop",
        "Office 🖥\u{FE0F}",
        "ThinkPad (work)",
    ] {
        assert_eq!(device_label(name, 100).as_deref(), Ok(name), "{name}");
    }
    assert_eq!(device_label("  macos ", 40).as_deref(), Ok("macos"));
}

#[test]
fn length_is_counted_in_characters_after_trimming() {
    assert_eq!(device_label("   ", 100), Err(LabelError::Length));
    assert_eq!(
        device_label(&"é".repeat(100), 100).map(|s| s.chars().count()),
        Ok(100)
    );
    assert_eq!(device_label(&"é".repeat(101), 100), Err(LabelError::Length));
}

#[test]
fn an_authorization_request_with_a_hidden_character_is_invalid_device_name() {
    use crate::oauth::{AuthorizationRequest, AuthorizeError, AuthorizeParams, CLIENT_ID};
    let base = AuthorizeParams {
        response_type: Some("code"),
        client_id: Some(CLIENT_ID),
        redirect_uri: Some("http://127.0.0.1:4000/callback"),
        code_challenge: Some("E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM"),
        code_challenge_method: Some("S256"),
        state: Some("xyz"),
        device_name: None,
        platform: None,
    };
    for p in [
        AuthorizeParams {
            device_name: Some("Mac\u{202E}koob"),
            ..base.clone()
        },
        AuthorizeParams {
            platform: Some("mac\u{200B}os"),
            ..base.clone()
        },
    ] {
        let e = AuthorizationRequest::parse(&p).unwrap_err();
        assert_eq!(e, AuthorizeError::InvalidDeviceName);
        assert_eq!(e.code(), "invalid_device_name");
    }
}

#[test]
fn every_format_control_and_separator_character_of_unicode_is_refused_and_variation_selectors_are_not(
) {
    let mut refused = 0;
    for c in (0..=0x10FFFFu32).filter_map(char::from_u32) {
        let hides = c.is_control()
            || matches!(
                c.general_category(),
                GeneralCategory::Format
                    | GeneralCategory::LineSeparator
                    | GeneralCategory::ParagraphSeparator
            );
        if hides {
            refused += 1;
            assert_eq!(
                device_label(&format!("a{c}b"), 100),
                Err(LabelError::Invisible),
                "U+{:04X}",
                c as u32
            );
        }
    }
    assert!(refused > 200, "{refused}: the Cf, Cc, Zl and Zp characters");
    for c in ('\u{FE00}'..='\u{FE0F}').chain('\u{E0100}'..='\u{E01EF}') {
        assert!(!is_refused_in_label(c), "U+{:04X}", c as u32);
    }
}

fn hidden() -> impl Strategy<Value = char> {
    prop::sample::select(HIDDEN)
}

proptest! {
    #[test]
    fn any_label_with_a_hidden_character_anywhere_is_refused(
        before in "[a-zA-Z0-9 '()]{0,40}", c in hidden(), after in "[a-zA-Z0-9 '()]{0,40}"
    ) {
        let raw = format!("{before}{c}{after}");
        prop_assert_eq!(device_label(&raw, 100), Err(LabelError::Invisible));
    }

    #[test]
    fn an_accepted_label_never_holds_a_refused_character_and_is_its_own_trim(raw in any::<String>()) {
        if let Ok(label) = device_label(&raw, 100) {
            prop_assert!(!label.chars().any(is_refused_in_label));
            prop_assert_eq!(label.trim(), label.as_str());
            prop_assert!((1..=100).contains(&label.chars().count()));
        }
    }

    #[test]
    fn variation_selectors_are_allowed(
        base in "[a-z❤☺✈]{1,20}", vs in prop::sample::select(vec!['\u{FE0E}', '\u{FE0F}', '\u{E0100}', '\u{E01EF}', '\u{180B}'])
    ) {
        let raw = format!("{base}{vs}");
        prop_assert_eq!(device_label(&raw, 100), Ok(raw.clone()));
    }
}
