//! Password hashing: argon2id with 9 MiB, t=4 and one lane, one hash at a time per core on the
//! hasher's own threads, so a sign-in flood queues for hashing instead of starving every other
//! request.
//!
//! OWASP lists equally strong argon2id configurations that trade memory for passes: 19 MiB with
//! t=2, 12 MiB with t=3, 9 MiB with t=4 (all p=1). The API uses 9 MiB and t=4: one worker per core
//! holds 18 MiB on two cores, less than one 19 MiB buffer, and each hash runs on its own core
//! without waiting on another thread (two lanes of a 19 MiB hash computed side by side would keep
//! the memory down too, but each lane waits for its partner at every slice, and the sign-in
//! rate falls wherever the database shares the cores). Hashes stored with other parameters (19 MiB
//! with p=1 or p=2) verify with their own and are re-hashed with these
//! at the next sign-in (`is_outdated`).
//!
//! Each worker keeps its own argon2 memory and reuses it for every hash while hashes are queued,
//! so the API's memory is bounded by workers × 9 MiB (more only while older, bigger hashes are
//! verified); once the queue is empty the worker gives those pages back (`memory`). Hashing on
//! tokio's blocking pool instead let glibc keep an arena for every blocking thread that ever
//! hashed: hundreds of MiB under load (`docs/performance.md`).

mod memory;

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{mpsc, Arc, Mutex};

use anyhow::Context;
use argon2::password_hash::phc::{Output, ParamsString, PasswordHash, Salt};
use argon2::{Algorithm, Argon2, Params, Version};
use rand::RngCore;
use tokio::sync::{oneshot, OnceCell};

use memory::Memory;

type Job = Box<dyn FnOnce(&mut Memory) + Send>;

/// A new hash's memory in KiB, passes and lanes: OWASP's 9 MiB, t=4, p=1.
pub const MEMORY_KIB: u32 = 9 * 1024;
pub const PASSES: u32 = 4;
pub const LANES: u32 = 1;

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
    #[cfg(test)]
    workers: usize,
    /// The hash unknown users are verified against, made once with this hasher's parameters.
    dummy: OnceCell<String>,
    #[cfg(test)]
    ran_on: Arc<Mutex<std::collections::BTreeSet<String>>>,
    /// The lane threads' kernel thread ids, to read their CPU time.
    #[cfg(all(test, target_os = "linux"))]
    lane_tids: Arc<Mutex<Vec<i32>>>,
}

impl Hasher {
    /// OWASP's 9 MiB and four passes in one lane (see the module's documentation), one worker per
    /// core.
    pub fn new() -> Self {
        let cores = std::thread::available_parallelism()
            .map(|n| n.get())
            .unwrap_or(2);
        Self::with_workers(
            Params::new(MEMORY_KIB, PASSES, LANES, None).expect("valid argon2 parameters"),
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

    /// A hasher with `params` for new hashes and `workers` threads taking hashes from the queue,
    /// each computing its hash's lanes at once on a shared pool of `workers × lanes` threads (a
    /// stored hash with more lanes than `params` shares them).
    pub fn with_workers(params: Params, workers: usize) -> Self {
        let workers = workers.max(1);
        let lane_threads = workers * params.p_cost() as usize;
        let builder = rayon::ThreadPoolBuilder::new()
            .num_threads(lane_threads)
            .thread_name(|n| format!("argon2-lane-{n}"));
        #[cfg(all(test, target_os = "linux"))]
        let lane_tids = Arc::new(Mutex::new(Vec::new()));
        #[cfg(all(test, target_os = "linux"))]
        let builder = {
            let lane_tids = Arc::clone(&lane_tids);
            // SAFETY: gettid has no preconditions.
            builder
                .start_handler(move |_| lane_tids.lock().unwrap().push(unsafe { libc::gettid() }))
        };
        let lanes = Arc::new(builder.build().expect("start the argon2 lane threads"));
        let (jobs, queue) = mpsc::channel::<Job>();
        let queue = Arc::new(Mutex::new(queue));
        let queued = Arc::new(AtomicUsize::new(0));
        for n in 0..workers {
            let queue = Arc::clone(&queue);
            let queued = Arc::clone(&queued);
            let lanes = Arc::clone(&lanes);
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
                        // the worker lives on. Its lanes run on the lane threads.
                        let _ =
                            catch_unwind(AssertUnwindSafe(|| lanes.install(|| job(&mut memory))));
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
                #[cfg(test)]
                workers,
                dummy: OnceCell::new(),
                #[cfg(test)]
                ran_on: Arc::default(),
                #[cfg(all(test, target_os = "linux"))]
                lane_tids,
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
            let salt = Salt::generate();
            let argon2 = Self::argon2(params.clone());
            let output_len = params.output_len().unwrap_or(Params::DEFAULT_OUTPUT_LEN);
            let output = compute(&argon2, password.as_bytes(), &salt, output_len, memory)?;
            phc_string(&params, salt, output)
        })
        .await
    }

    /// A well-formed hash that no known password matches: a random output nobody computed, with
    /// this hasher's parameters, so checking a password against it takes as long as against a real
    /// one. For an account that has no password yet: sign-ups that disagreed
    /// (`closewise_domain::signup`) until the clicker chooses one.
    pub fn unusable_hash(&self) -> anyhow::Result<String> {
        let params = &self.inner.params;
        let mut output = vec![0u8; params.output_len().unwrap_or(Params::DEFAULT_OUTPUT_LEN)];
        rand::rngs::OsRng.fill_bytes(&mut output);
        let output = Output::new(&output).map_err(|e| anyhow::anyhow!("argon2 output: {e}"))?;
        phc_string(params, Salt::generate(), output)
    }

    /// Whether `stored` was made with other parameters than this hasher's (or cannot be read):
    /// after a successful sign-in it is worth hashing the password again.
    pub fn is_outdated(&self, stored: &str) -> bool {
        let Ok(parsed) = PasswordHash::new(stored) else {
            return true;
        };
        let current = &self.inner.params;
        let same = parsed.algorithm.as_str() == Algorithm::Argon2id.as_str()
            && parsed.version == Some(Version::V0x13.into())
            && Params::try_from(&parsed).is_ok_and(|p| {
                (p.m_cost(), p.t_cost(), p.p_cost())
                    == (current.m_cost(), current.t_cost(), current.p_cost())
            });
        !same
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
                let algorithm =
                    Algorithm::try_from(parsed.algorithm.as_str()).map_err(unreadable)?;
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
                let computed =
                    compute(&argon2, password.as_bytes(), &salt, expected.len(), memory)?;
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

    #[cfg(test)]
    fn workers(&self) -> usize {
        self.inner.workers
    }
}

/// The PHC string of an argon2id hash made with `params`.
fn phc_string(params: &Params, salt: Salt, output: Output) -> anyhow::Result<String> {
    let hash = PasswordHash {
        algorithm: Algorithm::Argon2id.ident(),
        version: Some(Version::V0x13.into()),
        params: ParamsString::try_from(params)
            .map_err(|e| anyhow::anyhow!("argon2 parameters: {e}"))?,
        salt: Some(salt),
        hash: Some(output),
    };
    Ok(hash.to_string())
}

/// argon2's raw output for `password` and `salt`, computed in the worker's `memory` (its lanes on
/// the lane threads: the caller runs inside their pool).
fn compute(
    argon2: &Argon2<'_>,
    password: &[u8],
    salt: &[u8],
    output_len: usize,
    memory: &mut Memory,
) -> anyhow::Result<Output> {
    let blocks = memory.blocks(argon2.params().block_count());
    let mut out = [0u8; Output::MAX_LENGTH];
    let out = out
        .get_mut(..output_len)
        .ok_or_else(|| anyhow::anyhow!("hashing failed: output of {output_len} bytes"))?;
    argon2
        .hash_password_into_with_memory(password, salt, out, &mut *blocks)
        .map_err(|e| anyhow::anyhow!("hashing failed: {e}"))?;
    Output::new(out).map_err(|e| anyhow::anyhow!("hashing failed: {e}"))
}

impl Default for Hasher {
    fn default() -> Self {
        Self::new()
    }
}

#[cfg(test)]
mod tests;
