//! What operators do to accounts through the CLI. Each change is written together with its audit
//! row in one transaction, so the trail never misses a change nor records one that did not happen.

use closewise_domain::signup::{confirmation, Confirmation};
use time::OffsetDateTime;
use uuid::Uuid;

use super::audit::{commit_audited, write_audit, NewAudit};
use super::billing::WebhookEventRow;
use super::plans::PlanRow;
use super::revocations::{notify_revoked, Revoked};
use super::{dispatch, domain_sql, is_unique_violation, Store};

/// A user with their plan and subscription status, as `closewise users list` shows them.
#[derive(Clone, Debug, sqlx::FromRow, serde::Serialize)]
pub struct AdminUserRow {
    pub id: Uuid,
    pub email: String,
    #[serde(with = "time::serde::rfc3339::option")]
    pub email_confirmed_at: Option<OffsetDateTime>,
    #[serde(with = "time::serde::rfc3339")]
    pub created_at: OffsetDateTime,
    pub plan_type: Option<String>,
    pub plan_status: Option<String>,
    pub subscription_status: Option<String>,
}

/// Which users to list.
#[derive(Clone, Copy, Debug, Default)]
pub struct UserFilter {
    /// Only users who have not confirmed their address.
    pub unverified: bool,
    /// Only users on the active monthly plan.
    pub paid: bool,
    /// Only users who signed up at or after this instant.
    pub since: Option<OffsetDateTime>,
}

/// A user to create as a fixture says, password already hashed.
pub struct SeedUser {
    pub id: Uuid,
    pub email: String,
    pub password_hash: String,
    pub verified: bool,
    pub plan_type: &'static str,
    pub now: OffsetDateTime,
}

#[derive(Debug, PartialEq, Eq)]
pub enum SeedOutcome {
    Created,
    AlreadyRegistered,
}

const PLAN_COLUMNS: &str = "id, user_id, plan_type, status, plan_started_at, plan_updated_at, \
    created_at, updated_at, stripe_subscription_id, stripe_customer_id, subscription_id";

impl Store {
    /// Newest first. Times are compared in SQL here: every timestamp is written in UTC by the
    /// same encoder, so the order of their text (SQLite) matches the order of the instants.
    pub async fn admin_users(
        &self,
        filter: UserFilter,
        limit: i64,
    ) -> Result<Vec<AdminUserRow>, sqlx::Error> {
        let mut conditions = vec!["($1 IS NULL OR u.created_at >= $1)".to_owned()];
        if filter.unverified {
            conditions.push("u.email_confirmed_at IS NULL".into());
        }
        if filter.paid {
            conditions.push(domain_sql(
                "p.plan_type = '{monthly}' AND p.status = '{active}'",
            ));
        }
        let sql = format!(
            "SELECT u.id, u.email, u.email_confirmed_at, u.created_at, p.plan_type, \
             p.status AS plan_status, s.status AS subscription_status \
             FROM users u LEFT JOIN user_plans p ON p.user_id = u.id \
             LEFT JOIN subscriptions s ON s.user_id = u.id \
             WHERE {} ORDER BY u.created_at DESC, u.id DESC LIMIT $2",
            conditions.join(" AND ")
        );
        dispatch!(self, |p| sqlx::query_as::<_, AdminUserRow>(&sql)
            .bind(filter.since)
            .bind(limit)
            .fetch_all(p)
            .await)
    }

    /// The user's plan row, without creating one (unlike `plan_for`).
    pub async fn plan_of(&self, user_id: Uuid) -> Result<Option<PlanRow>, sqlx::Error> {
        let sql = format!("SELECT {PLAN_COLUMNS} FROM user_plans WHERE user_id = $1");
        dispatch!(self, |p| sqlx::query_as::<_, PlanRow>(&sql)
            .bind(user_id)
            .fetch_optional(p)
            .await)
    }

    /// Confirms the user's address (`None`, and no audit row, when it already was). After sign-ups
    /// that disagreed (`closewise_domain::signup`) the password on the row may be another person's:
    /// it is replaced by `unusable_hash`, and the user sets one with "Forgot password?", as the
    /// verification link would have them do.
    pub async fn verify_user(
        &self,
        user_id: Uuid,
        unusable_hash: &str,
        audit: &NewAudit,
    ) -> Result<Option<Confirmation>, sqlx::Error> {
        dispatch!(self, |p| {
            let mut tx = crate::store::begin::begin(p).await?;
            // Locks the row (SQLite holds the write lock from here) so a sign-up counted meanwhile
            // is counted before we read.
            sqlx::query("UPDATE users SET updated_at = updated_at WHERE id = $1")
                .bind(user_id)
                .execute(&mut *tx)
                .await?;
            let (signups,): (i64,) =
                sqlx::query_as("SELECT CAST(signup_passwords AS BIGINT) FROM users WHERE id = $1")
                    .bind(user_id)
                    .fetch_one(&mut *tx)
                    .await?;
            let rule = confirmation(u32::try_from(signups).unwrap_or(u32::MAX));
            let password_hash = match rule {
                Confirmation::OneClick => None,
                Confirmation::ChoosePassword => Some(unusable_hash),
            };
            let changed = sqlx::query(
                "UPDATE users SET email_confirmed_at = $2, updated_at = $2, \
                 password_hash = COALESCE($3, password_hash) \
                 WHERE id = $1 AND email_confirmed_at IS NULL",
            )
            .bind(user_id)
            .bind(audit.now)
            .bind(password_hash)
            .execute(&mut *tx)
            .await?
            .rows_affected()
                == 1;
            if changed {
                write_audit!(self, tx, audit);
                notify_revoked!(self, tx, Revoked::Reads(user_id));
            }
            tx.commit().await?;
            if changed {
                self.revoked(Revoked::Reads(user_id));
            }
            Ok(changed.then_some(rule))
        })
    }

    /// Ends every active session of the user; returns how many there were. The audit row is
    /// written even when there were none: the operator's intent is part of the story.
    pub async fn sign_out_user(&self, user_id: Uuid, audit: &NewAudit) -> Result<u64, sqlx::Error> {
        let n = dispatch!(self, |p| {
            let mut tx = crate::store::begin::begin(p).await?;
            let n = sqlx::query(
                "UPDATE sessions SET revoked_at = $2, revoked_reason = 'operator' \
                 WHERE user_id = $1 AND revoked_at IS NULL",
            )
            .bind(user_id)
            .bind(audit.now)
            .execute(&mut *tx)
            .await?
            .rows_affected();
            if n > 0 {
                notify_revoked!(self, tx, Revoked::User(user_id));
            }
            write_audit!(self, tx, audit);
            tx.commit().await?;
            Ok::<_, sqlx::Error>(n)
        })?;
        if n > 0 {
            self.revoked(Revoked::User(user_id));
        }
        Ok(n)
    }

    /// Sets the plan (creating the row if missing) and returns the plan it had. Going free
    /// forgets the subscription the plan came from, so a later sync can grant it again; going
    /// monthly by hand keeps whatever Stripe ids the row had. `audit` None is for fixtures.
    pub async fn set_plan(
        &self,
        user_id: Uuid,
        plan_type: &'static str,
        now: OffsetDateTime,
        audit: Option<&NewAudit>,
    ) -> Result<Option<String>, sqlx::Error> {
        dispatch!(self, |p| {
            let mut tx = crate::store::begin::begin(p).await?;
            let before: Option<String> =
                sqlx::query_scalar("SELECT plan_type FROM user_plans WHERE user_id = $1")
                    .bind(user_id)
                    .fetch_optional(&mut *tx)
                    .await?;
            sqlx::query(&domain_sql("INSERT INTO user_plans (id, user_id, plan_type, status, plan_started_at, \
                 plan_updated_at, created_at, updated_at) VALUES ($1, $2, $3, '{active}', $4, $4, $4, $4) \
                 ON CONFLICT (user_id) DO UPDATE SET plan_type = excluded.plan_type, status = '{active}', \
                 plan_started_at = CASE WHEN user_plans.plan_type = excluded.plan_type \
                    THEN user_plans.plan_started_at ELSE excluded.plan_started_at END, \
                 plan_updated_at = excluded.plan_updated_at, updated_at = excluded.updated_at, \
                 stripe_subscription_id = CASE WHEN excluded.plan_type = '{free}' THEN NULL \
                    ELSE user_plans.stripe_subscription_id END, \
                 subscription_id = CASE WHEN excluded.plan_type = '{free}' THEN NULL \
                    ELSE user_plans.subscription_id END"))
            .bind(Uuid::now_v7())
            .bind(user_id)
            .bind(plan_type)
            .bind(now)
            .execute(&mut *tx)
            .await?;
            notify_revoked!(self, tx, Revoked::Reads(user_id));
            commit_audited!(self, tx, audit);
            self.revoked(Revoked::Reads(user_id));
            Ok(before)
        })
    }

    /// Puts a pending or failed mail back in the queue, due now, and records it. False when the
    /// mail does not exist or was already delivered.
    pub async fn retry_mail_audited(
        &self,
        id: Uuid,
        audit: &NewAudit,
    ) -> Result<bool, sqlx::Error> {
        dispatch!(self, |p| {
            let mut tx = crate::store::begin::begin(p).await?;
            let changed = sqlx::query(
                "UPDATE mail_outbox SET failed_at = NULL, attempts = 0, due_at_ms = $2 \
                 WHERE id = $1 AND sent_at IS NULL",
            )
            .bind(id)
            .bind(super::mail::unix_ms(audit.now))
            .execute(&mut *tx)
            .await?
            .rows_affected()
                == 1;
            if changed {
                write_audit!(self, tx, audit);
            }
            tx.commit().await?;
            Ok(changed)
        })
    }

    /// Creates a user and their plan as a fixture describes them, with the audit row.
    pub async fn seed_user(
        &self,
        user: &SeedUser,
        audit: &NewAudit,
    ) -> Result<SeedOutcome, sqlx::Error> {
        let confirmed = user.verified.then_some(user.now);
        dispatch!(self, |p| {
            let mut tx = crate::store::begin::begin(p).await?;
            let inserted = sqlx::query(
                "INSERT INTO users (id, email, password_hash, email_confirmed_at, created_at, updated_at) \
                 VALUES ($1, $2, $3, $4, $5, $5)",
            )
            .bind(user.id)
            .bind(&user.email)
            .bind(&user.password_hash)
            .bind(confirmed)
            .bind(user.now)
            .execute(&mut *tx)
            .await;
            match inserted {
                Err(e) if is_unique_violation(&e) => return Ok(SeedOutcome::AlreadyRegistered),
                Err(e) => return Err(e),
                Ok(_) => {}
            }
            sqlx::query(&domain_sql("INSERT INTO user_plans (id, user_id, plan_type, status, plan_started_at, \
                 plan_updated_at, created_at, updated_at) VALUES ($1, $2, $3, '{active}', $4, $4, $4, $4)"))
            .bind(Uuid::now_v7())
            .bind(user.id)
            .bind(user.plan_type)
            .bind(user.now)
            .execute(&mut *tx)
            .await?;
            write_audit!(self, tx, audit);
            tx.commit().await?;
            Ok(SeedOutcome::Created)
        })
    }

    /// One webhook event as received, by Stripe's event id.
    pub async fn webhook_event(
        &self,
        event_id: &str,
    ) -> Result<Option<WebhookEventRow>, sqlx::Error> {
        dispatch!(self, |p| {
            sqlx::query_as::<_, WebhookEventRow>(
            "SELECT event_id, type, received_at, processed_at, attempts, error FROM webhook_events \
             WHERE event_id = $1"
        )
        .bind(event_id)
        .fetch_optional(p)
        .await
        })
    }
}
