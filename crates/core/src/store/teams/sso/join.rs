//! The first SSO sign-in, which makes the account and the membership under the team's lock,
//! taking a seat; the sessions SSO started, and those Require SSO ends.

use closewise_domain::teams::Role;
use closewise_domain::teams::Seats;
use time::OffsetDateTime;
use uuid::Uuid;

use super::super::seats::{join_team, locked, seats_in, written, AcceptOutcome};
use super::super::{count, withdraw_invites_sql, OPEN};
use crate::store::audit::NewAudit;
use crate::store::revocations::Revoked;
use crate::store::tokens::confirm_vouched;
use crate::store::{dispatch, domain_sql, is_unique_violation, Pool, Store};

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
