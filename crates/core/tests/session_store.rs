//! `Store::create_session` on both databases: the session and its first refresh token are written
//! together or not at all (on PostgreSQL one statement, on SQLite one transaction).

use closewise_core::store::sessions::NewSession;
use closewise_core::store::Store;
use closewise_domain::email::Email;
use closewise_domain::password::Password;
use closewise_testkit::services::core_fixture;
use closewise_testkit::{both, Backend};
use uuid::Uuid;

fn session<'a>(user_id: Uuid, hash: &'a str, now: time::OffsetDateTime) -> NewSession<'a> {
    NewSession {
        id: Uuid::now_v7(),
        user_id,
        refresh_id: Uuid::now_v7(),
        refresh_hash: hash,
        refresh_expires_at: now + time::Duration::days(30),
        user_agent: Some("test agent"),
        ip: Some("127.0.0.1"),
        password_entered: true,
        now,
    }
}

async fn user(store: &Store, core: &closewise_testkit::services::CoreFixture) -> Uuid {
    let accounts = closewise_core::accounts::Accounts::new(
        store.clone(),
        core.billing.clone(),
        closewise_core::password::Hasher::fast_for_tests(),
        closewise_core::mail::Composer::new("http://127.0.0.1:8080"),
        core.clock.clone(),
        closewise_core::mfa::Mfa::new(
            store.clone(),
            core.clock.clone(),
            closewise_core::mfa::SecretBox::new(&[7; 32]),
            closewise_core::mail::Composer::new("http://127.0.0.1:8080"),
        ),
    );
    let email = Email::parse("ana@example.com").unwrap();
    let password = Password::parse("a long pass phrase 1").unwrap();
    accounts.sign_up(&email, &password, None).await.unwrap();
    store
        .user_by_email(email.as_str())
        .await
        .unwrap()
        .unwrap()
        .id
}

both!(
    async fn writes_the_session_and_its_token_together(backend: Backend) {
        let core = core_fixture(backend, "session_store").await;
        let store = core.store.clone();
        let user_id = user(&store, &core).await;
        let now = core.clock.now();

        let first = session(user_id, "hash-one", now);
        store.create_session(&first).await.unwrap();
        let sessions = store.sessions_of(user_id).await.unwrap();
        assert_eq!(sessions.len(), 1);
        let s = &sessions[0];
        assert_eq!(s.id, first.id);
        assert_eq!((s.created_at, s.refreshed_at), (now, now));
        assert_eq!(s.user_agent.as_deref(), Some("test agent"));
        assert_eq!(s.ip.as_deref(), Some("127.0.0.1"));
        let token = store.refresh_token_by_hash("hash-one").await.unwrap();
        let token = token.expect("the refresh token is written with its session");
        assert_eq!((token.id, token.session_id), (first.refresh_id, first.id));
        assert_eq!(token.expires_at, first.refresh_expires_at);
        assert!(token.is_live(now));

        // The refresh token cannot be written (its hash is taken): no session is left without one.
        let second = session(user_id, "hash-one", now);
        assert!(store.create_session(&second).await.is_err());
        let ids: Vec<Uuid> = store
            .sessions_of(user_id)
            .await
            .unwrap()
            .iter()
            .map(|s| s.id)
            .collect();
        assert_eq!(ids, vec![first.id], "nothing of the failed session is kept");
    }
);
