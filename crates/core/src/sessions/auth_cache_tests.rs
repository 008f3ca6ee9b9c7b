use super::*;
use uuid::Uuid;

fn user(user_id: Uuid, session_id: Uuid) -> AuthUser {
    AuthUser {
        user_id,
        session_id,
        email: "ana@example.com".into(),
        email_verified: true,
    }
}

const NOW: i64 = 1_800_000_000;

#[test]
fn a_token_is_keyed_by_its_sha256() {
    let key = AuthCache::key("header.payload.signature");
    assert_eq!(
        hex::encode(key),
        hex::encode(Sha256::digest(b"header.payload.signature"))
    );
    assert_ne!(key, AuthCache::key("header.payload.signaturf"));
    let cache = AuthCache::new(10, None, true);
    let (u, s) = (Uuid::new_v4(), Uuid::new_v4());
    assert!(cache.insert(key, user(u, s), NOW + 60, cache.generation()));
    assert_eq!(cache.get(&key, NOW).map(|a| a.session_id), Some(s));
    assert!(cache.get(&AuthCache::key("another"), NOW).is_none());
}

#[test]
fn an_entry_dies_at_the_tokens_exp() {
    let cache = AuthCache::new(10, None, true);
    let key = AuthCache::key("t");
    cache.insert(key, user(Uuid::new_v4(), Uuid::new_v4()), NOW + 60, 0);
    assert!(cache.get(&key, NOW + 59).is_some());
    assert!(
        cache.get(&key, NOW + 60).is_none(),
        "exp itself is too late"
    );
    assert!(cache.get(&key, NOW).is_none(), "and it is gone for good");
    assert!(cache.is_empty());
}

#[test]
fn an_entry_lives_at_most_max_age() {
    let cache = AuthCache::new(10, Some(Duration::from_millis(50)), true);
    let key = AuthCache::key("t");
    cache.insert(key, user(Uuid::new_v4(), Uuid::new_v4()), NOW + 600, 0);
    assert!(cache.get(&key, NOW).is_some());
    std::thread::sleep(Duration::from_millis(60));
    assert!(cache.get(&key, NOW).is_none());
}

#[test]
fn the_size_is_bounded_and_the_oldest_goes_first() {
    let cache = AuthCache::new(3, None, true);
    let keys: Vec<Key> = (0..5).map(|i| AuthCache::key(&format!("t{i}"))).collect();
    for k in &keys {
        cache.insert(*k, user(Uuid::new_v4(), Uuid::new_v4()), NOW + 60, 0);
        assert!(cache.len() <= 3);
    }
    assert!(cache.get(&keys[0], NOW).is_none());
    assert!(cache.get(&keys[1], NOW).is_none());
    for k in &keys[2..] {
        assert!(cache.get(k, NOW).is_some());
    }
    // Churn never grows the bookkeeping past its bound either.
    for i in 0..1_000 {
        let k = AuthCache::key(&format!("churn{i}"));
        cache.insert(
            k,
            user(Uuid::new_v4(), Uuid::new_v4()),
            NOW + 60,
            cache.generation(),
        );
        cache.revoke(&Revoked::User(Uuid::new_v4()));
    }
    assert!(cache.len() <= 3);
    assert!(cache.lock().order.len() <= 6);
}

#[test]
fn a_revocation_drops_the_session_or_every_session_of_the_user() {
    let cache = AuthCache::new(10, None, true);
    let (ana, bob) = (Uuid::new_v4(), Uuid::new_v4());
    let (s1, s2, s3) = (Uuid::new_v4(), Uuid::new_v4(), Uuid::new_v4());
    let [k1, k2, k3] = ["a1", "a2", "b1"].map(AuthCache::key);
    cache.insert(k1, user(ana, s1), NOW + 60, 0);
    cache.insert(k2, user(ana, s2), NOW + 60, 0);
    cache.insert(k3, user(bob, s3), NOW + 60, 0);
    cache.revoke(&Revoked::Session {
        session_id: s1,
        user_id: ana,
    });
    assert!(cache.get(&k1, NOW).is_none());
    assert!(cache.get(&k2, NOW).is_some());
    cache.revoke(&Revoked::User(ana));
    assert!(cache.get(&k2, NOW).is_none());
    assert!(cache.get(&k3, NOW).is_some(), "another user's stays");
}

#[test]
fn a_check_that_began_before_a_revocation_does_not_fill_the_cache() {
    let cache = AuthCache::new(10, None, true);
    let (u, s) = (Uuid::new_v4(), Uuid::new_v4());
    let before = cache.generation();
    cache.revoke(&Revoked::Session {
        session_id: s,
        user_id: u,
    });
    assert!(!cache.insert(AuthCache::key("t"), user(u, s), NOW + 60, before));
    assert!(cache.get(&AuthCache::key("t"), NOW).is_none());
}

#[test]
fn a_suspended_cache_is_empty_and_bypassed_until_resumed() {
    let cache = AuthCache::new(10, None, true);
    let key = AuthCache::key("t");
    let u = user(Uuid::new_v4(), Uuid::new_v4());
    cache.insert(key, u.clone(), NOW + 60, 0);
    let before = cache.generation();
    cache.suspend();
    assert!(cache.is_empty());
    assert!(!cache.insert(key, u.clone(), NOW + 60, cache.generation()));
    cache.resume();
    assert!(
        cache.get(&key, NOW).is_none(),
        "nothing survives a suspension"
    );
    assert!(
        !cache.insert(key, u.clone(), NOW + 60, before),
        "nor a check from before it"
    );
    assert!(cache.insert(key, u, NOW + 60, cache.generation()));
    assert!(cache.get(&key, NOW).is_some());
}
