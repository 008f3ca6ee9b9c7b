//! Password hashing: argon2id (19 MiB, t=2, p=1, OWASP's recommendation) on a fixed pool of one
//! worker thread per core, so a sign-in flood queues for hashing instead of starving every other
//! request.
//!
//! Each worker keeps its own argon2 memory (19 MiB of blocks) and reuses it for every hash while
//! hashes are queued, so the API's memory is bounded by cores × 19 MiB; once the queue is empty
//! the worker gives those pages back (`memory`). Hashing on tokio's blocking pool instead let glibc
//! keep a 19 MiB arena for every blocking thread that ever hashed: hundreds of MiB under load
//! (`docs/performance.md`).

mod memory;

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{mpsc, Arc, Mutex};

use anyhow::Context;
use argon2::password_hash::{
    rand_core::OsRng, Output, ParamsString, PasswordHash, Salt, SaltString,
};
use argon2::{Algorithm, Argon2, Params, Version};
use tokio::sync::{oneshot, OnceCell};

use memory::Memory;

type Job = Box<dyn FnOnce(&mut Memory) + Send>;

#[derive(Clone)]
pub struct Hasher {
    inner: Arc<Inner>,
}

struct Inner {
    /// Jobs for the workers; they stop when the last `Hasher` clone is dropped.
    jobs: mpsc::Sender<Job>,
    /// Jobs sent and not yet taken by a worker.
    queued: Arc<AtomicUsize>,
    params: Params,
    /// The hash unknown users are verified against, made once with this hasher's parameters.
    dummy: OnceCell<String>,
    #[cfg(test)]
    ran_on: Arc<Mutex<std::collections::BTreeSet<String>>>,
}

impl Hasher {
    pub fn new() -> Self {
        let cores = std::thread::available_parallelism()
            .map(|n| n.get())
            .unwrap_or(2);
        Self::with_workers(
            Params::new(19 * 1024, 2, 1, None).expect("valid argon2 parameters"),
            cores,
        )
    }

    /// Cheaper parameters for tests of other things than hashing.
    pub fn fast_for_tests() -> Self {
        Self::with_workers(
            Params::new(1024, 1, 1, None).expect("valid argon2 parameters"),
            4,
        )
    }

    /// A hasher with `params` for new hashes and `workers` threads.
    pub fn with_workers(params: Params, workers: usize) -> Self {
        let (jobs, queue) = mpsc::channel::<Job>();
        let queue = Arc::new(Mutex::new(queue));
        let queued = Arc::new(AtomicUsize::new(0));
        for n in 0..workers.max(1) {
            let queue = Arc::clone(&queue);
            let queued = Arc::clone(&queued);
            std::thread::Builder::new()
                .name(format!("argon2-{n}"))
                .spawn(move || {
                    // Grown on first use to the largest hash seen, reused while hashes are queued.
                    let mut memory = Memory::new();
                    loop {
                        let job = {
                            let queue = queue.lock().unwrap_or_else(|p| p.into_inner());
                            queue.recv()
                        };
                        let Ok(job) = job else { break };
                        queued.fetch_sub(1, Ordering::SeqCst);
                        // A job that panics drops its answer channel (its caller gets an error);
                        // the worker lives on.
                        let _ = catch_unwind(AssertUnwindSafe(|| job(&mut memory)));
                        // Nothing waiting: the pages go back until the next hash (after the
                        // answer, so no caller waits for it).
                        if queued.load(Ordering::SeqCst) == 0 {
                            memory.release();
                        }
                    }
                })
                .expect("start an argon2 worker thread");
        }
        Hasher {
            inner: Arc::new(Inner {
                jobs,
                queued,
                params,
                dummy: OnceCell::new(),
                #[cfg(test)]
                ran_on: Arc::default(),
            }),
        }
    }

    fn argon2(params: Params) -> Argon2<'static> {
        Argon2::new(Algorithm::Argon2id, Version::V0x13, params)
    }

    /// Runs `work` on a worker with its memory, and waits for it without blocking the runtime.
    async fn run<T: Send + 'static>(
        &self,
        work: impl FnOnce(&mut Memory) -> anyhow::Result<T> + Send + 'static,
    ) -> anyhow::Result<T> {
        let (answer, answered) = oneshot::channel();
        #[cfg(test)]
        let ran_on = Arc::clone(&self.inner.ran_on);
        let job: Job = Box::new(move |memory| {
            // The request went away while queued (client gone, timeout): spend no hash on it.
            if answer.is_closed() {
                return;
            }
            #[cfg(test)]
            ran_on
                .lock()
                .unwrap()
                .insert(std::thread::current().name().unwrap_or("?").to_owned());
            let _ = answer.send(work(memory));
        });
        self.inner.queued.fetch_add(1, Ordering::SeqCst);
        if self.inner.jobs.send(job).is_err() {
            self.inner.queued.fetch_sub(1, Ordering::SeqCst);
            anyhow::bail!("the password hasher has stopped");
        }
        answered.await.context("a password hashing worker failed")?
    }

    pub async fn hash(&self, password: &str) -> anyhow::Result<String> {
        let password = password.to_owned();
        let params = self.inner.params.clone();
        self.run(move |memory| {
            let salt = SaltString::generate(&mut OsRng);
            let argon2 = Self::argon2(params.clone());
            let output_len = params.output_len().unwrap_or(Params::DEFAULT_OUTPUT_LEN);
            let output = compute(
                &argon2,
                password.as_bytes(),
                salt.as_salt(),
                output_len,
                memory,
            )?;
            let hash = PasswordHash {
                algorithm: Algorithm::Argon2id.ident(),
                version: Some(Version::V0x13.into()),
                params: ParamsString::try_from(&params)
                    .map_err(|e| anyhow::anyhow!("argon2 parameters: {e}"))?,
                salt: Some(salt.as_salt()),
                hash: Some(output),
            };
            Ok(hash.to_string())
        })
        .await
    }

    /// A well-formed hash that no known password matches: a random output nobody computed, with
    /// this hasher's parameters, so checking a password against it takes as long as against a real
    /// one. For an account that has no password yet: sign-ups that disagreed
    /// (`closewise_domain::signup`) until the clicker chooses one.
    pub fn unusable_hash(&self) -> anyhow::Result<String> {
        use argon2::password_hash::rand_core::RngCore;
        let params = &self.inner.params;
        let mut output = vec![0u8; params.output_len().unwrap_or(Params::DEFAULT_OUTPUT_LEN)];
        OsRng.fill_bytes(&mut output);
        let salt = SaltString::generate(&mut OsRng);
        let hash = PasswordHash {
            algorithm: Algorithm::Argon2id.ident(),
            version: Some(Version::V0x13.into()),
            params: ParamsString::try_from(params)
                .map_err(|e| anyhow::anyhow!("argon2 parameters: {e}"))?,
            salt: Some(salt.as_salt()),
            hash: Some(Output::new(&output).map_err(|e| anyhow::anyhow!("argon2 output: {e}"))?),
        };
        Ok(hash.to_string())
    }

    /// Verifies against `hash`, or against a fixed dummy hash when the user is unknown, so that
    /// both take the same time.
    pub async fn verify(&self, password: &str, hash: Option<&str>) -> anyhow::Result<bool> {
        let known = hash.is_some();
        let hash = match hash {
            Some(h) => h.to_owned(),
            None => self.dummy_hash().await?,
        };
        let password = password.to_owned();
        let ok = self
            .run(move |memory| {
                let parsed = PasswordHash::new(&hash)
                    .map_err(|e| anyhow::anyhow!("stored hash unreadable: {e}"))?;
                // The parameters come from the stored hash itself.
                let unreadable = |e| anyhow::anyhow!("stored hash unreadable: {e}");
                let algorithm = Algorithm::try_from(parsed.algorithm).map_err(unreadable)?;
                let version = match parsed.version {
                    Some(v) => Version::try_from(v)
                        .map_err(|e| anyhow::anyhow!("stored hash unreadable: {e}"))?,
                    None => Version::default(),
                };
                let params = Params::try_from(&parsed).map_err(unreadable)?;
                let (Some(salt), Some(expected)) = (parsed.salt, parsed.hash) else {
                    anyhow::bail!("stored hash unreadable: no salt or no hash");
                };
                let argon2 = Argon2::new(algorithm, version, params);
                let computed = compute(&argon2, password.as_bytes(), salt, expected.len(), memory)?;
                // `Output`'s equality is constant-time.
                Ok(computed == expected)
            })
            .await?;
        Ok(ok && known)
    }

    /// Made on first use and kept: an unknown e-mail then costs one verification, exactly like a
    /// known one (re-hashing each time would make it take twice as long, telling them apart).
    async fn dummy_hash(&self) -> anyhow::Result<String> {
        self.inner
            .dummy
            .get_or_try_init(|| self.hash("closewise-dummy-password-for-timing"))
            .await
            .cloned()
    }

    #[cfg(test)]
    fn worker_threads(&self) -> Vec<String> {
        self.inner.ran_on.lock().unwrap().iter().cloned().collect()
    }

    #[cfg(test)]
    fn params(&self) -> &Params {
        &self.inner.params
    }
}

/// argon2's raw output for `password` and `salt`, computed in the worker's `memory`.
fn compute(
    argon2: &Argon2<'_>,
    password: &[u8],
    salt: Salt<'_>,
    output_len: usize,
    memory: &mut Memory,
) -> anyhow::Result<Output> {
    let mut salt_bytes = [0u8; Salt::MAX_LENGTH];
    let salt = salt
        .decode_b64(&mut salt_bytes)
        .map_err(|e| anyhow::anyhow!("salt unreadable: {e}"))?;
    let blocks = memory.blocks(argon2.params().block_count());
    Output::init_with(output_len, |out| {
        argon2
            .hash_password_into_with_memory(password, salt, out, &mut *blocks)
            .map_err(Into::into)
    })
    .map_err(|e| anyhow::anyhow!("hashing failed: {e}"))
}

impl Default for Hasher {
    fn default() -> Self {
        Self::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use argon2::{PasswordHasher, PasswordVerifier};

    #[tokio::test]
    async fn a_hash_verifies_its_password_and_no_other() {
        let hasher = Hasher::fast_for_tests();
        let hash = hasher.hash("correct horse").await.unwrap();
        assert!(hash.starts_with("$argon2id$"));
        assert!(hasher.verify("correct horse", Some(&hash)).await.unwrap());
        assert!(!hasher.verify("wrong horse", Some(&hash)).await.unwrap());
    }

    #[tokio::test]
    async fn an_unusable_hash_is_readable_and_matches_no_password() {
        let hasher = Hasher::fast_for_tests();
        let hash = hasher.unusable_hash().unwrap();
        assert!(hash.starts_with("$argon2id$"));
        assert_ne!(hash, hasher.unusable_hash().unwrap(), "random each time");
        for guess in ["", "password", "closewise-dummy-password-for-timing"] {
            assert!(!hasher.verify(guess, Some(&hash)).await.unwrap(), "{guess}");
        }
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

    /// The pool computes the hash itself into its own buffers; what it writes must be argon2's own
    /// PHC string, readable by any argon2 implementation, and it must read theirs.
    #[tokio::test]
    async fn hashes_are_interchangeable_with_the_argon2_crates_own() {
        let hasher = Hasher::fast_for_tests();
        let ours = hasher.hash("correct horse").await.unwrap();
        let parsed = PasswordHash::new(&ours).unwrap();
        assert!(Argon2::default()
            .verify_password(b"correct horse", &parsed)
            .is_ok());
        assert!(Argon2::default()
            .verify_password(b"wrong horse", &parsed)
            .is_err());

        let salt = SaltString::generate(&mut OsRng);
        let theirs = Hasher::argon2(Params::new(1024, 1, 1, None).unwrap())
            .hash_password(b"battery staple", &salt)
            .unwrap()
            .to_string();
        assert!(hasher
            .verify("battery staple", Some(&theirs))
            .await
            .unwrap());
        assert!(!hasher
            .verify("battery stapler", Some(&theirs))
            .await
            .unwrap());
    }

    /// A stored hash made with more memory than the workers have used so far (parameters raised
    /// later, or an imported account) still verifies: the worker's buffer grows to fit it.
    #[tokio::test]
    async fn a_hash_needing_more_memory_than_the_workers_buffer_verifies() {
        let hasher = Hasher::fast_for_tests();
        hasher.hash("warm the buffer up").await.unwrap();
        let salt = SaltString::generate(&mut OsRng);
        let bigger = Hasher::argon2(Params::new(4 * 1024, 1, 1, None).unwrap())
            .hash_password(b"correct horse", &salt)
            .unwrap()
            .to_string();
        assert!(hasher.verify("correct horse", Some(&bigger)).await.unwrap());
        assert!(!hasher.verify("wrong horse", Some(&bigger)).await.unwrap());
    }

    #[tokio::test]
    async fn an_unreadable_stored_hash_is_an_error_not_a_match() {
        let hasher = Hasher::fast_for_tests();
        assert!(hasher
            .verify("anything", Some("not-a-phc-string"))
            .await
            .is_err());
        assert!(hasher
            .verify(
                "anything",
                Some("$argon2id$v=19$m=1024,t=1,p=1$c2FsdHNhbHQ$")
            )
            .await
            .is_err());
    }

    /// Memory stays bounded: one worker thread per core, each with its own reused buffer, whatever
    /// the number of requests waiting (the tokio blocking pool would grow to hundreds of threads,
    /// each keeping a 19 MiB arena).
    #[tokio::test]
    async fn many_concurrent_hashes_share_a_fixed_set_of_workers() {
        let hasher = Hasher::with_workers(Params::new(1024, 1, 1, None).unwrap(), 2);
        let jobs: Vec<_> = (0..16)
            .map(|i| {
                let hasher = hasher.clone();
                tokio::spawn(async move { hasher.hash(&format!("password {i}")).await })
            })
            .collect();
        for job in jobs {
            job.await.unwrap().unwrap();
        }
        let threads = hasher.worker_threads();
        assert!(
            threads.len() <= 2 && !threads.is_empty(),
            "16 hashes ran on {threads:?}"
        );
    }

    /// Between sign-ins the workers' argon2 memory does not stay resident (it was 38 MiB of the
    /// API's 64 on two cores): it goes back once no hash is queued, and hashing goes on after.
    #[cfg(target_os = "linux")]
    #[tokio::test]
    async fn idle_workers_give_their_hashing_memory_back() {
        let _alone = memory::MEASURING.lock().await;
        let hasher = Hasher::with_workers(Params::new(64 * 1024, 1, 1, None).unwrap(), 1);
        let before = memory::rss_anon_kib();
        let hash = hasher.hash("correct horse").await.unwrap();
        let mut after = memory::rss_anon_kib();
        for _ in 0..50 {
            if after < before + 16 * 1024 {
                break;
            }
            tokio::time::sleep(std::time::Duration::from_millis(100)).await;
            after = memory::rss_anon_kib();
        }
        assert!(
            after < before + 16 * 1024,
            "a 64 MiB hash done: {before} KiB resident before, {after} KiB after"
        );
        assert!(hasher.verify("correct horse", Some(&hash)).await.unwrap());
        assert!(!hasher.verify("wrong horse", Some(&hash)).await.unwrap());
    }

    #[test]
    fn production_parameters_are_owasps() {
        let h = Hasher::new();
        assert_eq!(
            (
                h.params().m_cost(),
                h.params().t_cost(),
                h.params().p_cost()
            ),
            (19 * 1024, 2, 1)
        );
    }
}
