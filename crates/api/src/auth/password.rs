//! Password hashing: argon2id (19 MiB, t=2, p=1, OWASP's recommendation), run on the blocking
//! pool and bounded by a semaphore sized to the machine, so a sign-in flood queues for hashing
//! instead of starving every other request.

use std::sync::Arc;

use anyhow::Context;
use argon2::password_hash::{
    rand_core::OsRng, PasswordHash, PasswordHasher, PasswordVerifier, SaltString,
};
use argon2::{Algorithm, Argon2, Params, Version};
use tokio::sync::{OnceCell, Semaphore};

#[derive(Clone)]
pub struct Hasher {
    permits: Arc<Semaphore>,
    params: Params,
    /// The hash unknown users are verified against, made once with this hasher's parameters.
    dummy: Arc<OnceCell<String>>,
}

impl Hasher {
    pub fn new() -> Self {
        let cores = std::thread::available_parallelism()
            .map(|n| n.get())
            .unwrap_or(2);
        Hasher {
            permits: Arc::new(Semaphore::new(cores)),
            params: Params::new(19 * 1024, 2, 1, None).expect("valid argon2 parameters"),
            dummy: Arc::default(),
        }
    }

    /// Cheaper parameters for tests of other things than hashing.
    pub fn fast_for_tests() -> Self {
        Hasher {
            permits: Arc::new(Semaphore::new(4)),
            params: Params::new(1024, 1, 1, None).expect("valid argon2 parameters"),
            dummy: Arc::default(),
        }
    }

    fn argon2(params: Params) -> Argon2<'static> {
        Argon2::new(Algorithm::Argon2id, Version::V0x13, params)
    }

    pub async fn hash(&self, password: &str) -> anyhow::Result<String> {
        let _permit = self.permits.acquire().await.context("hasher closed")?;
        let password = password.to_owned();
        let params = self.params.clone();
        tokio::task::spawn_blocking(move || {
            let salt = SaltString::generate(&mut OsRng);
            Self::argon2(params)
                .hash_password(password.as_bytes(), &salt)
                .map(|h| h.to_string())
                .map_err(|e| anyhow::anyhow!("hashing failed: {e}"))
        })
        .await
        .context("hashing task failed")?
    }

    /// Verifies against `hash`, or against a fixed dummy hash when the user is unknown, so that
    /// both take the same time.
    pub async fn verify(&self, password: &str, hash: Option<&str>) -> anyhow::Result<bool> {
        let known = hash.is_some();
        let hash = match hash {
            Some(h) => h.to_owned(),
            None => self.dummy_hash().await?,
        };
        let _permit = self.permits.acquire().await.context("hasher closed")?;
        let password = password.to_owned();
        let ok = tokio::task::spawn_blocking(move || {
            let parsed = PasswordHash::new(&hash)
                .map_err(|e| anyhow::anyhow!("stored hash unreadable: {e}"))?;
            // The parameters come from the stored hash itself.
            Ok::<_, anyhow::Error>(
                Argon2::default()
                    .verify_password(password.as_bytes(), &parsed)
                    .is_ok(),
            )
        })
        .await
        .context("verification task failed")??;
        Ok(ok && known)
    }

    /// Made on first use and kept: an unknown e-mail then costs one verification, exactly like a
    /// known one (re-hashing each time would make it take twice as long, telling them apart).
    async fn dummy_hash(&self) -> anyhow::Result<String> {
        self.dummy
            .get_or_try_init(|| self.hash("closewise-dummy-password-for-timing"))
            .await
            .cloned()
    }
}

impl Default for Hasher {
    fn default() -> Self {
        Self::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_hash_verifies_its_password_and_no_other() {
        let hasher = Hasher::fast_for_tests();
        let hash = hasher.hash("correct horse").await.unwrap();
        assert!(hash.starts_with("$argon2id$"));
        assert!(hasher.verify("correct horse", Some(&hash)).await.unwrap());
        assert!(!hasher.verify("wrong horse", Some(&hash)).await.unwrap());
    }

    #[tokio::test]
    async fn an_unknown_user_never_verifies() {
        let hasher = Hasher::fast_for_tests();
        assert!(!hasher
            .verify("closewise-dummy-password-for-timing", None)
            .await
            .unwrap());
    }

    #[tokio::test]
    async fn the_dummy_hash_is_made_once_with_the_hashers_parameters() {
        let hasher = Hasher::fast_for_tests();
        let first = hasher.dummy_hash().await.unwrap();
        assert_eq!(
            hasher.dummy_hash().await.unwrap(),
            first,
            "not re-hashed per call"
        );
        let parsed = PasswordHash::new(&first).unwrap();
        let params = Params::try_from(&parsed).unwrap();
        assert_eq!(
            (params.m_cost(), params.t_cost(), params.p_cost()),
            (1024, 1, 1)
        );
    }

    #[test]
    fn production_parameters_are_owasps() {
        let h = Hasher::new();
        assert_eq!(
            (h.params.m_cost(), h.params.t_cost(), h.params.p_cost()),
            (19 * 1024, 2, 1)
        );
    }
}
