//! The mail server goes away and comes back: every queued mail is delivered exactly once, also
//! with two workers (two API replicas) on the same outbox.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use closewise_core::mail::worker::Worker;
use reqwest::StatusCode;
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::net::{TcpListener, TcpSocket, TcpStream};
use tokio::task::AbortHandle;

use crate::both;
use crate::helpers::{spawn_app_with, Backend, TestApp};
use crate::support::{bounded, own_loopback};

/// A tiny SMTP server (220/250/354/250/221) that can refuse connections and accept them again
/// on the same port. It records the Message-ID of every message it accepted.
#[derive(Clone)]
pub struct FakeSmtp {
    pub port: u16,
    inner: Arc<Inner>,
}

#[derive(Default)]
struct Inner {
    received: Mutex<Vec<String>>,
    tasks: Mutex<Vec<AbortHandle>>,
}

impl FakeSmtp {
    /// A server that is down: its port is reserved but refuses connections until `up()`.
    pub async fn down() -> FakeSmtp {
        let listener = TcpListener::bind((own_loopback(), 0)).await.unwrap();
        let port = listener.local_addr().unwrap().port();
        drop(listener);
        FakeSmtp {
            port,
            inner: Arc::default(),
        }
    }

    pub fn url(&self) -> String {
        format!("smtp://{}:{}", own_loopback(), self.port)
    }

    pub fn up(&self) {
        let socket = TcpSocket::new_v4().unwrap();
        socket.set_reuseaddr(true).unwrap();
        socket
            .bind((own_loopback(), self.port).into())
            .expect("rebind the SMTP port");
        let listener = socket.listen(64).unwrap();
        let inner = self.inner.clone();
        let task = tokio::spawn(async move {
            loop {
                let Ok((stream, _)) = listener.accept().await else {
                    continue;
                };
                let inner2 = inner.clone();
                let conn = tokio::spawn(async move {
                    let _ = session(stream, &inner2).await;
                });
                inner.tasks.lock().unwrap().push(conn.abort_handle());
            }
        });
        self.inner.tasks.lock().unwrap().push(task.abort_handle());
    }

    /// Stops listening (connections are refused) and cuts every open connection.
    pub fn down_again(&self) {
        for t in self.inner.tasks.lock().unwrap().drain(..) {
            t.abort();
        }
    }

    pub fn received(&self) -> Vec<String> {
        self.inner.received.lock().unwrap().clone()
    }
}

async fn session(stream: TcpStream, inner: &Inner) -> std::io::Result<()> {
    let (read, mut write) = stream.into_split();
    let mut lines = BufReader::new(read).lines();
    write.write_all(b"220 fake.test ESMTP\r\n").await?;
    while let Some(line) = lines.next_line().await? {
        let verb = line
            .split_whitespace()
            .next()
            .unwrap_or("")
            .to_ascii_uppercase();
        match verb.as_str() {
            "EHLO" | "HELO" => write.write_all(b"250 fake.test\r\n").await?,
            "MAIL" | "RCPT" | "RSET" | "NOOP" => write.write_all(b"250 OK\r\n").await?,
            "DATA" => {
                write
                    .write_all(b"354 End data with <CR><LF>.<CR><LF>\r\n")
                    .await?;
                let mut message_id = None;
                while let Some(l) = lines.next_line().await? {
                    if l == "." {
                        break;
                    }
                    if let Some((name, value)) = l.split_once(':') {
                        if name.eq_ignore_ascii_case("message-id") && message_id.is_none() {
                            message_id = Some(value.trim().to_string());
                        }
                    }
                }
                inner
                    .received
                    .lock()
                    .unwrap()
                    .push(message_id.unwrap_or_default());
                write.write_all(b"250 OK queued\r\n").await?;
            }
            "QUIT" => {
                write.write_all(b"221 Bye\r\n").await?;
                return Ok(());
            }
            _ => write.write_all(b"502 Command not implemented\r\n").await?,
        }
    }
    Ok(())
}

async fn outbox_ids(app: &TestApp) -> Vec<(String, bool, i32)> {
    app.mails_to_all()
        .await
        .into_iter()
        .map(|m| {
            (
                format!("<{}@closewise>", m.id),
                m.sent_at.is_some(),
                m.attempts,
            )
        })
        .collect()
}

trait AllMail {
    async fn mails_to_all(&self) -> Vec<closewise_core::store::MailRow>;
}

impl AllMail for TestApp {
    async fn mails_to_all(&self) -> Vec<closewise_core::store::MailRow> {
        self.state
            .store
            .list_mail(None, closewise_core::store::mail::MailFilter::All, 10_000)
            .await
            .unwrap()
    }
}

async fn signups(app: &TestApp, prefix: &str, n: usize) {
    for i in 0..n {
        let email = format!("{prefix}{i}@example.com");
        assert_eq!(
            app.signup(&email, "Closewise-resilience-7f3")
                .await
                .status(),
            StatusCode::OK
        );
    }
}

/// Moves the app's clock on (so backed-off mails fall due) until every mail is sent.
async fn until_all_sent(app: &TestApp) {
    bounded(30, "delivery of the whole outbox", async {
        loop {
            let ids = outbox_ids(app).await;
            if ids.iter().all(|(_, sent, _)| *sent) {
                return;
            }
            app.advance(time::Duration::seconds(70));
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    })
    .await;
}

fn assert_exactly_once(outbox: &[(String, bool, i32)], received: &[String]) {
    let mut expected: Vec<&str> = outbox.iter().map(|(id, _, _)| id.as_str()).collect();
    let mut got: Vec<&str> = received.iter().map(String::as_str).collect();
    expected.sort();
    got.sort();
    assert_eq!(got, expected, "each outbox mail delivered exactly once");
}

async fn smtp_down_then_back(backend: Backend) {
    let smtp = FakeSmtp::down().await;
    let url = smtp.url();
    let app = spawn_app_with(backend, |s| {
        s.smtp_url = Some(url.into());
        s.mail_worker_interval = Duration::from_millis(50);
    })
    .await;
    signups(&app, "queued", 12).await;
    // The worker tries, fails, and backs off; a couple more failed rounds as time passes.
    for _ in 0..3 {
        bounded(20, "failed delivery attempts", async {
            loop {
                let ids = outbox_ids(&app).await;
                if ids.iter().all(|(_, _, attempts)| *attempts >= 1) {
                    break;
                }
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
        })
        .await;
        app.advance(time::Duration::seconds(6));
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    let outbox = outbox_ids(&app).await;
    assert_eq!(outbox.len(), 12);
    assert!(
        outbox.iter().all(|(_, sent, _)| !sent),
        "nothing sent while down"
    );
    assert!(smtp.received().is_empty());
    let failed = app
        .state
        .store
        .list_mail(None, closewise_core::store::mail::MailFilter::Pending, 100)
        .await
        .unwrap();
    assert!(
        failed.iter().all(|m| m.last_error.is_some()),
        "each failure is recorded"
    );

    smtp.up();
    until_all_sent(&app).await;
    // More mail while it is up, then a cut in the middle of work and back again.
    signups(&app, "live", 5).await;
    until_all_sent(&app).await;
    smtp.down_again();
    signups(&app, "second-outage", 5).await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    smtp.up();
    until_all_sent(&app).await;
    // Let the worker run on for a while: nothing goes out twice.
    for _ in 0..5 {
        app.advance(time::Duration::hours(2));
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let outbox = outbox_ids(&app).await;
    assert_eq!(outbox.len(), 22);
    assert_exactly_once(&outbox, &smtp.received());
}

both!(
    async fn smtp_down_then_back_delivers_every_mail_once(backend: Backend) {
        bounded(90, "SMTP outage", smtp_down_then_back(backend)).await;
    }
);

/// Two API replicas both run the worker over one outbox: no mail goes out twice.
async fn two_workers(backend: Backend) {
    let smtp = FakeSmtp::down().await;
    smtp.up();
    let url = smtp.url();
    let app = spawn_app_with(backend, |s| {
        s.smtp_url = Some(url.clone().into());
        s.mail_worker_interval = Duration::from_millis(20);
    })
    .await;
    let second = Worker::new(
        app.state.store.clone(),
        &url.clone().into(),
        &app.state.settings.mail_from,
        app.state.clock.clone(),
        Duration::from_millis(20),
    )
    .unwrap();
    let (stop, stopped) = tokio::sync::watch::channel(false);
    let handle = tokio::spawn(second.run(stopped));
    signups(&app, "replica", 30).await;
    until_all_sent(&app).await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    let _ = stop.send(true);
    let _ = handle.await;
    let outbox = outbox_ids(&app).await;
    assert_eq!(outbox.len(), 30);
    assert_exactly_once(&outbox, &smtp.received());
}

both!(
    async fn two_mail_workers_deliver_each_mail_once(backend: Backend) {
        bounded(60, "two workers", two_workers(backend)).await;
    }
);

/// Once a mail is delivered, its live token is gone from the outbox row (link
/// and bodies); a mail that never goes out loses it once the token has expired.
async fn delivered_mail_keeps_no_token(backend: Backend) {
    let smtp = FakeSmtp::down().await;
    smtp.up();
    let url = smtp.url();
    let app = spawn_app_with(backend, |s| {
        s.smtp_url = Some(url.into());
        s.mail_worker_interval = Duration::from_millis(50);
    })
    .await;
    signups(&app, "scrubbed", 2).await;
    until_all_sent(&app).await;
    for mail in app.mails_to_all().await {
        assert!(
            mail.link.is_none(),
            "link kept after delivery: {:?}",
            mail.link
        );
        assert!(
            !mail.text_body.contains("token=") && !mail.html_body.contains("token="),
            "a token left in the bodies of {}",
            mail.id
        );
        assert!(mail.text_body.contains("link removed after delivery"));
    }
    // A mail that cannot be delivered keeps its link while the token lives, not after.
    smtp.down_again();
    signups(&app, "undelivered", 1).await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    let pending = app.mails_to("undelivered0@example.com").await;
    assert!(
        pending[0].link.is_some(),
        "still deliverable: the link is kept"
    );
    app.advance(time::Duration::hours(25));
    bounded(20, "the expired token swept", async {
        loop {
            let m = app.mails_to("undelivered0@example.com").await;
            if m[0].link.is_none() && !m[0].text_body.contains("token=") {
                break;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    })
    .await;
}

both!(
    async fn a_delivered_or_expired_mail_keeps_no_live_token(backend: Backend) {
        bounded(
            60,
            "token scrubbing",
            delivered_mail_keeps_no_token(backend),
        )
        .await;
    }
);
