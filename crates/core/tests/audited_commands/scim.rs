//! The team's directory (SCIM) seating and unseating people: each change, its audit row (naming
//! the token) and, for an invitation, its mail land in one transaction. With the row's write
//! failing, nothing changed: no member, no account, no invitation, no mail, nobody removed.

use closewise_core::scim::ScimCaller;
use closewise_core::store::fixture::TeamFixture;
use closewise_core::store::teams::domains::NewTeamDomain;
use closewise_core::store::teams::sso::TeamSsoRow;
use closewise_domain::email::Email;
use closewise_domain::password::Password;
use closewise_testkit::{both, scalar, Backend};
use serde_json::{json, Value};
use uuid::Uuid;

use super::{break_audit, fixture, ops, restore, Fx};

const DOMAIN: &str = "acme.example";

/// A team of one (its owner) with 10 seats, `acme.example` verified, and a SCIM token's caller.
async fn directory(f: &Fx) -> ScimCaller {
    let (store, now) = (&f.app.store, f.app.clock.now());
    let team = store
        .seed_team_fixture(&TeamFixture {
            prefix: "t".into(),
            domain: "owners.example".into(),
            members: 1,
            calls: 0,
            audit: 0,
            invites: 0,
            password_hash: String::new(),
            now,
        })
        .await
        .unwrap();
    store.set_team_seats(team.team_id, 10, now).await.unwrap();
    let id = Uuid::now_v7();
    let domain = NewTeamDomain {
        id,
        team_id: team.team_id,
        domain: DOMAIN,
        txt_token: "t",
        created_by: None,
        now,
    };
    assert!(store.insert_team_domain(&domain).await.unwrap());
    assert!(store.mark_team_domain_verified(id, now).await.unwrap());
    let token = f
        .app
        .scim
        .create_token(&ops(), Some(team.team_id), "Okta")
        .await
        .unwrap();
    f.app.scim.authenticate(&token.token).await.unwrap()
}

/// Gives the caller's team single sign-on: the directory's new people get accounts at once.
async fn with_sso(f: &Fx, caller: &ScimCaller) {
    let now = f.app.clock.now();
    let row = TeamSsoRow {
        team_id: caller.team_id,
        issuer: "https://idp.example".into(),
        client_id: "client".into(),
        client_secret_sealed: "sealed".into(),
        authorization_endpoint: "https://idp.example/authorize".into(),
        token_endpoint: "https://idp.example/token".into(),
        jwks_uri: "https://idp.example/jwks".into(),
        userinfo_endpoint: None,
        email_claim: "email".into(),
        required: false,
        created_at: now,
        updated_at: now,
        protocol: "oidc".into(),
        saml_certificates: None,
        saml_metadata_url: None,
        saml_email_attribute: None,
        saml_idp_initiated: false,
        saml_certificate_in_use: None,
        saml_metadata_checked_at: None,
    };
    let audit = ops().audit("team.sso.save", None, None, json!({}), now);
    f.app.store.save_team_sso(&row, None, &audit).await.unwrap();
}

fn user(email: &str, active: bool) -> Value {
    json!({
        "schemas": ["urn:ietf:params:scim:schemas:core:2.0:User"],
        "userName": email,
        "active": active,
    })
}

/// The rows of `action`: (actor, user id, address).
async fn rows(f: &Fx, action: &str) -> Vec<(String, Option<Uuid>, Option<String>)> {
    let log = f.app.store.audit_log(100).await.unwrap();
    log.into_iter()
        .filter(|r| r.action == action)
        .map(|r| (r.actor, r.user_id, r.target_email))
        .collect()
}

fn by(caller: &ScimCaller) -> String {
    format!("scim token {}", caller.token_id)
}

async fn count(f: &Fx, sql: &str) -> i64 {
    scalar(&f.url, sql).await
}

async fn member(f: &Fx, caller: &ScimCaller, email: &str) -> bool {
    let Some(u) = f.app.store.user_by_email(email).await.unwrap() else {
        return false;
    };
    let team = f.app.store.membership_of(u.id).await.unwrap();
    team.is_some_and(|(t, _)| t == caller.team_id)
}

async fn open_invites(f: &Fx, email: &str) -> i64 {
    let sql = format!(
        "SELECT COUNT(*) FROM team_invites WHERE email = '{email}' \
         AND accepted_at IS NULL AND declined_at IS NULL AND revoked_at IS NULL"
    );
    count(f, &sql).await
}

both!(
    async fn a_scim_join_of_an_account_is_recorded_exactly_when_it_joins(backend: Backend) {
        let f = fixture(backend).await;
        let caller = directory(&f).await;
        let email = format!("jo@{DOMAIN}");
        f.app
            .accounts
            .sign_up(
                &Email::parse(&email).unwrap(),
                &Password::parse("correct horse battery").unwrap(),
                None,
            )
            .await
            .unwrap();
        let jo = f.app.store.user_by_email(&email).await.unwrap().unwrap();

        break_audit(&f).await;
        let failed = f.app.scim.create_user(&caller, user(&email, true)).await;
        assert!(failed.is_err(), "the audit row could not be written");
        restore(&f).await;
        assert!(!member(&f, &caller, &email).await, "not seated");
        let after = f.app.store.user_by_id(jo.id).await.unwrap().unwrap();
        assert!(after.email_confirmed_at.is_none(), "nor confirmed");
        assert_eq!(count(&f, "SELECT COUNT(*) FROM scim_users").await, 0);
        assert!(rows(&f, "team.scim.member_add").await.is_empty());

        f.app
            .scim
            .create_user(&caller, user(&email, true))
            .await
            .unwrap();
        assert!(member(&f, &caller, &email).await);
        assert_eq!(
            rows(&f, "team.scim.member_add").await,
            [(by(&caller), Some(jo.id), Some(email))]
        );
    }
);

both!(
    async fn a_scim_sso_account_is_recorded_exactly_when_it_is_made(backend: Backend) {
        let f = fixture(backend).await;
        let caller = directory(&f).await;
        with_sso(&f, &caller).await;
        let email = format!("sso@{DOMAIN}");

        break_audit(&f).await;
        let failed = f.app.scim.create_user(&caller, user(&email, true)).await;
        assert!(failed.is_err(), "the audit row could not be written");
        restore(&f).await;
        let made = f.app.store.user_by_email(&email).await.unwrap();
        assert!(made.is_none(), "no account made");
        assert!(rows(&f, "team.scim.member_add").await.is_empty());

        f.app
            .scim
            .create_user(&caller, user(&email, true))
            .await
            .unwrap();
        assert!(member(&f, &caller, &email).await);
        let made = f.app.store.user_by_email(&email).await.unwrap().unwrap();
        assert_eq!(
            rows(&f, "team.scim.member_add").await,
            [(by(&caller), Some(made.id), Some(email))]
        );
    }
);

both!(
    async fn a_scim_invitation_is_recorded_and_mailed_exactly_when_it_is_made(backend: Backend) {
        let f = fixture(backend).await;
        let caller = directory(&f).await;
        let email = format!("new@{DOMAIN}");
        let mails = "SELECT COUNT(*) FROM mail_outbox WHERE kind = 'team_invite'";

        break_audit(&f).await;
        let failed = f.app.scim.create_user(&caller, user(&email, true)).await;
        assert!(failed.is_err(), "the audit row could not be written");
        restore(&f).await;
        assert_eq!(count(&f, "SELECT COUNT(*) FROM team_invites").await, 0);
        assert_eq!(count(&f, mails).await, 0, "nor mailed");
        assert!(rows(&f, "team.scim.invite").await.is_empty());

        f.app
            .scim
            .create_user(&caller, user(&email, true))
            .await
            .unwrap();
        assert_eq!(open_invites(&f, &email).await, 1);
        assert_eq!(count(&f, mails).await, 1);
        assert_eq!(
            rows(&f, "team.scim.invite").await,
            [(by(&caller), None, Some(email))]
        );
    }
);

both!(
    async fn a_scim_deprovisioning_is_recorded_exactly_when_it_unseats(backend: Backend) {
        let f = fixture(backend).await;
        let caller = directory(&f).await;
        let (seated, invited) = (format!("seated@{DOMAIN}"), format!("invited@{DOMAIN}"));
        let scim = &f.app.scim;
        // Before single sign-on, an address without an account holds its seat by an invitation.
        let invited_user = scim
            .create_user(&caller, user(&invited, true))
            .await
            .unwrap();
        assert_eq!(open_invites(&f, &invited).await, 1);
        with_sso(&f, &caller).await;
        let seated_user = scim
            .create_user(&caller, user(&seated, true))
            .await
            .unwrap();
        let account = f.app.store.user_by_email(&seated).await.unwrap().unwrap();
        assert!(member(&f, &caller, &seated).await);

        break_audit(&f).await;
        let off = json!({
            "schemas": ["urn:ietf:params:scim:api:messages:2.0:PatchOp"],
            "Operations": [{ "op": "replace", "path": "active", "value": false }],
        });
        let failed = scim
            .patch_user(&caller, &seated_user.id.to_string(), off)
            .await;
        assert!(failed.is_err(), "the audit row could not be written");
        let failed = scim
            .delete_user(&caller, &invited_user.id.to_string())
            .await;
        assert!(failed.is_err(), "the audit row could not be written");
        restore(&f).await;
        assert!(member(&f, &caller, &seated).await, "still a member");
        assert_eq!(open_invites(&f, &invited).await, 1, "invite not withdrawn");
        assert!(rows(&f, "team.scim.member_remove").await.is_empty());

        scim.delete_user(&caller, &seated_user.id.to_string())
            .await
            .unwrap();
        scim.delete_user(&caller, &invited_user.id.to_string())
            .await
            .unwrap();
        assert!(!member(&f, &caller, &seated).await);
        assert_eq!(open_invites(&f, &invited).await, 0);
        let mut removed = rows(&f, "team.scim.member_remove").await;
        removed.sort_by(|a, b| a.2.cmp(&b.2));
        assert_eq!(
            removed,
            [
                (by(&caller), None, Some(invited)),
                (by(&caller), Some(account.id), Some(seated)),
            ]
        );
    }
);
