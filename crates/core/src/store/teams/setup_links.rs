//! The owner's setup links for IT (migration 0035): the link (its token hashed), its draft single
//! sign-on connection and last test sign-in, what IT completed through it, and the end of it
//! (revoked by the owner, or finished by IT with the owner's mail in the same transaction).

use closewise_domain::setup_links::{store_steps, stored_steps, SetupStep};
use time::OffsetDateTime;
use uuid::Uuid;

use crate::store::audit::{commit_audited, NewAudit};
use crate::store::mail::bind_mail;
use crate::store::{dispatch, NewMail, Store};

#[derive(Clone, Debug, sqlx::FromRow)]
pub struct SetupLinkRow {
    pub id: Uuid,
    pub team_id: Uuid,
    /// `closewise_domain::setup_links::store_steps`.
    pub steps: String,
    /// The owner's address when they made it.
    pub created_by: String,
    pub created_at: OffsetDateTime,
    pub expires_at: OffsetDateTime,
    pub revoked_at: Option<OffsetDateTime>,
    pub finished_at: Option<OffsetDateTime>,
    /// The steps IT completed, stored as `steps` is.
    pub done: String,
    /// The draft single sign-on connection (JSON, `sso::Draft`).
    pub draft: Option<String>,
    /// `passed` or `failed`.
    pub test_result: Option<String>,
    pub test_error: Option<String>,
    pub test_email: Option<String>,
    pub test_at: Option<OffsetDateTime>,
}

pub struct NewSetupLink<'a> {
    pub id: Uuid,
    pub team_id: Uuid,
    pub token_hash: &'a str,
    pub steps: &'a str,
    pub created_by: &'a str,
    pub created_at: OffsetDateTime,
    pub expires_at: OffsetDateTime,
}

/// A test sign-in's result.
pub struct SetupTest<'a> {
    pub passed: bool,
    pub error: Option<&'a str>,
    pub email: Option<&'a str>,
    pub at: OffsetDateTime,
}

const LINK_COLUMNS: &str = "id, team_id, steps, created_by, created_at, expires_at, revoked_at, \
    finished_at, done, draft, test_result, test_error, test_email, test_at";

impl Store {
    pub async fn insert_setup_link(
        &self,
        link: &NewSetupLink<'_>,
        audit: &NewAudit,
    ) -> Result<(), sqlx::Error> {
        dispatch!(self, |p| {
            let mut tx = crate::store::begin::begin(p).await?;
            sqlx::query(
                "INSERT INTO team_setup_links (id, team_id, token_hash, steps, created_by, \
                 created_at, expires_at) VALUES ($1, $2, $3, $4, $5, $6, $7)",
            )
            .bind(link.id)
            .bind(link.team_id)
            .bind(link.token_hash)
            .bind(link.steps)
            .bind(link.created_by)
            .bind(link.created_at)
            .bind(link.expires_at)
            .execute(&mut *tx)
            .await?;
            commit_audited!(self, tx, Some(audit));
            Ok(())
        })
    }

    /// The team's links, newest first, at most `limit`.
    pub async fn setup_links(
        &self,
        team_id: Uuid,
        limit: i64,
    ) -> Result<Vec<SetupLinkRow>, sqlx::Error> {
        let sql = format!(
            "SELECT {LINK_COLUMNS} FROM team_setup_links WHERE team_id = $1 \
             ORDER BY created_at DESC, id DESC LIMIT $2"
        );
        dispatch!(self, |p| sqlx::query_as::<_, SetupLinkRow>(&sql)
            .bind(team_id)
            .bind(limit)
            .fetch_all(p)
            .await)
    }

    pub async fn setup_link(&self, id: Uuid) -> Result<Option<SetupLinkRow>, sqlx::Error> {
        let sql = format!("SELECT {LINK_COLUMNS} FROM team_setup_links WHERE id = $1");
        dispatch!(self, |p| sqlx::query_as::<_, SetupLinkRow>(&sql)
            .bind(id)
            .fetch_optional(p)
            .await)
    }

    pub async fn setup_link_by_token(
        &self,
        token_hash: &str,
    ) -> Result<Option<SetupLinkRow>, sqlx::Error> {
        let sql = format!("SELECT {LINK_COLUMNS} FROM team_setup_links WHERE token_hash = $1");
        dispatch!(self, |p| sqlx::query_as::<_, SetupLinkRow>(&sql)
            .bind(token_hash)
            .fetch_optional(p)
            .await)
    }

    /// Revokes the team's open link with `audit`; false (nothing written) when it is not open.
    pub async fn revoke_setup_link(
        &self,
        team_id: Uuid,
        id: Uuid,
        now: OffsetDateTime,
        audit: &NewAudit,
    ) -> Result<bool, sqlx::Error> {
        let sql = "UPDATE team_setup_links SET revoked_at = $3 WHERE id = $1 AND team_id = $2 \
             AND revoked_at IS NULL AND finished_at IS NULL AND expires_at > $3";
        super::audited::audited_one!(
            self,
            Some(audit),
            sqlx::query(sql).bind(id).bind(team_id).bind(now)
        )
    }

    /// Finishes the open link with `audit` and the owner's `mail` in one transaction; false
    /// (nothing written) when it is not open.
    pub async fn finish_setup_link(
        &self,
        id: Uuid,
        now: OffsetDateTime,
        audit: &NewAudit,
        mail: Option<&NewMail>,
    ) -> Result<bool, sqlx::Error> {
        dispatch!(self, |p| {
            let mut tx = crate::store::begin::begin(p).await?;
            let changed = sqlx::query(
                "UPDATE team_setup_links SET finished_at = $2 WHERE id = $1 \
                 AND revoked_at IS NULL AND finished_at IS NULL AND expires_at > $2",
            )
            .bind(id)
            .bind(now)
            .execute(&mut *tx)
            .await?
            .rows_affected()
                == 1;
            if !changed {
                return Ok(false);
            }
            if let Some(mail) = mail {
                bind_mail!(mail).execute(&mut *tx).await?;
            }
            commit_audited!(self, tx, Some(audit));
            Ok(true)
        })
    }

    /// Stores the link's draft connection; the last test's result is cleared (it tested another).
    pub async fn set_setup_link_draft(&self, id: Uuid, draft: &str) -> Result<(), sqlx::Error> {
        dispatch!(self, |p| sqlx::query(
            "UPDATE team_setup_links SET draft = $2, test_result = NULL, test_error = NULL, \
             test_email = NULL, test_at = NULL WHERE id = $1"
        )
        .bind(id)
        .bind(draft)
        .execute(p)
        .await
        .map(|_| ()))
    }

    pub async fn set_setup_link_test(
        &self,
        id: Uuid,
        test: &SetupTest<'_>,
    ) -> Result<(), sqlx::Error> {
        dispatch!(self, |p| sqlx::query(
            "UPDATE team_setup_links SET test_result = $2, test_error = $3, test_email = $4, \
             test_at = $5 WHERE id = $1"
        )
        .bind(id)
        .bind(if test.passed { "passed" } else { "failed" })
        .bind(test.error)
        .bind(test.email)
        .bind(test.at)
        .execute(p)
        .await
        .map(|_| ()))
    }

    /// Records that IT completed `step` through the link.
    pub async fn mark_setup_link_done(&self, id: Uuid, step: SetupStep) -> Result<(), sqlx::Error> {
        let Some(link) = self.setup_link(id).await? else {
            return Ok(());
        };
        let mut done = stored_steps(&link.done);
        done.push(step);
        let done = store_steps(&done);
        dispatch!(self, |p| sqlx::query(
            "UPDATE team_setup_links SET done = $2 WHERE id = $1"
        )
        .bind(id)
        .bind(&done)
        .execute(p)
        .await
        .map(|_| ()))
    }

    /// Deletes the links that ended (expired, revoked or finished) before `cutoff` (the
    /// sweeper's, 30 days on).
    pub async fn delete_old_setup_links(&self, cutoff: OffsetDateTime) -> Result<u64, sqlx::Error> {
        dispatch!(self, |p| sqlx::query(
            "DELETE FROM team_setup_links WHERE expires_at < $1 OR revoked_at < $1 \
             OR finished_at < $1"
        )
        .bind(cutoff)
        .execute(p)
        .await
        .map(|r| r.rows_affected()))
    }
}
