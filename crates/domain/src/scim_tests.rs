use serde_json::json;

use super::*;

fn attrs(v: Value) -> Map<String, Value> {
    user_attributes(v).unwrap()
}

#[test]
fn a_token_name_is_trimmed_and_between_one_and_sixty_characters() {
    assert_eq!(
        token_name("  Okta production "),
        Ok("Okta production".to_owned())
    );
    assert_eq!(
        token_name(&"é".repeat(60)).map(|n| n.chars().count()),
        Ok(60)
    );
    for bad in ["", "   ", "Okta\nprod", &"x".repeat(61)] {
        assert!(token_name(bad).is_err(), "{bad:?}");
    }
}

#[test]
fn the_filter_is_user_name_external_id_or_id_eq_a_string() {
    let f = parse_filter(r#"userName eq "Ana@Acme.test""#).unwrap();
    assert_eq!(f.attribute, FilterAttribute::UserName);
    assert_eq!(f.value, "Ana@Acme.test");
    let f = parse_filter(r#"username EQ "a b""#).unwrap();
    assert_eq!(f.value, "a b");
    let f = parse_filter(&format!(r#"{USER_SCHEMA}:externalId eq "x1""#)).unwrap();
    assert_eq!(f.attribute, FilterAttribute::ExternalId);
    for bad in [
        r#"userName co "ana""#,
        r#"title eq "x""#,
        "userName eq ana",
        "userName",
        "",
    ] {
        let e = parse_filter(bad).unwrap_err();
        assert_eq!(e.scim_type(), "invalidFilter", "{bad}");
    }
}

#[test]
fn a_user_needs_a_user_name_and_loses_what_the_server_owns() {
    let a = attrs(json!({"schemas": [USER_SCHEMA], "id": "x", "meta": {}, "userName": "a@b.c"}));
    assert_eq!(a.len(), 1);
    assert!(active(&a));
    assert_eq!(user_name(&a).unwrap(), "a@b.c");
    for bad in [json!({}), json!({"userName": ""}), json!({"userName": 3})] {
        assert_eq!(
            user_attributes(bad).unwrap_err().scim_type(),
            "invalidValue"
        );
    }
    assert_eq!(
        user_attributes(json!([])).unwrap_err().scim_type(),
        "invalidSyntax"
    );
    let e = user_attributes(json!({"userName": "a@b.c", "active": "no"})).unwrap_err();
    assert_eq!(e.scim_type(), "invalidValue");
}

#[test]
fn patch_replaces_active_with_and_without_a_path() {
    let mut a = attrs(json!({"userName": "a@b.c", "active": true}));
    let op = |v: Value| json!({"schemas": [PATCH_OP], "Operations": [v]});
    apply_patch(
        &mut a,
        &op(json!({"op": "replace", "path": "active", "value": false})),
    )
    .unwrap();
    assert!(!active(&a));
    apply_patch(
        &mut a,
        &op(json!({"op": "Replace", "value": {"active": true}})),
    )
    .unwrap();
    assert!(active(&a));
    assert_eq!(a.len(), 2, "{a:?}");
}

#[test]
fn patch_updates_sub_attributes_filtered_values_and_removes() {
    let mut a = attrs(json!({
        "userName": "a@b.c",
        "name": {"givenName": "Ana", "familyName": "Lopez"},
        "emails": [{"value": "a@b.c", "type": "work", "primary": true}]
    }));
    let body = json!({"Operations": [
        {"op": "replace", "path": "name.givenName", "value": "Anna"},
        {"op": "replace", "value": {"name.familyName": "López", "displayName": "Anna L"}},
        {"op": "replace", "path": "emails[type eq \"work\"].value", "value": "anna@b.c"},
        {"op": "add", "path": "title", "value": "Rep"},
        {"op": "remove", "path": "displayName"},
        {"op": "replace", "path": format!("{USER_SCHEMA}:userName"), "value": "anna@b.c"}
    ]});
    apply_patch(&mut a, &body).unwrap();
    assert_eq!(
        Value::Object(a.clone()),
        json!({
            "userName": "anna@b.c",
            "name": {"givenName": "Anna", "familyName": "López"},
            "emails": [{"value": "anna@b.c", "type": "work", "primary": true}],
            "title": "Rep"
        })
    );
    let remove_all = json!({"Operations": [{"op": "remove", "path": "emails[type eq \"work\"]"}]});
    apply_patch(&mut a, &remove_all).unwrap();
    assert_eq!(a["emails"], json!([]));
}

#[test]
fn patch_refusals_carry_their_scim_type() {
    let mut a = attrs(json!({"userName": "a@b.c"}));
    let cases = [
        (json!({}), "invalidSyntax"),
        (
            json!({"Operations": [{"op": "move", "path": "x", "value": 1}]}),
            "invalidSyntax",
        ),
        (json!({"Operations": [{"op": "remove"}]}), "noTarget"),
        (
            json!({"Operations": [{"op": "replace", "path": "id", "value": "x"}]}),
            "mutability",
        ),
        (
            json!({"Operations": [{"op": "replace", "path": "emails[type", "value": 1}]}),
            "invalidPath",
        ),
        (
            json!({"Operations": [{"op": "replace", "path": "active"}]}),
            "invalidValue",
        ),
    ];
    for (body, scim_type) in cases {
        let e = apply_patch(&mut a, &body).unwrap_err();
        assert_eq!(e.scim_type(), scim_type, "{body}");
    }
}
