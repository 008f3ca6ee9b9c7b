use super::*;
use crate::entitlement::test_keys::*;
use crate::store::MemoryStore;
use crate::store::TokenStore;

const NOW: i64 = 1_795_000_000;
const DAY: i64 = 24 * 3600;

/// A session of user [`U1`], session [`SID`], holding `token`.
fn stored(key: &TestKey, token: String) -> StoredSession {
    StoredSession {
        refresh_token: "rt".into(),
        access_token: key.access_token(U1, SID),
        expires_at: NOW + 3600,
        user_id: U1.into(),
        email: "ana@example.com".into(),
        entitlement_token: Some(token),
        highest_seen: 0,
    }
}

#[test]
fn offline_the_stored_token_answers_fresh_then_grace_then_refuses() {
    let k = TestKey::generate("k1");
    let s = stored(&k, k.sign(&claims(U1, NOW)));
    let keys = k.jwks();
    let fresh = offline_entitlements(&s, &keys, ISSUER, NOW + 3600).unwrap();
    assert_eq!(fresh.source, Source::Offline);
    assert_eq!(
        fresh.calls,
        Some(CallAllowance {
            limit: 5,
            used: 3,
            remaining: 2
        })
    );
    assert!(fresh.may_start_call());
    let grace = offline_entitlements(&s, &keys, ISSUER, NOW + 3 * DAY).unwrap();
    assert_eq!(grace.source, Source::Grace);
    let late = offline_entitlements(&s, &keys, ISSUER, NOW + 9 * DAY);
    assert!(matches!(late, Err(Error::OfflineTooLong)), "{late:?}");
    assert_eq!(
        late.unwrap_err().to_string(),
        "Offline too long, connect to continue."
    );
}

#[test]
fn offline_a_tampered_or_foreign_stored_token_is_refused() {
    let k = TestKey::generate("k1");
    let keys = k.jwks();
    let mut s = stored(&k, k.sign(&claims(U1, NOW)));
    let token = s.entitlement_token.clone().unwrap();
    let (head, _) = token.split_once('.').unwrap();
    let (_, sig) = token.rsplit_once('.').unwrap();
    let mut forged = claims(U1, NOW);
    forged["unlimited"] = true.into();
    use base64::Engine;
    let body = base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(forged.to_string());
    s.entitlement_token = Some(format!("{head}.{body}.{sig}"));
    assert!(matches!(
        offline_entitlements(&s, &keys, ISSUER, NOW),
        Err(Error::InvalidEntitlement(_))
    ));

    let other_user = stored(&k, k.sign(&claims(U2, NOW)));
    assert!(matches!(
        offline_entitlements(&other_user, &keys, ISSUER, NOW),
        Err(Error::InvalidEntitlement(_))
    ));
    let mut nothing = other_user;
    nothing.entitlement_token = None;
    assert!(matches!(
        offline_entitlements(&nothing, &keys, ISSUER, NOW),
        Err(Error::NoOfflineEntitlement)
    ));
}

#[test]
fn offline_a_token_signed_by_a_key_that_is_not_pinned_is_refused() {
    let pinned = TestKey::generate("k1");
    // Whoever edits the store signs with a key of their own, under the pinned kid or another.
    for forger in [TestKey::generate("k1"), TestKey::generate("mine")] {
        let mut c = claims(U1, NOW);
        c["unlimited"] = true.into();
        let mut s = stored(&forger, forger.sign(&c));
        s.access_token = forger.access_token(U1, SID);
        let answer = offline_entitlements(&s, &pinned.jwks(), ISSUER, NOW);
        assert!(
            matches!(answer, Err(Error::InvalidEntitlement(_))),
            "{answer:?}"
        );
    }
    // Rotation: a list of pinned keys, any of which may sign.
    let next = TestKey::generate("k2");
    let mut both = pinned.jwks();
    both.keys.extend(next.jwks().keys);
    let s = stored(&next, next.sign(&claims(U1, NOW)));
    assert!(offline_entitlements(&s, &both, ISSUER, NOW).is_ok());
}

#[test]
fn offline_a_token_of_another_session_is_refused() {
    let k = TestKey::generate("k1");
    let keys = k.jwks();
    // The same user's token from another device (another session): copied into this store.
    let mut s = stored(&k, k.sign(&claims(U1, NOW)));
    s.access_token = k.access_token(U1, OTHER_SID);
    let answer = offline_entitlements(&s, &keys, ISSUER, NOW);
    assert!(
        matches!(&answer, Err(Error::InvalidEntitlement(why)) if why.contains("another session")),
        "{answer:?}"
    );
    // A token without a session (older than the claim) is refused too.
    let mut c = claims(U1, NOW);
    c.as_object_mut().unwrap().remove("sid");
    let s = stored(&k, k.sign(&c));
    assert!(offline_entitlements(&s, &keys, ISSUER, NOW).is_err());
    // The user id field of the store is not what decides: the signed access token is.
    let mut s = stored(&k, k.sign(&claims(U2, NOW)));
    s.user_id = U2.into();
    assert!(offline_entitlements(&s, &keys, ISSUER, NOW).is_err());
}

/// A port that was just free: nothing listens there.
fn dead_base() -> String {
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    format!("http://127.0.0.1:{port}")
}

#[tokio::test]
async fn when_the_api_cannot_be_reached_the_client_answers_from_the_store() {
    let base = dead_base();
    let k = TestKey::generate("k1");
    let now = now();
    let mut c = claims(U1, now - 2 * DAY);
    c["iss"] = base.clone().into();
    let store = std::sync::Arc::new(MemoryStore::new());
    let mut session = stored(&k, k.sign(&c));
    session.access_token = access_token_for(&k, &base);
    session.expires_at = now + 3600;
    store.save(&session).unwrap();
    let client = Client::new(&base, store.clone())
        .unwrap()
        .with_entitlement_keys(k.jwks());
    let answer = client.entitlements().await.unwrap();
    assert_eq!(answer.source, Source::Grace);
    assert_eq!(answer.plan_type, "free");
    assert!(
        store.load().unwrap().unwrap().highest_seen >= now,
        "the time seen is kept"
    );
}

fn access_token_for(k: &TestKey, issuer: &str) -> String {
    k.access_token_of(U1, SID, issuer)
}

#[tokio::test]
async fn setting_the_clock_back_does_not_stretch_the_grace_period() {
    let base = dead_base();
    let k = TestKey::generate("k1");
    let now = now();
    // Issued 6 days ago: in grace by the clock. But this client has already seen a time 3 days
    // ahead of the clock (the clock has since been set back), when the grace was over.
    let mut c = claims(U1, now - 6 * DAY);
    c["iss"] = base.clone().into();
    let store = std::sync::Arc::new(MemoryStore::new());
    let mut session = stored(&k, k.sign(&c));
    session.access_token = access_token_for(&k, &base);
    session.expires_at = now + 3600;
    session.highest_seen = now + 3 * DAY;
    store.save(&session).unwrap();
    let client = Client::new(&base, store.clone())
        .unwrap()
        .with_entitlement_keys(k.jwks());
    let answer = client.entitlements().await;
    assert!(matches!(answer, Err(Error::OfflineTooLong)), "{answer:?}");
    assert_eq!(store.load().unwrap().unwrap().highest_seen, now + 3 * DAY);
}
