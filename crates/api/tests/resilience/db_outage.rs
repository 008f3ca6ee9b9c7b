//! PostgreSQL goes away under load and comes back. The machine's PostgreSQL is shared by other
//! tests, so the outage is made by a TCP proxy between the API and the server that the test cuts
//! (refusing new connections and resetting open ones) and restores.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use reqwest::StatusCode;
use serde_json::json;
use tokio::net::{TcpListener, TcpSocket, TcpStream};
use tokio::task::AbortHandle;

use crate::helpers::{body, error_code, spawn_app_with, Backend};
use crate::support::{assert_no_half_made_accounts, bounded, own_loopback, user_emails};
use closewise_testkit::postgres_admin_url;

#[derive(Clone)]
pub struct Proxy {
    pub port: u16,
    upstream: String,
    tasks: Arc<Mutex<Vec<AbortHandle>>>,
}

impl Proxy {
    pub async fn start(upstream: String) -> Proxy {
        let listener = TcpListener::bind((own_loopback(), 0)).await.unwrap();
        let port = listener.local_addr().unwrap().port();
        drop(listener);
        let proxy = Proxy {
            port,
            upstream,
            tasks: Arc::default(),
        };
        proxy.restore();
        proxy
    }

    /// Listens again on the same port and forwards every connection to the server.
    pub fn restore(&self) {
        let socket = TcpSocket::new_v4().unwrap();
        socket.set_reuseaddr(true).unwrap();
        socket
            .bind((own_loopback(), self.port).into())
            .expect("rebind the proxy port");
        let listener = socket.listen(128).unwrap();
        let upstream = self.upstream.clone();
        let tasks = self.tasks.clone();
        let accept = tokio::spawn(async move {
            loop {
                let Ok((mut client, _)) = listener.accept().await else {
                    continue;
                };
                let upstream = upstream.clone();
                let conn = tokio::spawn(async move {
                    if let Ok(mut server) = TcpStream::connect(&upstream).await {
                        let _ = tokio::io::copy_bidirectional(&mut client, &mut server).await;
                    }
                });
                tasks.lock().unwrap().push(conn.abort_handle());
            }
        });
        self.tasks.lock().unwrap().push(accept.abort_handle());
    }

    /// The database "goes down": new connections are refused, open ones are cut.
    pub fn cut(&self) {
        for t in self.tasks.lock().unwrap().drain(..) {
            t.abort();
        }
    }
}

pub(crate) fn host_port(url: &str) -> String {
    let rest = url.split("://").nth(1).unwrap();
    let hostpart = rest.split('/').next().unwrap();
    let hostport = hostpart.rsplit('@').next().unwrap();
    if hostport.contains(':') {
        hostport.to_string()
    } else {
        format!("{hostport}:5432")
    }
}

pub(crate) fn through_proxy(url: &str, port: u16) -> String {
    url.replace(&host_port(url), &format!("{}:{port}", own_loopback()))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_outage_answers_503_recovers_by_itself_and_loses_no_acknowledged_signup() {
    let proxy = Proxy::start(host_port(&postgres_admin_url())).await;
    let port = proxy.port;
    let app = Arc::new(
        spawn_app_with(Backend::Postgres, move |s| {
            s.database_url = through_proxy(&s.database_url, port);
            s.db_acquire_timeout = Duration::from_secs(1);
        })
        .await,
    );
    // `app.database_url` is the direct URL: the test's own checks bypass the proxy.
    let direct = app.database_url.clone();

    // Load: four clients signing up new addresses without pause, recording every answer.
    let stop = Arc::new(AtomicBool::new(false));
    let answers: Arc<Mutex<Vec<(String, StatusCode, String)>>> = Arc::default();
    let mut load = Vec::new();
    for worker in 0..4 {
        let (app, stop, answers) = (app.clone(), stop.clone(), answers.clone());
        load.push(tokio::spawn(async move {
            let mut i = 0;
            while !stop.load(Ordering::Relaxed) {
                let email = format!("load{worker}-{i}@example.com");
                i += 1;
                let res = app
                    .client
                    .post(app.url("/api/auth/signup"))
                    .json(&json!({ "email": email, "password": "Closewise-resilience-7f3" }))
                    .timeout(Duration::from_secs(15))
                    .send()
                    .await;
                match res {
                    Ok(res) => {
                        let (status, body) = body(res).await;
                        answers.lock().unwrap().push((
                            email,
                            status,
                            error_code(&body).to_string(),
                        ));
                    }
                    Err(e) => panic!("the API stopped answering: {e}"),
                }
            }
        }));
    }
    tokio::time::sleep(Duration::from_millis(800)).await;

    proxy.cut();
    let cut_at = Instant::now();
    // While it is down: readiness and calls that need the database answer 503 `unavailable`, fast.
    bounded(20, "answers during the outage", async {
        loop {
            let (status, body) =
                body(app.client.get(app.url("/readyz")).send().await.unwrap()).await;
            if status == StatusCode::SERVICE_UNAVAILABLE {
                assert_eq!(error_code(&body), "unavailable");
                break;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    })
    .await;
    let started = Instant::now();
    let res = app
        .signup("during-outage@example.com", "Closewise-resilience-7f3")
        .await;
    assert_eq!(res.status(), StatusCode::SERVICE_UNAVAILABLE);
    assert!(res.headers().contains_key("retry-after"));
    let (_, b) = body(res).await;
    assert_eq!(error_code(&b), "unavailable", "{b}");
    assert!(
        started.elapsed() < Duration::from_secs(5),
        "the 503 comes within the acquire timeout, not after a hang: {:?}",
        started.elapsed()
    );
    // Health (no database) stays up.
    assert_eq!(
        app.client
            .get(app.url("/healthz"))
            .send()
            .await
            .unwrap()
            .status(),
        StatusCode::OK
    );
    tokio::time::sleep(Duration::from_secs(2).saturating_sub(cut_at.elapsed())).await;

    proxy.restore();
    let restored_at = Instant::now();
    bounded(30, "recovery after the database returns", async {
        loop {
            let res = app.client.get(app.url("/readyz")).send().await.unwrap();
            if res.status() == StatusCode::OK {
                break;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    })
    .await;
    let recovered_in = restored_at.elapsed();
    tokio::time::sleep(Duration::from_millis(800)).await;
    stop.store(true, Ordering::Relaxed);
    for l in load {
        bounded(30, "load clients", l).await.unwrap();
    }

    let answers = answers.lock().unwrap().clone();
    let mut by_status: HashMap<(StatusCode, String), usize> = HashMap::new();
    for (_, s, code) in &answers {
        *by_status.entry((*s, code.clone())).or_default() += 1;
    }
    eprintln!("answers under the outage: {by_status:?}; recovered {recovered_in:?} after restore");
    for ((status, code), n) in &by_status {
        assert!(
            *status == StatusCode::OK
                || (*status == StatusCode::SERVICE_UNAVAILABLE && code == "unavailable"),
            "{n} answers were {status} {code}: only 200 or 503 unavailable are acceptable"
        );
    }
    let ok_before_and_after = by_status
        .get(&(StatusCode::OK, String::new()))
        .copied()
        .unwrap_or(0);
    assert!(ok_before_and_after > 0);
    assert!(
        by_status.contains_key(&(StatusCode::SERVICE_UNAVAILABLE, "unavailable".into())),
        "the load saw the outage"
    );
    // Sign-ups work again, through the same pool, without a restart.
    assert_eq!(
        app.signup("after-outage@example.com", "Closewise-resilience-7f3")
            .await
            .status(),
        StatusCode::OK
    );
    // No acknowledged sign-up is lost, and none is half made.
    let stored: std::collections::HashSet<String> =
        user_emails(&direct).await.into_iter().collect();
    for (email, status, _) in &answers {
        if *status == StatusCode::OK {
            assert!(
                stored.contains(email),
                "{email} was acknowledged but is missing"
            );
        }
    }
    assert_no_half_made_accounts(&direct).await;
}
