use super::*;

fn cache(capacity: usize) -> ReadCache<String> {
    ReadCache::new(capacity, None, true)
}

#[test]
fn a_value_is_kept_per_user() {
    let c = cache(10);
    let (ana, bo) = (Uuid::new_v4(), Uuid::new_v4());
    assert!(c.insert(ana, "ana's plan".into(), c.generation()));
    assert_eq!(c.get(ana).as_deref(), Some("ana's plan"));
    assert_eq!(c.get(bo), None);
}

#[test]
fn an_entry_lives_at_most_max_age() {
    let c = ReadCache::new(10, Some(Duration::from_millis(50)), true);
    let u = Uuid::new_v4();
    c.insert(u, 1, 0);
    assert_eq!(c.get(u), Some(1));
    std::thread::sleep(Duration::from_millis(60));
    assert_eq!(c.get(u), None);
    assert!(c.is_empty());
}

#[test]
fn the_size_is_bounded_and_the_oldest_goes_first() {
    let c = cache(3);
    let users: Vec<Uuid> = (0..5).map(|_| Uuid::new_v4()).collect();
    for u in &users {
        c.insert(*u, u.to_string(), c.generation());
        assert!(c.len() <= 3);
    }
    assert_eq!(c.get(users[0]), None);
    assert_eq!(c.get(users[1]), None);
    for u in &users[2..] {
        assert!(c.get(*u).is_some());
    }
    // Churn on the same users never grows the bookkeeping past its bound.
    for i in 0..1_000 {
        c.insert(users[i % 5], i.to_string(), c.generation());
    }
    assert!(c.len() <= 3);
    assert!(c.lock().order.len() <= 6);
}

#[test]
fn a_users_change_drops_only_their_value_and_a_team_change_drops_all() {
    let c = cache(10);
    let (ana, bo) = (Uuid::new_v4(), Uuid::new_v4());
    c.insert(ana, "a".into(), 0);
    c.insert(bo, "b".into(), 0);
    c.revoke(&Revoked::Reads(ana));
    assert_eq!(c.get(ana), None);
    assert!(c.get(bo).is_some(), "another user's stays");
    c.insert(ana, "a".into(), c.generation());
    c.revoke(&Revoked::User(ana));
    assert_eq!(c.get(ana), None, "a revoked user's reads go too");
    let before = c.generation();
    c.revoke(&Revoked::Session {
        session_id: Uuid::new_v4(),
        user_id: bo,
    });
    assert!(c.get(bo).is_some(), "one session ending changes no read");
    assert_eq!(c.generation(), before);
    c.insert(ana, "a".into(), c.generation());
    c.revoke(&Revoked::AllReads);
    assert!(c.is_empty());
}

#[test]
fn a_load_that_began_before_a_change_does_not_fill_the_cache() {
    let c = cache(10);
    let u = Uuid::new_v4();
    let before = c.generation();
    c.revoke(&Revoked::Reads(u));
    assert!(!c.insert(u, "old".into(), before));
    assert_eq!(c.get(u), None);
}

#[test]
fn a_suspended_cache_is_empty_and_bypassed_until_resumed() {
    let c = cache(10);
    let u = Uuid::new_v4();
    c.insert(u, "v".into(), 0);
    let before = c.generation();
    c.suspend();
    assert!(c.is_empty());
    assert!(!c.insert(u, "v".into(), c.generation()));
    c.resume();
    assert_eq!(c.get(u), None, "nothing survives a suspension");
    assert!(
        !c.insert(u, "v".into(), before),
        "nor a load from before it"
    );
    assert!(c.insert(u, "v".into(), c.generation()));
    assert!(c.get(u).is_some());
}

#[tokio::test]
async fn get_or_load_loads_once_and_then_answers_from_the_cache() {
    let c = cache(10);
    let u = Uuid::new_v4();
    let loads = std::sync::atomic::AtomicU32::new(0);
    for _ in 0..3 {
        let v = c
            .get_or_load(u, || async {
                loads.fetch_add(1, Ordering::SeqCst);
                Ok::<_, ()>("loaded".to_owned())
            })
            .await;
        assert_eq!(v.as_deref(), Ok("loaded"));
    }
    assert_eq!(loads.load(Ordering::SeqCst), 1);
    c.revoke(&Revoked::Reads(u));
    let _ = c
        .get_or_load(u, || async { Ok::<_, ()>("again".to_owned()) })
        .await;
    assert_eq!(c.get(u).as_deref(), Some("again"));
    let failed: Result<String, &str> = c
        .get_or_load(Uuid::new_v4(), || async { Err("down") })
        .await;
    assert_eq!(failed, Err("down"));
}
