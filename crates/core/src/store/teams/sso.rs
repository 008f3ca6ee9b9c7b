//! A team's single sign-on (migration 0016): its OpenID Connect connection (the client secret
//! sealed by the service, never read back by an adapter), the sign-ins on their way through the
//! provider (single use: taken by whichever replica gets the callback), and the first sign-in that
//! makes the account and the membership under the team's lock, taking a seat.

use closewise_domain::teams::Role;
use time::OffsetDateTime;
use uuid::Uuid;

use super::seats::{join_team, locked, seats_in, written, AcceptOutcome};
use super::{count, withdraw_invites_sql, OPEN};
use crate::store::audit::{commit_audited, NewAudit};
use crate::store::revocations::{notify_revoked, Revoked};
use crate::store::tokens::confirm_vouched;
use crate::store::{dispatch, domain_sql, is_unique_violation, Pool, Store};
use closewise_domain::teams::Seats;

#[derive(Clone, Debug, sqlx::FromRow)]
pub struct TeamSsoRow {
    pub team_id: Uuid,
    pub issuer: String,
    pub client_id: String,
    /// `SecretBox::seal(team_id, secret)`.
    pub client_secret_sealed: String,
    pub authorization_endpoint: String,
    pub token_endpoint: String,
    pub jwks_uri: String,
    /// The discovery document's `userinfo_endpoint` (migration 0031).
    pub userinfo_endpoint: Option<String>,
    /// `closewise_domain::sso::EmailClaim::as_str`.
    pub email_claim: String,
    pub required: bool,
    pub created_at: OffsetDateTime,
    pub updated_at: OffsetDateTime,
    /// `closewise_domain::sso::Protocol::as_str`. A SAML connection keeps the IdP's entity ID in
    /// `issuer` and its SSO URL in `authorization_endpoint`; its OpenID columns are empty.
    pub protocol: String,
    /// SAML: the IdP's signing certificates, a JSON array of base64 DER.
    pub saml_certificates: Option<String>,
    pub saml_metadata_url: Option<String>,
    /// SAML: the attribute carrying the address; None: the NameID.
    pub saml_email_attribute: Option<String>,
    /// SAML: unsolicited (IdP-initiated) responses are accepted.
    pub saml_idp_initiated: bool,
}

const SSO_COLUMNS: &str = "team_id, issuer, client_id, client_secret_sealed, \
    authorization_endpoint, token_endpoint, jwks_uri, userinfo_endpoint, email_claim, required, \
    created_at, updated_at, protocol, saml_certificates, saml_metadata_url, saml_email_attribute, \
    saml_idp_initiated";

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
}

/// A new account made by its first SSO sign-in: verified by the provider, with a password hash
/// nobody knows the password of (it signs in by SSO, or resets a password when allowed).
pub struct NewSsoUser<'a> {
    pub id: Uuid,
    pub email: &'a str,
    /// `Hasher::unusable_hash`: the new account's, and the one an unconfirmed account it confirms
    /// gets instead of the password whoever signed up chose.
    pub password_hash: &'a str,
    pub plan_id: Uuid,
    /// Seated by the team's directory (SCIM), whose own deactivation is then not checked: this is
    /// its reactivation.
    pub by_directory: bool,
}

impl Store {
    pub async fn team_sso(&self, team_id: Uuid) -> Result<Option<TeamSsoRow>, sqlx::Error> {
        let sql = format!("SELECT {SSO_COLUMNS} FROM team_sso WHERE team_id = $1");
        dispatch!(self, |p| sqlx::query_as::<_, TeamSsoRow>(&sql)
            .bind(team_id)
            .fetch_optional(p)
            .await)
    }

    /// Creates or replaces the team's connection, with its audit row. Its `required` is the
    /// policy's `require_sso` in every member's entitlements: announced (`Revoked::AllReads`).
    pub async fn save_team_sso(
        &self,
        row: &TeamSsoRow,
        updated_by: Option<Uuid>,
        audit: &NewAudit,
    ) -> Result<(), sqlx::Error> {
        dispatch!(self, |p| {
            let mut tx = crate::store::begin::begin(p).await?;
            sqlx::query(
                "INSERT INTO team_sso (team_id, issuer, client_id, client_secret_sealed, \
                 authorization_endpoint, token_endpoint, jwks_uri, required, updated_by, \
                 created_at, updated_at, userinfo_endpoint, email_claim, protocol, \
                 saml_certificates, saml_metadata_url, saml_email_attribute, saml_idp_initiated) \
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $10, $11, $12, $13, $14, $15, \
                 $16, $17) \
                 ON CONFLICT (team_id) DO UPDATE SET issuer = $2, client_id = $3, \
                 client_secret_sealed = $4, authorization_endpoint = $5, token_endpoint = $6, \
                 jwks_uri = $7, required = $8, updated_by = $9, updated_at = $10, \
                 userinfo_endpoint = $11, email_claim = $12, protocol = $13, \
                 saml_certificates = $14, saml_metadata_url = $15, saml_email_attribute = $16, \
                 saml_idp_initiated = $17",
            )
            .bind(row.team_id)
            .bind(&row.issuer)
            .bind(&row.client_id)
            .bind(&row.client_secret_sealed)
            .bind(&row.authorization_endpoint)
            .bind(&row.token_endpoint)
            .bind(&row.jwks_uri)
            .bind(row.required)
            .bind(updated_by)
            .bind(row.updated_at)
            .bind(&row.userinfo_endpoint)
            .bind(&row.email_claim)
            .bind(&row.protocol)
            .bind(&row.saml_certificates)
            .bind(&row.saml_metadata_url)
            .bind(&row.saml_email_attribute)
            .bind(row.saml_idp_initiated)
            .execute(&mut *tx)
            .await?;
            notify_revoked!(self, tx, Revoked::AllReads);
            commit_audited!(self, tx, Some(audit));
        });
        self.revoked(Revoked::AllReads);
        Ok(())
    }

    /// Removes the team's connection, with its audit row (announced, as `save_team_sso`); false
    /// when there was none.
    pub async fn delete_team_sso(
        &self,
        team_id: Uuid,
        audit: &NewAudit,
    ) -> Result<bool, sqlx::Error> {
        dispatch!(self, |p| {
            let mut tx = crate::store::begin::begin(p).await?;
            let n = sqlx::query("DELETE FROM team_sso WHERE team_id = $1")
                .bind(team_id)
                .execute(&mut *tx)
                .await?
                .rows_affected();
            if n == 0 {
                return Ok(false);
            }
            notify_revoked!(self, tx, Revoked::AllReads);
            commit_audited!(self, tx, Some(audit));
        });
        self.revoked(Revoked::AllReads);
        Ok(true)
    }

    /// The team's verified domains.
    pub async fn team_verified_domains(&self, team_id: Uuid) -> Result<Vec<String>, sqlx::Error> {
        dispatch!(self, |p| sqlx::query_scalar::<_, String>(
            "SELECT domain FROM team_domains WHERE team_id = $1 AND status = 'verified' \
             ORDER BY domain"
        )
        .bind(team_id)
        .fetch_all(p)
        .await)
    }

    pub async fn insert_sso_login(&self, l: &NewSsoLogin<'_>) -> Result<(), sqlx::Error> {
        dispatch!(self, |p| sqlx::query(
            "INSERT INTO sso_logins (state_hash, team_id, nonce, pkce_verifier, next_path, test, \
             created_at, expires_at, saml_email) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)"
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
             RETURNING team_id, nonce, pkce_verifier, next_path, test, expires_at, saml_email"
        )
        .bind(state_hash)
        .fetch_optional(p)
        .await)
    }

    /// The sign-in of `state_hash`, left in place (the SAML ACS reads it; the callback takes it).
    pub async fn sso_login(&self, state_hash: &str) -> Result<Option<SsoLoginRow>, sqlx::Error> {
        dispatch!(self, |p| sqlx::query_as::<_, SsoLoginRow>(
            "SELECT team_id, nonce, pkce_verifier, next_path, test, expires_at, saml_email \
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

    /// Whether SSO is required for addresses at `domain`, and of which team: `Some(team)` when a
    /// team holds the domain verified and requires SSO.
    pub async fn sso_required_at(&self, domain: &str) -> Result<Option<Uuid>, sqlx::Error> {
        dispatch!(self, |p| sqlx::query_scalar::<_, Uuid>(
            "SELECT s.team_id FROM team_sso s JOIN team_domains d ON d.team_id = s.team_id \
             WHERE d.domain = $1 AND d.status = 'verified' AND s.required"
        )
        .bind(domain)
        .fetch_optional(p)
        .await)
    }

    /// The team with SSO for addresses at `domain` (a verified domain of a team with a
    /// connection), with whether it is required.
    pub async fn sso_team_at(&self, domain: &str) -> Result<Option<Uuid>, sqlx::Error> {
        dispatch!(self, |p| sqlx::query_scalar::<_, Uuid>(
            "SELECT s.team_id FROM team_sso s JOIN team_domains d ON d.team_id = s.team_id \
             WHERE d.domain = $1 AND d.status = 'verified'"
        )
        .bind(domain)
        .fetch_optional(p)
        .await)
    }

    /// Under the team's lock: the account of `email` becomes a member (the account is created,
    /// verified, when there is none; an existing unconfirmed one is confirmed, the provider vouched
    /// for the address, by `confirm_vouched!`: its password becomes `new.password_hash`, its
    /// sessions end, its links are voided). A member of this team already is `Joined` with nothing
    /// else written; a free seat is needed otherwise (the team's open invitations of the address
    /// are withdrawn first: their seat is this one), and a refusal writes nothing: so is an address
    /// the team's directory deactivated (`Deactivated`, unless `new.by_directory`). `audit`, its
    /// `user_id` the account's, is written in the same transaction when it is `Joined`.
    /// The person's cached reads (their account confirmed, their team's plan) are announced
    /// changed once they joined.
    pub async fn sso_join(
        &self,
        team_id: Uuid,
        new: &NewSsoUser<'_>,
        now: OffsetDateTime,
        audit: Option<&NewAudit>,
    ) -> Result<AcceptOutcome, sqlx::Error> {
        let before = self.user_by_email(new.email).await?;
        let outcome = self.sso_join_unannounced(team_id, new, now, audit).await?;
        if outcome == AcceptOutcome::Joined {
            if let Some(user) = self.user_by_email(new.email).await? {
                self.announce(Revoked::Reads(user.id)).await?;
                if before.is_some_and(|b| b.email_confirmed_at.is_none()) {
                    // Confirmed now: its sessions ended.
                    self.announce(Revoked::User(user.id)).await?;
                }
            }
        }
        Ok(outcome)
    }

    #[tracing::instrument(skip_all, fields(team_id = %team_id))]
    async fn sso_join_unannounced(
        &self,
        team_id: Uuid,
        new: &NewSsoUser<'_>,
        now: OffsetDateTime,
        audit: Option<&NewAudit>,
    ) -> Result<AcceptOutcome, sqlx::Error> {
        let about = |user_id: Uuid| {
            audit.cloned().map(|mut a| {
                a.user_id = Some(user_id);
                a
            })
        };
        let plan = domain_sql(
            "INSERT INTO user_plans (id, user_id, plan_type, status, plan_started_at, \
             plan_updated_at, created_at, updated_at) VALUES ($1, $2, '{free}', '{active}', \
             $3, $3, $3, $3)",
        );
        let withdraw = withdraw_invites_sql();
        Ok(locked!(
            self,
            team_id,
            AcceptOutcome::NoTeam,
            |tx, total| {
                let existing: Option<Uuid> =
                    sqlx::query_scalar("SELECT id FROM users WHERE email = $1")
                        .bind(new.email)
                        .fetch_optional(&mut *tx)
                        .await?;
                let user_id = match existing {
                    Some(id) => {
                        let team: Option<Uuid> = sqlx::query_scalar(
                            "SELECT team_id FROM team_members WHERE user_id = $1",
                        )
                        .bind(id)
                        .fetch_optional(&mut *tx)
                        .await?;
                        if team == Some(team_id) {
                            confirm_vouched!(tx, id, new.password_hash, now);
                            let audit = about(id);
                            written!(self, tx, None, audit.as_ref());
                            tx.commit().await?;
                            return Ok(AcceptOutcome::Joined);
                        }
                        confirm_vouched!(tx, id, new.password_hash, now);
                        id
                    }
                    None => {
                        let inserted = sqlx::query(
                            "INSERT INTO users (id, email, password_hash, email_confirmed_at, \
                         created_at, updated_at) VALUES ($1, $2, $3, $4, $4, $4)",
                        )
                        .bind(new.id)
                        .bind(new.email)
                        .bind(new.password_hash)
                        .bind(now)
                        .execute(&mut *tx)
                        .await;
                        match inserted {
                            // Signed up meanwhile: the caller tries again and finds the account.
                            Err(e) if is_unique_violation(&e) => return Ok(AcceptOutcome::Spent),
                            Err(e) => return Err(e),
                            Ok(_) => {}
                        }
                        sqlx::query(&plan)
                            .bind(new.plan_id)
                            .bind(new.id)
                            .bind(now)
                            .execute(&mut *tx)
                            .await?;
                        new.id
                    }
                };
                // An invitation of the address holds the seat this membership takes.
                sqlx::query(&withdraw)
                    .bind(team_id)
                    .bind(new.email)
                    .bind(now)
                    .execute(&mut *tx)
                    .await?;
                let role = Role::Member;
                let check_directory = !new.by_directory;
                let joined = join_team!(
                    tx,
                    team_id,
                    total,
                    now,
                    user_id,
                    role,
                    None,
                    check_directory
                );
                let audit = about(user_id);
                written!(self, tx, None, audit.as_ref());
                joined
            }
        ))
    }

    /// Stamps a session as started by SSO (Require SSO keeps it).
    pub async fn stamp_sso(
        &self,
        session_id: Uuid,
        now: OffsetDateTime,
    ) -> Result<(), sqlx::Error> {
        dispatch!(self, |p| sqlx::query(
            "UPDATE sessions SET sso_at = $2 WHERE id = $1"
        )
        .bind(session_id)
        .bind(now)
        .execute(p)
        .await
        .map(|_| ()))
    }

    /// Whether single sign-on started `session_id`; `None` for an unknown session.
    pub async fn session_started_by_sso(
        &self,
        session_id: Uuid,
    ) -> Result<Option<bool>, sqlx::Error> {
        dispatch!(self, |p| sqlx::query_scalar::<_, Option<OffsetDateTime>>(
            "SELECT sso_at FROM sessions WHERE id = $1"
        )
        .bind(session_id)
        .fetch_optional(p)
        .await
        .map(|at| at.map(|at| at.is_some())))
    }

    /// The active sessions of `user_id` that SSO did not start.
    pub async fn non_sso_sessions(&self, user_id: Uuid) -> Result<Vec<Uuid>, sqlx::Error> {
        dispatch!(self, |p| sqlx::query_scalar::<_, Uuid>(
            "SELECT id FROM sessions WHERE user_id = $1 AND revoked_at IS NULL AND sso_at IS NULL"
        )
        .bind(user_id)
        .fetch_all(p)
        .await)
    }
}

impl Store {
    /// Whether `email` must sign in by SSO: its domain is verified by a team that requires SSO,
    /// and it is not that team's owner's (the owner keeps the password as a break-glass way in).
    pub async fn sso_required_for(&self, email: &str) -> Result<bool, sqlx::Error> {
        let Some((_, domain)) = email.rsplit_once('@') else {
            return Ok(false);
        };
        let Some(team_id) = self.sso_required_at(domain).await? else {
            return Ok(false);
        };
        let owner: Option<Uuid> = dispatch!(self, |p| sqlx::query_scalar::<_, Uuid>(
            "SELECT t.owner_id FROM teams t JOIN users u ON u.id = t.owner_id \
             WHERE t.id = $1 AND u.email = $2"
        )
        .bind(team_id)
        .bind(email)
        .fetch_optional(p)
        .await)?;
        Ok(owner.is_none())
    }
}

impl Store {
    /// Ends every session SSO did not start (web, passkey, desktop and device sessions alike) of
    /// the accounts, members or not, whose addresses are at the team's verified domains, but the
    /// owner's: from now on they sign in by SSO. Require SSO turned on, by the SSO settings or by
    /// the policy.
    pub async fn end_password_sessions(
        &self,
        team_id: Uuid,
        now: OffsetDateTime,
    ) -> Result<u32, sqlx::Error> {
        let domains = self.team_verified_domains(team_id).await?;
        let owner = self.team_by_id(team_id).await?.map(|t| t.owner_id);
        let mut ended = 0;
        for domain in domains {
            // LIKE narrows; the exact domain is compared here (`_` is a LIKE wildcard).
            let rows: Vec<(Uuid, Uuid, String)> = dispatch!(self, |p| {
                sqlx::query_as(
                "SELECT s.id, s.user_id, u.email FROM sessions s JOIN users u ON u.id = s.user_id \
                 WHERE s.revoked_at IS NULL AND s.sso_at IS NULL AND u.email LIKE $1"
            )
            .bind(format!("%@{domain}"))
            .fetch_all(p)
            .await
            })?;
            for (session, user_id, email) in rows {
                let at_domain = email.rsplit_once('@').is_some_and(|(_, d)| d == domain);
                if !at_domain || Some(user_id) == owner {
                    continue;
                }
                if self.revoke_session(session, "sso_required", now).await? {
                    ended += 1;
                }
            }
        }
        Ok(ended)
    }
}
