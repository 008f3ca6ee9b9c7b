//! The mail outbox: every mail is written here first (in the same transaction as what caused it)
//! and delivered by the worker.

use time::OffsetDateTime;
use uuid::Uuid;

use super::{dispatch, Store};

#[derive(Clone, Debug)]
pub struct NewMail {
    pub id: Uuid,
    pub to: String,
    pub kind: &'static str,
    pub subject: String,
    pub text_body: String,
    pub html_body: String,
    pub link: Option<String>,
    pub created_at: OffsetDateTime,
}

#[derive(Clone, Debug, sqlx::FromRow, serde::Serialize)]
pub struct MailRow {
    pub id: Uuid,
    pub to_email: String,
    pub kind: String,
    pub subject: String,
    pub text_body: String,
    pub html_body: String,
    pub link: Option<String>,
    #[serde(with = "time::serde::rfc3339")]
    pub created_at: OffsetDateTime,
    pub attempts: i32,
    pub due_at_ms: i64,
    #[serde(with = "time::serde::rfc3339::option")]
    pub sent_at: Option<OffsetDateTime>,
    #[serde(with = "time::serde::rfc3339::option")]
    pub failed_at: Option<OffsetDateTime>,
    pub last_error: Option<String>,
}

pub(crate) const INSERT_MAIL: &str = "INSERT INTO mail_outbox \
    (id, to_email, kind, subject, text_body, html_body, link, created_at, attempts, due_at_ms) \
    VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 0, $9)";

/// Binds a `NewMail` to `INSERT_MAIL`.
macro_rules! bind_mail {
    ($mail:expr) => {
        sqlx::query($crate::store::mail::INSERT_MAIL)
            .bind($mail.id)
            .bind(&$mail.to)
            .bind($mail.kind)
            .bind(&$mail.subject)
            .bind(&$mail.text_body)
            .bind(&$mail.html_body)
            .bind(&$mail.link)
            .bind($mail.created_at)
            .bind($crate::store::mail::unix_ms($mail.created_at))
    };
}
pub(crate) use bind_mail;

pub fn unix_ms(t: OffsetDateTime) -> i64 {
    (t.unix_timestamp_nanos() / 1_000_000) as i64
}

const MAIL_COLUMNS: &str = "id, to_email, kind, subject, text_body, html_body, link, created_at, \
    attempts, due_at_ms, sent_at, failed_at, last_error";

/// Which mails to list.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum MailFilter {
    #[default]
    All,
    Pending,
    Failed,
}

/// What stands in a delivered mail's bodies where its link was.
pub const LINK_REMOVED: &str = "[link removed after delivery]";
/// What stands where the link of a mail whose token expired was.
pub const LINK_EXPIRED: &str = "[link expired and removed]";

impl Store {
    pub async fn enqueue_mail(&self, mail: &NewMail) -> Result<(), sqlx::Error> {
        dispatch!(self, |p| bind_mail!(mail).execute(p).await.map(|_| ()))
    }

    /// Newest first.
    pub async fn list_mail(
        &self,
        to: Option<&str>,
        filter: MailFilter,
        limit: i64,
    ) -> Result<Vec<MailRow>, sqlx::Error> {
        let state = match filter {
            MailFilter::All => "",
            MailFilter::Pending => " AND sent_at IS NULL AND failed_at IS NULL",
            MailFilter::Failed => " AND failed_at IS NOT NULL",
        };
        let sql = format!(
            "SELECT {MAIL_COLUMNS} FROM mail_outbox WHERE ($1 IS NULL OR to_email = $1){state} \
             ORDER BY created_at DESC, id DESC LIMIT $2"
        );
        dispatch!(self, |p| sqlx::query_as::<_, MailRow>(&sql)
            .bind(to)
            .bind(limit)
            .fetch_all(p)
            .await)
    }

    pub async fn get_mail(&self, id: Uuid) -> Result<Option<MailRow>, sqlx::Error> {
        let sql = format!("SELECT {MAIL_COLUMNS} FROM mail_outbox WHERE id = $1");
        dispatch!(self, |p| sqlx::query_as::<_, MailRow>(&sql)
            .bind(id)
            .fetch_optional(p)
            .await)
    }

    /// Mails due for delivery, oldest first.
    pub async fn due_mail(
        &self,
        now: OffsetDateTime,
        limit: i64,
    ) -> Result<Vec<MailRow>, sqlx::Error> {
        let sql = format!(
            "SELECT {MAIL_COLUMNS} FROM mail_outbox \
             WHERE sent_at IS NULL AND failed_at IS NULL AND due_at_ms <= $1 \
             ORDER BY due_at_ms, id LIMIT $2"
        );
        dispatch!(self, |p| sqlx::query_as::<_, MailRow>(&sql)
            .bind(unix_ms(now))
            .bind(limit)
            .fetch_all(p)
            .await)
    }

    /// Claims a due mail for one delivery attempt: moves its due time to `lease_until` only if it
    /// is still the `seen_due_at_ms` the caller read. Exactly one of several workers (API
    /// replicas) that read the same row wins; a worker that dies after claiming leaves the mail
    /// to be retried when the lease ends.
    pub async fn claim_mail(
        &self,
        id: Uuid,
        seen_due_at_ms: i64,
        lease_until: OffsetDateTime,
    ) -> Result<bool, sqlx::Error> {
        dispatch!(self, |p| sqlx::query(
            "UPDATE mail_outbox SET due_at_ms = $3 \
             WHERE id = $1 AND due_at_ms = $2 AND sent_at IS NULL AND failed_at IS NULL"
        )
        .bind(id)
        .bind(seen_due_at_ms)
        .bind(unix_ms(lease_until))
        .execute(p)
        .await
        .map(|r| r.rows_affected() == 1))
    }

    /// Marks a mail delivered and removes its live token (the link, and the link in both bodies):
    /// the recipient has it now, and backups and operators need not. Returns false when it was
    /// already marked (another worker won).
    pub async fn mark_mail_sent(&self, id: Uuid, now: OffsetDateTime) -> Result<bool, sqlx::Error> {
        dispatch!(self, |p| {
            sqlx::query(
            "UPDATE mail_outbox SET sent_at = $2, attempts = attempts + 1, last_error = NULL, \
             text_body = CASE WHEN link IS NULL THEN text_body ELSE replace(text_body, link, $3) END, \
             html_body = CASE WHEN link IS NULL THEN html_body ELSE replace(html_body, link, $3) END, \
             link = NULL \
             WHERE id = $1 AND sent_at IS NULL"
        )
        .bind(id)
        .bind(now)
        .bind(LINK_REMOVED)
        .execute(p)
        .await
        .map(|r| r.rows_affected() == 1)
        })
    }

    /// Removes the links of mails created before `before` (their tokens have expired), sent or
    /// not. Returns how many rows changed.
    pub async fn scrub_mail_links(&self, before: OffsetDateTime) -> Result<u64, sqlx::Error> {
        dispatch!(self, |p| sqlx::query(
            "UPDATE mail_outbox SET \
             text_body = replace(text_body, link, $2), html_body = replace(html_body, link, $2), \
             link = NULL WHERE link IS NOT NULL AND created_at < $1"
        )
        .bind(before)
        .bind(LINK_EXPIRED)
        .execute(p)
        .await
        .map(|r| r.rows_affected()))
    }

    /// Records a failed attempt; `next_due` None gives up on the mail.
    pub async fn mark_mail_attempt_failed(
        &self,
        id: Uuid,
        error: &str,
        next_due: Option<OffsetDateTime>,
        now: OffsetDateTime,
    ) -> Result<(), sqlx::Error> {
        match next_due {
            Some(due) => {
                dispatch!(self, |p| {
                    sqlx::query(
                "UPDATE mail_outbox SET attempts = attempts + 1, last_error = $2, due_at_ms = $3 \
                 WHERE id = $1 AND sent_at IS NULL"
            )
            .bind(id)
            .bind(error)
            .bind(unix_ms(due))
            .execute(p)
            .await
            .map(|_| ())
                })
            }
            None => {
                dispatch!(self, |p| {
                    sqlx::query(
                "UPDATE mail_outbox SET attempts = attempts + 1, last_error = $2, failed_at = $3 \
                 WHERE id = $1 AND sent_at IS NULL"
            )
            .bind(id)
            .bind(error)
            .bind(now)
            .execute(p)
            .await
            .map(|_| ())
                })
            }
        }
    }
}
