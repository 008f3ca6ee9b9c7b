//! Recovery codes at rest, on both databases: stored as an HMAC under a key derived from
//! `MFA_ENCRYPTION_KEY` (never the plain SHA-256 of the code), so a copied table is of no use to
//! another deployment; codes stored as SHA-256 before still work once and are rekeyed on use.

use closewise_core::mail::{Composer, Template};
use closewise_core::mfa::{Mfa, MfaError, Passed, SecretBox};
use closewise_domain::email::Email;
use closewise_domain::mfa::{recovery, totp};
use closewise_domain::password::Password;
use closewise_testkit::services::{core_fixture, CoreFixture};
use closewise_testkit::{both, Backend};
use sha2::{Digest, Sha256};
use uuid::Uuid;

const EMAIL: &str = "ana@example.com";

fn composer() -> Composer {
    Composer::new("http://127.0.0.1:8080")
}

fn mfa(core: &CoreFixture, key: u8) -> Mfa {
    Mfa::new(
        core.store.clone(),
        core.clock.clone(),
        SecretBox::new(&[key; 32]),
        composer(),
    )
}

fn sha256(code: &str) -> String {
    hex::encode(Sha256::digest(
        recovery::normalize(code).unwrap().as_bytes(),
    ))
}

/// Signs ana up and confirms an authenticator app under `mfa`: her id and recovery codes.
async fn enrolled(core: &CoreFixture, mfa: &Mfa) -> (Uuid, Vec<String>) {
    let accounts = closewise_core::accounts::Accounts::new(
        core.store.clone(),
        core.billing.clone(),
        closewise_core::password::Hasher::fast_for_tests(),
        composer(),
        core.clock.clone(),
        mfa.clone(),
    );
    let email = Email::parse(EMAIL).unwrap();
    let password = Password::parse("a long pass phrase 1").unwrap();
    accounts.sign_up(&email, &password, None).await.unwrap();
    let user_id = core.store.user_by_email(EMAIL).await.unwrap().unwrap().id;
    let enrolment = mfa.begin_totp(user_id).await.unwrap();
    let secret = totp::base32_decode(&enrolment.secret).unwrap();
    let code = totp::code_at(&secret, totp::time_step(core.clock.now()));
    let codes = mfa
        .confirm_totp(user_id, Uuid::now_v7(), &code)
        .await
        .unwrap();
    (user_id, codes)
}

async fn stored_hashes(url: &str) -> Vec<String> {
    use sqlx::Connection;
    let sql = "SELECT code_hash FROM mfa_recovery_codes ORDER BY code_hash";
    if url.starts_with("postgres") {
        let mut c = sqlx::PgConnection::connect(url).await.unwrap();
        sqlx::query_scalar(sql).fetch_all(&mut c).await.unwrap()
    } else {
        let mut c = sqlx::SqliteConnection::connect(url).await.unwrap();
        sqlx::query_scalar(sql).fetch_all(&mut c).await.unwrap()
    }
}

async fn check(mfa: &Mfa, user_id: Uuid, code: &str) -> Result<Passed, MfaError> {
    mfa.check_code(user_id, EMAIL, code, false).await
}

both!(
    async fn codes_are_keyed_by_the_server_and_useless_to_another_deployment(backend: Backend) {
        let core = core_fixture(backend, "recovery_keyed").await;
        let ours = mfa(&core, 7);
        let (user_id, codes) = enrolled(&core, &ours).await;
        let stored = stored_hashes(&core.url).await;
        assert_eq!(stored.len(), recovery::COUNT);
        for code in &codes {
            let plain = sha256(code);
            assert!(
                stored.iter().all(|h| !h.contains(&plain)),
                "{code} is stored as its plain SHA-256: {stored:?}"
            );
        }
        // Another deployment (another key) reading the same rows accepts none of the codes.
        let theirs = mfa(&core, 8);
        for code in &codes[..3] {
            assert!(matches!(
                check(&theirs, user_id, code).await,
                Err(MfaError::InvalidCode)
            ));
        }
        assert_eq!(
            stored_hashes(&core.url).await,
            stored,
            "a foreign key rewrites nothing"
        );
        // Ours still does, once.
        assert!(matches!(
            check(&ours, user_id, &codes[0]).await,
            Ok(Passed::RecoveryCode)
        ));
        assert!(matches!(
            check(&ours, user_id, &codes[0]).await,
            Err(MfaError::InvalidCode)
        ));
    }
);

both!(
    async fn codes_stored_as_plain_sha256_still_work_once_and_are_rekeyed(backend: Backend) {
        let core = core_fixture(backend, "recovery_legacy").await;
        let ours = mfa(&core, 7);
        let (user_id, _) = enrolled(&core, &ours).await;
        // A set written before the codes were keyed: their plain SHA-256.
        let legacy = ["abcde-fghjk", "23456-789mn", "pqrst-uvwxy"];
        let now = core.clock.now();
        let mail = composer().compose(EMAIL, Template::MfaRecoveryCodesGenerated, now);
        let hashes: Vec<String> = legacy.iter().map(|c| sha256(c)).collect();
        core.store
            .replace_recovery_codes(user_id, &hashes, &mail, now)
            .await
            .unwrap();

        assert!(matches!(
            check(&ours, user_id, legacy[0]).await,
            Ok(Passed::RecoveryCode)
        ));
        assert!(matches!(
            check(&ours, user_id, legacy[0]).await,
            Err(MfaError::InvalidCode)
        ));
        // The others were rekeyed by that check: no plain SHA-256 is left, and they still work.
        let stored = stored_hashes(&core.url).await;
        assert_eq!(stored.len(), 3);
        for h in &hashes {
            assert!(stored.iter().all(|s| !s.contains(h.as_str())), "{stored:?}");
        }
        assert!(matches!(
            check(&ours, user_id, legacy[1]).await,
            Ok(Passed::RecoveryCode)
        ));
        // Rekeyed under our key only: another deployment's key does not open them.
        assert!(matches!(
            check(&mfa(&core, 8), user_id, legacy[2]).await,
            Err(MfaError::InvalidCode)
        ));
        assert!(matches!(
            check(&ours, user_id, legacy[2]).await,
            Ok(Passed::RecoveryCode)
        ));
    }
);
