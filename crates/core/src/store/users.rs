//! Users, and the transactions that create or change them together with their plan, tokens and mail.

use closewise_domain::tokens::{resend_wait, EmailTokenKind};
use time::OffsetDateTime;
use uuid::Uuid;

use super::mail::bind_mail;
use super::mfa::{factor_counts, factors};
use super::revocations::{notify_revoked, Revoked};
use super::{dispatch, domain_sql, is_unique_violation, NewMail, Store};
use closewise_domain::mfa::Factors;

#[derive(Clone, Debug, sqlx::FromRow)]
pub struct UserRow {
    pub id: Uuid,
    pub email: String,
    pub password_hash: String,
    pub email_confirmed_at: Option<OffsetDateTime>,
    pub created_at: OffsetDateTime,
    pub updated_at: OffsetDateTime,
}

pub struct NewUser {
    pub id: Uuid,
    pub email: String,
    pub password_hash: String,
    pub now: OffsetDateTime,
}

pub struct NewEmailToken {
    pub id: Uuid,
    pub kind: &'static str,
    pub token_hash: String,
    pub expires_at: OffsetDateTime,
    /// A verification link's password: the hash chosen in the sign-up that sends it. Only sign-ups
    /// set it, and each token written with one counts as a sign-up (`users.signup_passwords`).
    pub password_hash: Option<String>,
}

#[derive(Debug, PartialEq, Eq)]
pub enum SignupOutcome {
    Created,
    AlreadyRegistered,
}

const USER_COLUMNS: &str = "id, email, password_hash, email_confirmed_at, created_at, updated_at";

pub(crate) const INSERT_TOKEN: &str = "INSERT INTO email_tokens \
    (id, user_id, kind, token_hash, created_at, expires_at, password_hash) \
    VALUES ($1, $2, $3, $4, $5, $6, $7)";

/// Spends every outstanding token of one kind of a user ($3: the kind).
pub(crate) const VOID_TOKENS_OF_KIND: &str =
    "UPDATE email_tokens SET used_at = $2 WHERE user_id = $1 AND kind = $3 AND used_at IS NULL";

impl Store {
    /// Creates the user, its free plan row, its verification token and mail in one transaction.
    /// An e-mail that is already registered changes nothing and says so.
    #[tracing::instrument(skip_all)]
    pub async fn create_user(
        &self,
        user: &NewUser,
        plan_id: Uuid,
        token: &NewEmailToken,
        mail: &NewMail,
    ) -> Result<SignupOutcome, sqlx::Error> {
        dispatch!(self, |p| {
            let mut tx = crate::store::begin::begin(p).await?;
            let inserted = sqlx::query(
                "INSERT INTO users (id, email, password_hash, email_confirmed_at, created_at, updated_at) \
                 VALUES ($1, $2, $3, NULL, $4, $4)",
            )
            .bind(user.id)
            .bind(&user.email)
            .bind(&user.password_hash)
            .bind(user.now)
            .execute(&mut *tx)
            .await;
            match inserted {
                Err(e) if is_unique_violation(&e) => return Ok(SignupOutcome::AlreadyRegistered),
                Err(e) => return Err(e),
                Ok(_) => {}
            }
            sqlx::query(&domain_sql("INSERT INTO user_plans (id, user_id, plan_type, status, plan_started_at, plan_updated_at, created_at, updated_at) \
                 VALUES ($1, $2, '{free}', '{active}', $3, $3, $3, $3)"))
            .bind(plan_id)
            .bind(user.id)
            .bind(user.now)
            .execute(&mut *tx)
            .await?;
            sqlx::query(INSERT_TOKEN)
                .bind(token.id)
                .bind(user.id)
                .bind(token.kind)
                .bind(&token.token_hash)
                .bind(user.now)
                .bind(token.expires_at)
                .bind(&token.password_hash)
                .execute(&mut *tx)
                .await?;
            bind_mail!(mail).execute(&mut *tx).await?;
            tx.commit().await?;
            Ok(SignupOutcome::Created)
        })
    }

    pub async fn user_by_email(&self, email: &str) -> Result<Option<UserRow>, sqlx::Error> {
        let sql = format!("SELECT {USER_COLUMNS} FROM users WHERE email = $1");
        dispatch!(self, |p| sqlx::query_as::<_, UserRow>(&sql)
            .bind(email)
            .fetch_optional(p)
            .await)
    }

    /// `user_by_email` with the user's second factors (`mfa_factors`), in one query: the password
    /// grant needs both, and each round trip to the database counts.
    pub async fn user_with_factors_by_email(
        &self,
        email: &str,
    ) -> Result<Option<(UserRow, Factors)>, sqlx::Error> {
        #[derive(sqlx::FromRow)]
        struct Row {
            #[sqlx(flatten)]
            user: UserRow,
            totp: i64,
            recovery_codes: i64,
            passkeys: i64,
        }
        let sql = format!(
            "SELECT {USER_COLUMNS}, {} FROM users WHERE email = $1",
            factor_counts!("users.id")
        );
        let row = dispatch!(self, |p| sqlx::query_as::<_, Row>(&sql)
            .bind(email)
            .fetch_optional(p)
            .await)?;
        Ok(row.map(|r| (r.user, factors(r.totp, r.recovery_codes, r.passkeys))))
    }

    pub async fn user_by_id(&self, id: Uuid) -> Result<Option<UserRow>, sqlx::Error> {
        let sql = format!("SELECT {USER_COLUMNS} FROM users WHERE id = $1");
        dispatch!(self, |p| sqlx::query_as::<_, UserRow>(&sql)
            .bind(id)
            .fetch_optional(p)
            .await)
    }

    /// Sends `mail` to an existing user; when `throttled`, only if no mail of the same kind went to
    /// that address within the resend interval (`closewise_domain::tokens::resend_wait`). The
    /// user's row is locked first, so concurrent callers queue up and at most one mail is written.
    /// Optionally writes a fresh e-mail token with it.
    #[tracing::instrument(skip_all)]
    pub async fn mail_user_throttled(
        &self,
        user_id: Uuid,
        token: Option<&NewEmailToken>,
        mail: &NewMail,
        throttled: bool,
    ) -> Result<bool, sqlx::Error> {
        dispatch!(self, |p| {
            let mut tx = crate::store::begin::begin(p).await?;
            // Takes the row lock (PostgreSQL) or the write lock (SQLite) before reading.
            let locked = sqlx::query("UPDATE users SET updated_at = updated_at WHERE id = $1")
                .bind(user_id)
                .execute(&mut *tx)
                .await?;
            if locked.rows_affected() == 0 {
                return Ok(false);
            }
            if throttled {
                let last: Option<(OffsetDateTime,)> = sqlx::query_as(
                    "SELECT created_at FROM mail_outbox WHERE to_email = $1 AND kind = $2 \
                     ORDER BY created_at DESC LIMIT 1",
                )
                .bind(&mail.to)
                .bind(mail.kind)
                .fetch_optional(&mut *tx)
                .await?;
                if resend_wait(last.map(|(at,)| at), mail.created_at).is_some() {
                    return Ok(false);
                }
            }
            if let Some(token) = token {
                sqlx::query(INSERT_TOKEN)
                    .bind(token.id)
                    .bind(user_id)
                    .bind(token.kind)
                    .bind(&token.token_hash)
                    .bind(mail.created_at)
                    .bind(token.expires_at)
                    .bind(&token.password_hash)
                    .execute(&mut *tx)
                    .await?;
                if token.password_hash.is_some() {
                    // Another sign-up of the unconfirmed address (closewise_domain::signup).
                    sqlx::query(
                        "UPDATE users SET signup_passwords = signup_passwords + 1 \
                         WHERE id = $1 AND email_confirmed_at IS NULL",
                    )
                    .bind(user_id)
                    .execute(&mut *tx)
                    .await?;
                }
            }
            bind_mail!(mail).execute(&mut *tx).await?;
            tx.commit().await?;
            Ok(true)
        })
    }

    /// Replaces the password hash `old` with `new`, the same password hashed again with the
    /// current parameters; nothing when the hash changed meanwhile (a password change or reset
    /// wins). True when replaced.
    #[tracing::instrument(skip_all)]
    pub async fn rehash_password(
        &self,
        user_id: Uuid,
        old: &str,
        new: &str,
    ) -> Result<bool, sqlx::Error> {
        dispatch!(self, |p| {
            let done = sqlx::query(
                "UPDATE users SET password_hash = $3 WHERE id = $1 AND password_hash = $2",
            )
            .bind(user_id)
            .bind(old)
            .bind(new)
            .execute(p)
            .await?;
            Ok(done.rows_affected() == 1)
        })
    }

    /// Sets a new password hash and ends every session of the user except `keep`; writes `mail`.
    #[tracing::instrument(skip_all)]
    pub async fn change_password(
        &self,
        user_id: Uuid,
        password_hash: &str,
        keep_session: Option<Uuid>,
        confirm_email: bool,
        mail: &NewMail,
        now: OffsetDateTime,
    ) -> Result<(), sqlx::Error> {
        dispatch!(self, |p| {
            let mut tx = crate::store::begin::begin(p).await?;
            sqlx::query(
                "UPDATE users SET password_hash = $2, updated_at = $3, \
                 email_confirmed_at = CASE WHEN $4 AND email_confirmed_at IS NULL THEN $3 ELSE email_confirmed_at END \
                 WHERE id = $1",
            )
            .bind(user_id)
            .bind(password_hash)
            .bind(now)
            .bind(confirm_email)
            .execute(&mut *tx)
            .await?;
            let ended = sqlx::query(
                "UPDATE sessions SET revoked_at = $2, revoked_reason = 'password_changed' \
                 WHERE user_id = $1 AND revoked_at IS NULL AND ($3 IS NULL OR id <> $3)",
            )
            .bind(user_id)
            .bind(now)
            .bind(keep_session)
            .execute(&mut *tx)
            .await?
            .rows_affected();
            if ended > 0 {
                notify_revoked!(self, tx, Revoked::User(user_id));
            }
            // A reset link mailed before the change must not undo it.
            sqlx::query(VOID_TOKENS_OF_KIND)
                .bind(user_id)
                .bind(now)
                .bind(EmailTokenKind::Reset.as_str())
                .execute(&mut *tx)
                .await?;
            bind_mail!(mail).execute(&mut *tx).await?;
            tx.commit().await?;
            Ok::<_, sqlx::Error>(())
        })?;
        // Every session but the kept one ended; dropping the kept one's cached tokens too only
        // costs it one more session check.
        self.revoked(Revoked::User(user_id));
        Ok(())
    }

    pub async fn list_users(&self, limit: i64) -> Result<Vec<UserRow>, sqlx::Error> {
        let sql = format!("SELECT {USER_COLUMNS} FROM users ORDER BY created_at DESC LIMIT $1");
        dispatch!(self, |p| sqlx::query_as::<_, UserRow>(&sql)
            .bind(limit)
            .fetch_all(p)
            .await)
    }
}
