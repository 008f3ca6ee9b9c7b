//! The sign-ins on their way through the provider (single use: taken by whichever replica gets
//! the callback), and the SAML assertions already used (each once).

use time::OffsetDateTime;
use uuid::Uuid;

use crate::store::{dispatch, Store};

/// A sign-in waiting for its callback.
#[derive(Clone, Debug, sqlx::FromRow)]
pub struct SsoLoginRow {
    pub team_id: Uuid,
    pub nonce: String,
    pub pkce_verifier: String,
    pub next_path: Option<String>,
    /// The owner's "Test connection": checked, but nobody is signed in or created.
    pub test: bool,
    pub expires_at: OffsetDateTime,
    /// SAML: the address the ACS's verified response vouched for (the callback then finishes).
    pub saml_email: Option<String>,
    /// A test sign-in of this setup link's draft connection (migration 0035): checked against
    /// the draft, and nobody is signed in or created.
    pub setup_link_id: Option<Uuid>,
}

pub struct NewSsoLogin<'a> {
    pub state_hash: &'a str,
    pub team_id: Uuid,
    pub nonce: &'a str,
    pub pkce_verifier: &'a str,
    pub next_path: Option<&'a str>,
    pub test: bool,
    pub now: OffsetDateTime,
    pub expires_at: OffsetDateTime,
    /// SAML, an unsolicited response: already verified.
    pub saml_email: Option<&'a str>,
    pub setup_link_id: Option<Uuid>,
}

impl Store {
    pub async fn insert_sso_login(&self, l: &NewSsoLogin<'_>) -> Result<(), sqlx::Error> {
        dispatch!(self, |p| sqlx::query(
            "INSERT INTO sso_logins (state_hash, team_id, nonce, pkce_verifier, next_path, test, \
             created_at, expires_at, saml_email, setup_link_id) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)"
        )
        .bind(l.state_hash)
        .bind(l.team_id)
        .bind(l.nonce)
        .bind(l.pkce_verifier)
        .bind(l.next_path)
        .bind(l.test)
        .bind(l.now)
        .bind(l.expires_at)
        .bind(l.saml_email)
        .bind(l.setup_link_id)
        .execute(p)
        .await
        .map(|_| ()))
    }

    /// Takes the sign-in of `state_hash` (deleted: a state works once), expired or not.
    pub async fn take_sso_login(
        &self,
        state_hash: &str,
    ) -> Result<Option<SsoLoginRow>, sqlx::Error> {
        dispatch!(self, |p| sqlx::query_as::<_, SsoLoginRow>(
            "DELETE FROM sso_logins WHERE state_hash = $1 \
             RETURNING team_id, nonce, pkce_verifier, next_path, test, expires_at, saml_email, \
             setup_link_id"
        )
        .bind(state_hash)
        .fetch_optional(p)
        .await)
    }

    /// The sign-in of `state_hash`, left in place (the SAML ACS reads it; the callback takes it).
    pub async fn sso_login(&self, state_hash: &str) -> Result<Option<SsoLoginRow>, sqlx::Error> {
        dispatch!(self, |p| sqlx::query_as::<_, SsoLoginRow>(
            "SELECT team_id, nonce, pkce_verifier, next_path, test, expires_at, saml_email, \
             setup_link_id \
             FROM sso_logins WHERE state_hash = $1"
        )
        .bind(state_hash)
        .fetch_optional(p)
        .await)
    }

    /// Records the address a SAML response vouched for on its sign-in, once: false when the
    /// sign-in is gone or already has one.
    pub async fn set_sso_login_saml_email(
        &self,
        state_hash: &str,
        email: &str,
    ) -> Result<bool, sqlx::Error> {
        dispatch!(self, |p| Ok(sqlx::query(
            "UPDATE sso_logins SET saml_email = $2 WHERE state_hash = $1 AND saml_email IS NULL"
        )
        .bind(state_hash)
        .bind(email)
        .execute(p)
        .await?
        .rows_affected()
            == 1))
    }

    /// Marks a SAML assertion of the team used until `expires_at`: false when it already was
    /// (a replay).
    pub async fn use_saml_assertion(
        &self,
        team_id: Uuid,
        assertion_id: &str,
        expires_at: OffsetDateTime,
    ) -> Result<bool, sqlx::Error> {
        dispatch!(self, |p| Ok(sqlx::query(
            "INSERT INTO saml_assertions (team_id, assertion_id, expires_at) VALUES ($1, $2, $3) \
             ON CONFLICT (team_id, assertion_id) DO NOTHING"
        )
        .bind(team_id)
        .bind(assertion_id)
        .bind(expires_at)
        .execute(p)
        .await?
        .rows_affected()
            == 1))
    }

    /// Deletes sign-ins that expired by `now` (by the sweeper): they can no longer
    /// finish, and a late callback hears `sso_login_expired` either way; and the used SAML
    /// assertions that could no longer be presented.
    pub async fn delete_expired_sso_logins(&self, now: OffsetDateTime) -> Result<u64, sqlx::Error> {
        dispatch!(self, |p| {
            let assertions = sqlx::query("DELETE FROM saml_assertions WHERE expires_at <= $1")
                .bind(now)
                .execute(p)
                .await?
                .rows_affected();
            Ok(sqlx::query("DELETE FROM sso_logins WHERE expires_at <= $1")
                .bind(now)
                .execute(p)
                .await?
                .rows_affected()
                + assertions)
        })
    }
}
