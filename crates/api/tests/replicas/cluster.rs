//! The replica suite's topology as plain processes: two `closewise-api` binaries on one fresh
//! PostgreSQL database, stripe-mock in the test process, and a round-robin TCP proxy in front
//! (a new connection goes to the next replica that accepts it, as a load balancer's would).

use std::net::{Ipv4Addr, SocketAddr};
use std::process::Stdio;
use std::sync::atomic::{AtomicU32, AtomicU64, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

use closewise_api::config::{DEV_STRIPE_SECRET_KEY, DEV_STRIPE_WEBHOOK_SECRET};
use closewise_core::billing::signature::sign;
use closewise_core::mfa::SecretBox;
use closewise_core::sessions::tokens::Keys;
use closewise_core::store::Store;
use reqwest::StatusCode;
use serde_json::Value;
use sqlx::Connection;
use stripe_mock::MockHandle;
use tokio::net::{TcpListener, TcpStream};
use tokio::process::{Child, Command};

use crate::support::{bounded, TempDir};

pub const NAMES: [&str; 2] = ["replica-a", "replica-b"];
pub const BASE: &str = "http://127.0.0.1:8080";

pub fn free_port() -> u16 {
    free_port_on(Ipv4Addr::LOCALHOST)
}

/// A port free on `ip` now. It is released before the caller binds it, so another test binding
/// port 0 on the same address could take it first: the replicas therefore listen on a loopback
/// address of their own cluster ([`cluster_ip`]), where nothing else binds.
pub fn free_port_on(ip: Ipv4Addr) -> u16 {
    std::net::TcpListener::bind((ip, 0))
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// A loopback address (127.0.0.0/8 all reaches `lo`) no other cluster of this run or of another
/// test process uses. Before it, a parallel test's proxy once took a port picked for a replica
/// and the replica's requests were counted by the wrong cluster.
pub fn cluster_ip() -> Ipv4Addr {
    static NEXT: AtomicU32 = AtomicU32::new(0);
    let n = NEXT.fetch_add(1, Ordering::Relaxed);
    let pid = std::process::id();
    Ipv4Addr::new(
        127,
        100 + (pid % 100) as u8,
        (n / 250) as u8,
        (n % 250 + 2) as u8,
    )
}

pub struct Cluster {
    pub database_url: String,
    pub dir: TempDir,
    pub mock: MockHandle,
    /// The replicas' own loopback address ([`cluster_ip`]) and ports.
    pub ip: Ipv4Addr,
    pub ports: [u16; 2],
    children: [Option<Child>; 2],
    env: Vec<(String, String)>,
    pub proxy: SocketAddr,
    /// Connections the proxy handed to each replica.
    pub served: Arc<[AtomicU64; 2]>,
    proxy_task: tokio::task::JoinHandle<()>,
    /// A client that opens a new connection for each request, so the proxy spreads them.
    pub client: reqwest::Client,
}

impl Drop for Cluster {
    fn drop(&mut self) {
        self.proxy_task.abort();
    }
}

impl Cluster {
    /// Both replicas started and ready on a new database of the shared test server (a copy of the
    /// migrated template); `extra` adds to (or overrides) their environment.
    pub async fn start(extra: &[(&str, &str)]) -> Cluster {
        let database_url = closewise_testkit::migrated_postgres_database("replicas").await;
        Cluster::start_on(database_url, extra).await
    }

    /// Both replicas started and ready on the database at `database_url` (migrated first if it is
    /// not yet).
    pub async fn start_on(database_url: String, extra: &[(&str, &str)]) -> Cluster {
        let config = stripe_mock::Config {
            secret_key: DEV_STRIPE_SECRET_KEY.into(),
            webhook_secret: DEV_STRIPE_WEBHOOK_SECRET.into(),
            // Quick retries: a webhook that met the killed replica comes back within seconds.
            webhook_retry_delays: [200, 400, 800, 1_600, 3_200]
                .into_iter()
                .map(Duration::from_millis)
                .collect(),
            webhook_timeout: Duration::from_secs(5),
            ..stripe_mock::Config::default()
        };
        let (mock_addr, mock) = stripe_mock::spawn(config).await.expect("stripe-mock");
        let mock_url = format!("http://{mock_addr}");
        let ip = cluster_ip();
        let ports = [free_port_on(ip), free_port_on(ip)];
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let proxy = listener.local_addr().unwrap();
        let served: Arc<[AtomicU64; 2]> = Arc::new([AtomicU64::new(0), AtomicU64::new(0)]);
        let backends = ports.map(|p| SocketAddr::from((ip, p)));
        let proxy_task = tokio::spawn(round_robin(listener, backends, served.clone()));
        let mut env: Vec<(String, String)> = [
            ("APP_BASE_URL", BASE),
            ("DATABASE_URL", database_url.as_str()),
            ("STRIPE_API_BASE", mock_url.as_str()),
            ("ALLOW_UNVERIFIED_SIGNIN", "true"),
            ("RATE_LIMIT_MAIL_PER_IP", "1000000"),
            ("RATE_LIMIT_MAIL_PER_EMAIL", "1000000"),
            ("RATE_LIMIT_TOKEN_PER_IP", "1000000"),
            ("RUST_LOG", "info,sqlx=warn,tower_http=debug"),
            ("NO_COLOR", "1"),
        ]
        .into_iter()
        .map(|(k, v)| (k.to_owned(), v.to_owned()))
        .collect();
        // Later pairs win: `Command::envs` sets them in order.
        env.extend(
            extra
                .iter()
                .map(|(k, v)| ((*k).to_owned(), (*v).to_owned())),
        );
        let mut cluster = Cluster {
            database_url,
            dir: TempDir::new(),
            mock,
            ip,
            ports,
            children: [None, None],
            env,
            proxy,
            served,
            proxy_task,
            client: reqwest::Client::builder()
                .pool_max_idle_per_host(0)
                .redirect(reqwest::redirect::Policy::none())
                .build()
                .unwrap(),
        };
        // The schema and the keys both replicas share (one DATA_DIR) made first, so that both
        // start at once rather than the second waiting for the first to make them.
        let store = Store::connect(&cluster.database_url, Duration::from_secs(5))
            .await
            .expect("the cluster's database");
        store.migrate().await.expect("migrations");
        store.close().await;
        Keys::load_or_create(&cluster.dir.0.join("jwt-ed25519.pem"), BASE).expect("signing key");
        SecretBox::load_or_create(&cluster.dir.0.join("mfa-encryption.key")).expect("MFA key");
        cluster.spawn_replica(0);
        cluster.spawn_replica(1);
        tokio::join!(cluster.ready(0), cluster.ready(1));
        cluster
    }

    pub fn log(&self, i: usize) -> String {
        std::fs::read_to_string(self.dir.0.join(format!("{}.log", NAMES[i]))).unwrap_or_default()
    }

    pub async fn start_replica(&mut self, i: usize) {
        self.spawn_replica(i);
        self.ready(i).await;
    }

    fn spawn_replica(&mut self, i: usize) {
        let log = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(self.dir.0.join(format!("{}.log", NAMES[i])))
            .unwrap();
        let child = Command::new(env!("CARGO_BIN_EXE_closewise-api"))
            .env_clear()
            .env("PATH", std::env::var("PATH").unwrap_or_default())
            .envs(self.env.iter().map(|(k, v)| (k.as_str(), v.as_str())))
            .env("APP_ADDR", format!("{}:{}", self.ip, self.ports[i]))
            .env("APP_INSTANCE", NAMES[i])
            .env("DATA_DIR", &self.dir.0)
            .env("WEB_DIST", self.dir.0.join("web"))
            .stdout(Stdio::from(log))
            .stderr(Stdio::inherit())
            .kill_on_drop(true)
            .spawn()
            .expect("start closewise-api");
        self.children[i] = Some(child);
    }

    /// Waits until replica `i` answers `/readyz` with 200.
    async fn ready(&self, i: usize) {
        let url = self.direct(i, "/readyz");
        let client = reqwest::Client::new();
        bounded(60, "a replica to start", async {
            loop {
                if let Ok(r) = client.get(&url).send().await {
                    if r.status() == StatusCode::OK {
                        break;
                    }
                }
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
        })
        .await;
    }

    /// SIGKILL, no warning.
    pub async fn kill(&mut self, i: usize) {
        let mut child = self.children[i].take().expect("running");
        child.start_kill().expect("SIGKILL");
        let status = child.wait().await.unwrap();
        assert!(!status.success(), "killed, not exited: {status:?}");
    }

    /// Through the proxy.
    pub fn url(&self, path: &str) -> String {
        format!("http://{}{path}", self.proxy)
    }

    /// Straight to replica `i`.
    pub fn direct(&self, i: usize, path: &str) -> String {
        format!("http://{}:{}{path}", self.ip, self.ports[i])
    }

    pub async fn post(&self, url: String, token: Option<&str>, body: Value) -> (StatusCode, Value) {
        let mut req = self.client.post(url).json(&body);
        if let Some(t) = token {
            req = req.bearer_auth(t);
        }
        json(req.send().await.unwrap()).await
    }

    pub async fn get(&self, url: String, token: &str) -> (StatusCode, Value) {
        json(
            self.client
                .get(url)
                .bearer_auth(token)
                .send()
                .await
                .unwrap(),
        )
        .await
    }

    /// Signs up and in through the proxy; returns the access token.
    pub async fn user(&self, email: &str) -> String {
        let creds = serde_json::json!({ "email": email, "password": "Closewise-replicas-7f3" });
        let (status, v) = self
            .post(self.url("/api/auth/signup"), None, creds.clone())
            .await;
        assert_eq!(status, StatusCode::OK, "{v}");
        // Verified as by the mailed link (checkout asks for it; the link is not what is tested).
        let mut db = sqlx::PgConnection::connect(&self.database_url)
            .await
            .unwrap();
        sqlx::query("UPDATE users SET email_confirmed_at = now() WHERE email = $1")
            .bind(email)
            .execute(&mut db)
            .await
            .unwrap();
        let (status, v) = self
            .post(self.url("/api/auth/token?grant_type=password"), None, creds)
            .await;
        assert_eq!(status, StatusCode::OK, "{v}");
        v["access_token"].as_str().unwrap().to_owned()
    }

    /// POSTs a Stripe event to replica `i`'s webhook, signed now.
    pub async fn deliver(&self, i: usize, event: &Value) -> (StatusCode, Value) {
        let raw = serde_json::to_string(event).unwrap();
        let t = time::OffsetDateTime::now_utc().unix_timestamp();
        let res = self
            .client
            .post(self.direct(i, "/api/stripe/webhook"))
            .header("content-type", "application/json")
            .header(
                "stripe-signature",
                sign(DEV_STRIPE_WEBHOOK_SECRET, t, raw.as_bytes()),
            )
            .body(raw)
            .send()
            .await
            .unwrap();
        json(res).await
    }
}

pub async fn json(res: reqwest::Response) -> (StatusCode, Value) {
    let status = res.status();
    let text = res.text().await.unwrap();
    (
        status,
        serde_json::from_str(&text).unwrap_or(Value::String(text)),
    )
}

/// Accepts connections and pipes each to the next backend that accepts it.
async fn round_robin(
    listener: TcpListener,
    backends: [SocketAddr; 2],
    served: Arc<[AtomicU64; 2]>,
) {
    let next = Arc::new(AtomicUsize::new(0));
    loop {
        let Ok((mut inbound, _)) = listener.accept().await else {
            continue;
        };
        let (next, served) = (next.clone(), served.clone());
        tokio::spawn(async move {
            let first = next.fetch_add(1, Ordering::Relaxed);
            for k in 0..backends.len() {
                let i = (first + k) % backends.len();
                if let Ok(mut outbound) = TcpStream::connect(backends[i]).await {
                    served[i].fetch_add(1, Ordering::Relaxed);
                    let _ = tokio::io::copy_bidirectional(&mut inbound, &mut outbound).await;
                    return;
                }
            }
        });
    }
}
