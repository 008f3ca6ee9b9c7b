//! Delivers the outbox over SMTP: due mails oldest first, exponential back-off on failure
//! (5 s, 10 s, 20 s … capped at 1 h), given up after 10 attempts (an operator can retry).
//! Each mail is claimed before it is sent (`Store::claim_mail`), so several workers — one per API
//! replica — never send the same mail twice.

use std::time::Duration;

use anyhow::Context;
use lettre::message::{header::ContentType, Mailbox, MultiPart, SinglePart};
use lettre::{AsyncSmtpTransport, AsyncTransport, Message, Tokio1Executor};
use secrecy::ExposeSecret;
use tokio::sync::watch;

use crate::clock::Clock;
use crate::store::{MailRow, Store};

pub const MAX_ATTEMPTS: i32 = 10;

/// How long a claimed mail stays with its worker before another may try it (the worker died).
/// Far longer than the SMTP timeout (10 s).
pub const CLAIM_LEASE: time::Duration = time::Duration::minutes(10);

pub struct Worker {
    pub store: Store,
    pub transport: AsyncSmtpTransport<Tokio1Executor>,
    pub from: Mailbox,
    pub clock: Clock,
    pub interval: Duration,
}

impl Worker {
    pub fn new(
        store: Store,
        smtp_url: &secrecy::SecretString,
        from: &str,
        clock: Clock,
        interval: Duration,
    ) -> anyhow::Result<Self> {
        let transport = AsyncSmtpTransport::<Tokio1Executor>::from_url(smtp_url.expose_secret())
            .context("SMTP_URL is not a valid smtp:// or smtps:// URL")?
            .timeout(Some(Duration::from_secs(10)))
            .build();
        let from: Mailbox = from.parse().context("MAIL_FROM is not a valid mailbox")?;
        Ok(Worker {
            store,
            transport,
            from,
            clock,
            interval,
        })
    }

    pub async fn run(self, mut shutdown: watch::Receiver<bool>) {
        loop {
            if let Err(e) = self.tick().await {
                tracing::warn!(error = ?e, "mail worker tick failed");
            }
            tokio::select! {
                _ = tokio::time::sleep(self.interval) => {}
                _ = shutdown.changed() => break,
            }
        }
    }

    /// Sends what is due now; returns how many were delivered. Also removes the links of mails
    /// whose tokens can no longer be used (older than the longest token lifetime).
    pub async fn tick(&self) -> anyhow::Result<usize> {
        let expired_before = self.clock.now()
            - closewise_domain::tokens::VERIFICATION_TTL.max(closewise_domain::tokens::RESET_TTL);
        self.store.scrub_mail_links(expired_before).await?;
        let due = self.store.due_mail(self.clock.now(), 20).await?;
        let mut sent = 0;
        for mail in due {
            let now = self.clock.now();
            if !self
                .store
                .claim_mail(mail.id, mail.due_at_ms, now + CLAIM_LEASE)
                .await?
            {
                continue; // another worker has it
            }
            match self.send(&mail).await {
                Ok(()) => {
                    self.store.mark_mail_sent(mail.id, self.clock.now()).await?;
                    sent += 1;
                }
                Err(e) => {
                    let attempts = mail.attempts + 1;
                    let now = self.clock.now();
                    let next = (attempts < MAX_ATTEMPTS).then(|| now + backoff(attempts));
                    tracing::warn!(mail_id = %mail.id, attempts, error = %e, "mail delivery failed");
                    self.store
                        .mark_mail_attempt_failed(mail.id, &format!("{e:#}"), next, now)
                        .await?;
                }
            }
        }
        Ok(sent)
    }

    async fn send(&self, mail: &MailRow) -> anyhow::Result<()> {
        let to: Mailbox = mail.to_email.parse().context("bad recipient")?;
        let message = Message::builder()
            .from(self.from.clone())
            .to(to)
            .subject(&mail.subject)
            .message_id(Some(format!("<{}@closewise>", mail.id)))
            .multipart(
                MultiPart::alternative()
                    .singlepart(
                        SinglePart::builder()
                            .header(ContentType::TEXT_PLAIN)
                            .body(mail.text_body.clone()),
                    )
                    .singlepart(
                        SinglePart::builder()
                            .header(ContentType::TEXT_HTML)
                            .body(mail.html_body.clone()),
                    ),
            )
            .context("cannot build the message")?;
        self.transport
            .send(message)
            .await
            .context("SMTP send failed")?;
        Ok(())
    }
}

pub fn backoff(attempts: i32) -> time::Duration {
    let secs = 5i64.saturating_mul(1i64 << (attempts.clamp(1, 20) - 1));
    time::Duration::seconds(secs.min(3600))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn backoff_doubles_from_five_seconds_up_to_an_hour() {
        assert_eq!(backoff(1), time::Duration::seconds(5));
        assert_eq!(backoff(2), time::Duration::seconds(10));
        assert_eq!(backoff(4), time::Duration::seconds(40));
        assert_eq!(backoff(15), time::Duration::hours(1));
    }
}
