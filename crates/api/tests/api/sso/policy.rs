//! One switch for Require SSO (docs/teams.md "Policies"): `team_sso.required` is its one
//! source of truth, as `teams.require_mfa` is for `require_mfa`. The policy's `require_sso` reads
//! it, `PUT /api/team/policy` sets it (the owner's, and only with SSO set up: `409
//! sso_not_configured`), the SSO endpoint's switch shows in the policy, and the version follows.

use super::*;

async fn policy(app: &TestApp, who: &User) -> Value {
    let (s, v) = call(app, Method::GET, "/api/team/policy", Some(&who.token), None).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    v
}

async fn put_policy(app: &TestApp, who: &User, require_sso: bool) -> (StatusCode, Value) {
    let mut p = policy(app, who).await["policy"].clone();
    p["require_sso"] = json!(require_sso);
    call(
        app,
        Method::PUT,
        "/api/team/policy",
        Some(&who.token),
        Some(p),
    )
    .await
}

both!(
    async fn require_sso_is_one_switch_shared_by_the_policy_and_the_sso_settings(app) {
        let owner = owner_with_domain(&app, 5).await;
        // At another domain: Require SSO leaves their password session alone.
        let admin = join(&app, &owner, "dee@partner.example", "admin").await;
        let bo = format!("bo@{DOMAIN}");
        let member = join(&app, &owner, &bo, "member").await;

        // Without SSO the switch cannot be turned on, and nothing is saved.
        let (s, v) = put_policy(&app, &owner, true).await;
        assert_eq!((s, error_code(&v)), (StatusCode::CONFLICT, "sso_not_configured"), "{v}");
        assert!(policy(&app, &owner).await["updated_at"].is_null(), "nothing saved");

        let idp = Idp::start(&app, &[(&bo, true)]).await;
        connect(&app, &owner, &idp, false).await;
        let before = policy(&app, &owner).await;
        assert_eq!(before["policy"]["require_sso"], false);

        // The owner's switch: an admin may save the policy but not flip it.
        let (s, v) = put_policy(&app, &admin, true).await;
        assert_eq!((s, error_code(&v)), (StatusCode::FORBIDDEN, "forbidden_role"), "{v}");
        let (s, v) = put_policy(&app, &owner, true).await;
        assert_eq!((s, v["policy"]["require_sso"].as_bool()), (StatusCode::OK, Some(true)), "{v}");
        assert_ne!(v["policy_version"], before["policy_version"], "a new version");
        let (_, sso) = call(&app, Method::GET, "/api/team/sso", Some(&owner.token), None).await;
        assert_eq!(sso["required"], true, "the policy set the SSO settings' switch: {sso}");
        // Enforced as the SSO settings' switch is: the member's password session ended, their
        // password is refused.
        let (s, _) = call(&app, Method::GET, "/api/auth/user", Some(&member.token), None).await;
        assert_eq!(s, StatusCode::UNAUTHORIZED);
        let (s, v) = body(app.signin(&bo, PASSWORD).await).await;
        assert_eq!((s, error_code(&v)), (StatusCode::FORBIDDEN, "sso_required"), "{v}");
        // The admin saves the policy without touching it.
        let (s, v) = put_policy(&app, &admin, true).await;
        assert_eq!(s, StatusCode::OK, "{v}");
        let on = v["policy_version"].clone();

        // The SSO settings' switch shows in the policy, and in the version the apps obey.
        connect(&app, &owner, &idp, false).await;
        let after = policy(&app, &owner).await;
        assert_eq!(after["policy"]["require_sso"], false, "{after}");
        assert_eq!(after["policy_version"], before["policy_version"], "back to the version without it");
        assert_ne!(after["policy_version"], on);
        let (s, v) = body(app.signin(&bo, PASSWORD).await).await;
        assert_eq!(s, StatusCode::OK, "{v}");
        let (_, e) = call(&app, Method::GET, "/api/entitlements", Some(v["access_token"].as_str().unwrap()), None).await;
        assert_eq!((e["policy"]["require_sso"].as_bool(), &e["policy_version"]), (Some(false), &after["policy_version"]), "{e}");

        // Turning it off through the policy; with SSO removed, the policy says off too.
        put_policy(&app, &owner, true).await;
        let (s, v) = put_policy(&app, &owner, false).await;
        assert_eq!((s, v["policy"]["require_sso"].as_bool()), (StatusCode::OK, Some(false)), "{v}");
        let (_, sso) = call(&app, Method::GET, "/api/team/sso", Some(&owner.token), None).await;
        assert_eq!(sso["required"], false, "{sso}");
        put_policy(&app, &owner, true).await;
        let (s, _) = call(&app, Method::DELETE, "/api/team/sso", Some(&owner.token), None).await;
        assert_eq!(s, StatusCode::NO_CONTENT);
        assert_eq!(policy(&app, &owner).await["policy"]["require_sso"], false);
        let audits: Vec<_> = app.state.store.audit_log(100).await.unwrap().into_iter().filter(|a| a.action == "team.policy").collect();
        let switched_off = audits.iter().any(|a| {
            let d: Value = serde_json::from_str(&a.details).unwrap();
            d["before"]["require_sso"] == true && d["after"]["require_sso"] == false
        });
        assert!(switched_off, "the policy's audit rows show the switch: {audits:?}");
    }
);

both!(
    async fn the_sso_settings_switch_and_removal_show_in_a_members_next_cached_entitlements(app) {
        let owner = owner_with_domain(&app, 5).await;
        // At another domain: Require SSO leaves their password session alone.
        let admin = join(&app, &owner, "dee@partner.example", "admin").await;
        let idp = Idp::start(&app, &[]).await;
        connect(&app, &owner, &idp, false).await;
        let cached = crate::entitlements_cache::cached;
        let next = crate::entitlements_cache::next;
        assert_eq!(cached(&app, &admin.token).await["policy"]["require_sso"], false);
        connect(&app, &owner, &idp, true).await;
        assert_eq!(next(&app, &admin.token).await["policy"]["require_sso"], true, "switched on");
        let (s, v) = call(&app, Method::DELETE, "/api/team/sso", Some(&owner.token), None).await;
        assert!(s.is_success(), "{v}");
        assert_eq!(next(&app, &admin.token).await["policy"]["require_sso"], false, "removed");
    }
);
