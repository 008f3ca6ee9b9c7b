//! A second factor's rows (migration 0013): the authenticator app (`mfa_totp`, its secret
//! encrypted by the mfa service), hashed recovery codes, the hashed `mfa_token`s of sign-ins waiting
//! for their code, and the session's `mfa_at` stamp. Every check-and-spend is one conditional
//! statement, so racing requests cannot both pass.

use closewise_domain::mfa::{Factors, MFA_TOKEN_MAX_ATTEMPTS};
use time::OffsetDateTime;
use uuid::Uuid;

use super::mail::bind_mail;
use super::{dispatch, NewMail, Store};

#[derive(Clone, Debug, sqlx::FromRow)]
pub struct TotpRow {
    pub user_id: Uuid,
    /// The encrypted secret (sealed by the mfa service's `SecretBox`).
    pub secret: String,
    pub last_step: Option<i64>,
    pub created_at: OffsetDateTime,
    pub confirmed_at: Option<OffsetDateTime>,
}

#[derive(Clone, Debug, sqlx::FromRow)]
pub struct MfaTokenRow {
    pub id: Uuid,
    pub user_id: Uuid,
    pub client: String,
    pub ip: String,
    pub attempts: i32,
    pub created_at: OffsetDateTime,
    pub used_at: Option<OffsetDateTime>,
}

pub struct NewMfaToken<'a> {
    pub user_id: Uuid,
    pub hash: &'a str,
    pub client: &'a str,
    pub ip: &'a str,
    pub now: OffsetDateTime,
    pub expires_at: OffsetDateTime,
}

/// The counts `Factors` is made of, for the user whose id is `$user` (a parameter or a column):
/// `totp`, `recovery_codes` and `passkeys`, as columns of a `SELECT`.
macro_rules! factor_counts {
    ($user:literal) => {
        concat!(
            "(SELECT COUNT(*) FROM mfa_totp WHERE user_id = ",
            $user,
            " AND confirmed_at IS NOT NULL) AS totp, ",
            "(SELECT COUNT(*) FROM mfa_recovery_codes WHERE user_id = ",
            $user,
            " AND used_at IS NULL) AS recovery_codes, ",
            "(SELECT COUNT(*) FROM passkeys WHERE user_id = ",
            $user,
            ") AS passkeys"
        )
    };
}
pub(crate) use factor_counts;

/// `Factors` from `factor_counts!`'s columns.
pub(crate) fn factors(totp: i64, recovery_codes: i64, passkeys: i64) -> Factors {
    Factors {
        totp: totp > 0,
        recovery_codes: recovery_codes as u32,
        passkeys: passkeys as u32,
    }
}

impl Store {
    /// The factors `user_id` has enrolled. Passkeys are counted once their table exists (migration
    /// 0014): 0 until then.
    pub async fn mfa_factors(&self, user_id: Uuid) -> Result<Factors, sqlx::Error> {
        let (totp, codes, passkeys): (i64, i64, i64) = dispatch!(self, |p| sqlx::query_as(
            concat!("SELECT ", factor_counts!("$1"))
        )
        .bind(user_id)
        .fetch_one(p)
        .await)?;
        Ok(factors(totp, codes, passkeys))
    }

    pub async fn totp_of(&self, user_id: Uuid) -> Result<Option<TotpRow>, sqlx::Error> {
        dispatch!(self, |p| {
            sqlx::query_as::<_, TotpRow>(
            "SELECT user_id, secret, last_step, created_at, confirmed_at FROM mfa_totp WHERE user_id = $1"
        )
        .bind(user_id)
        .fetch_optional(p)
        .await
        })
    }

    /// Writes a pending enrolment, replacing an older pending one; false when a confirmed app
    /// exists (then nothing changes).
    pub async fn put_pending_totp(
        &self,
        user_id: Uuid,
        secret: &str,
        now: OffsetDateTime,
    ) -> Result<bool, sqlx::Error> {
        dispatch!(self, |p| {
            sqlx::query(
            "INSERT INTO mfa_totp (user_id, secret, last_step, created_at) VALUES ($1, $2, NULL, $3) \
             ON CONFLICT (user_id) DO UPDATE SET secret = excluded.secret, last_step = NULL, \
             created_at = excluded.created_at WHERE mfa_totp.confirmed_at IS NULL"
        )
        .bind(user_id)
        .bind(secret)
        .bind(now)
        .execute(p)
        .await
        .map(|r| r.rows_affected() == 1)
        })
    }

    /// Confirms the pending enrolment at `step` (its first accepted code) and stores the recovery
    /// codes' hashes, replacing any, with `mail`: false when there was no pending enrolment.
    pub async fn confirm_totp(
        &self,
        user_id: Uuid,
        step: i64,
        code_hashes: &[String],
        mail: &NewMail,
        now: OffsetDateTime,
    ) -> Result<bool, sqlx::Error> {
        dispatch!(self, |p| {
            let mut tx = crate::store::begin::begin(p).await?;
            let confirmed = sqlx::query(
                "UPDATE mfa_totp SET confirmed_at = $2, last_step = $3 \
                 WHERE user_id = $1 AND confirmed_at IS NULL",
            )
            .bind(user_id)
            .bind(now)
            .bind(step)
            .execute(&mut *tx)
            .await?
            .rows_affected()
                == 1;
            if !confirmed {
                return Ok(false);
            }
            replace_codes!(tx, user_id, code_hashes, now);
            bind_mail!(mail).execute(&mut *tx).await?;
            tx.commit().await?;
            Ok(true)
        })
    }

    /// Records `step` as the confirmed app's last accepted step, when it is later than the last
    /// one: false for a replay (or no confirmed app).
    pub async fn accept_totp_step(&self, user_id: Uuid, step: i64) -> Result<bool, sqlx::Error> {
        dispatch!(self, |p| sqlx::query(
            "UPDATE mfa_totp SET last_step = $2 WHERE user_id = $1 \
             AND confirmed_at IS NOT NULL AND (last_step IS NULL OR last_step < $2)"
        )
        .bind(user_id)
        .bind(step)
        .execute(p)
        .await
        .map(|r| r.rows_affected() == 1))
    }

    /// Spends the unused recovery code of `user_id` whose hash is `hash`: the codes left after it,
    /// or `None` when there is no such unused code.
    pub async fn use_recovery_code(
        &self,
        user_id: Uuid,
        hash: &str,
        now: OffsetDateTime,
    ) -> Result<Option<u32>, sqlx::Error> {
        dispatch!(self, |p| {
            let mut tx = crate::store::begin::begin(p).await?;
            let used = sqlx::query(
                "UPDATE mfa_recovery_codes SET used_at = $3 WHERE id = (SELECT id FROM mfa_recovery_codes \
                 WHERE user_id = $1 AND code_hash = $2 AND used_at IS NULL LIMIT 1) AND used_at IS NULL",
            )
            .bind(user_id)
            .bind(hash)
            .bind(now)
            .execute(&mut *tx)
            .await?
            .rows_affected()
                == 1;
            if !used {
                return Ok(None);
            }
            let left: i64 = sqlx::query_scalar(
                "SELECT COUNT(*) FROM mfa_recovery_codes WHERE user_id = $1 AND used_at IS NULL",
            )
            .bind(user_id)
            .fetch_one(&mut *tx)
            .await?;
            tx.commit().await?;
            Ok(Some(left as u32))
        })
    }

    /// The stored hashes of `user_id`'s recovery codes (used or not) that do not start with
    /// `prefix`.
    pub async fn recovery_code_hashes_without(
        &self,
        user_id: Uuid,
        prefix: &str,
    ) -> Result<Vec<String>, sqlx::Error> {
        // `prefix` is a constant of ours: no LIKE wildcard in it.
        dispatch!(self, |p| sqlx::query_scalar(
            "SELECT code_hash FROM mfa_recovery_codes WHERE user_id = $1 AND code_hash NOT LIKE $2"
        )
        .bind(user_id)
        .bind(format!("{prefix}%"))
        .fetch_all(p)
        .await)
    }

    /// Replaces each stored hash `old` of `user_id`'s recovery codes by its `new`, in one
    /// transaction; a hash already replaced (by a concurrent request) is left alone.
    pub async fn rekey_recovery_codes(
        &self,
        user_id: Uuid,
        rekeyed: &[(String, String)],
    ) -> Result<(), sqlx::Error> {
        dispatch!(self, |p| {
            let mut tx = crate::store::begin::begin(p).await?;
            for (old, new) in rekeyed {
                sqlx::query(
                    "UPDATE mfa_recovery_codes SET code_hash = $3 WHERE user_id = $1 AND code_hash = $2",
                )
                .bind(user_id)
                .bind(old)
                .bind(new)
                .execute(&mut *tx)
                .await?;
            }
            tx.commit().await
        })
    }

    /// Replaces the recovery codes of `user_id` (the old ones void), with `mail`.
    pub async fn replace_recovery_codes(
        &self,
        user_id: Uuid,
        code_hashes: &[String],
        mail: &NewMail,
        now: OffsetDateTime,
    ) -> Result<(), sqlx::Error> {
        dispatch!(self, |p| {
            let mut tx = crate::store::begin::begin(p).await?;
            replace_codes!(tx, user_id, code_hashes, now);
            bind_mail!(mail).execute(&mut *tx).await?;
            tx.commit().await
        })
    }

    /// Removes the app (confirmed or pending) and the recovery codes, with `mail`: false when
    /// there was no app.
    pub async fn remove_totp(
        &self,
        user_id: Uuid,
        mail: Option<&NewMail>,
    ) -> Result<bool, sqlx::Error> {
        dispatch!(self, |p| {
            let mut tx = crate::store::begin::begin(p).await?;
            let removed = sqlx::query("DELETE FROM mfa_totp WHERE user_id = $1")
                .bind(user_id)
                .execute(&mut *tx)
                .await?
                .rows_affected()
                > 0;
            sqlx::query("DELETE FROM mfa_recovery_codes WHERE user_id = $1")
                .bind(user_id)
                .execute(&mut *tx)
                .await?;
            if let (true, Some(mail)) = (removed, mail) {
                bind_mail!(mail).execute(&mut *tx).await?;
            }
            tx.commit().await?;
            Ok(removed)
        })
    }

    pub async fn insert_mfa_token(&self, t: &NewMfaToken<'_>) -> Result<(), sqlx::Error> {
        dispatch!(self, |p| {
            sqlx::query(
            "INSERT INTO mfa_tokens (id, user_id, token_hash, client, ip, attempts, created_at, expires_at) \
             VALUES ($1, $2, $3, $4, $5, 0, $6, $7)"
        )
        .bind(Uuid::now_v7())
        .bind(t.user_id)
        .bind(t.hash)
        .bind(t.client)
        .bind(t.ip)
        .bind(t.now)
        .bind(t.expires_at)
        .execute(p)
        .await
        .map(|_| ())
        })
    }

    pub async fn mfa_token_by_hash(&self, hash: &str) -> Result<Option<MfaTokenRow>, sqlx::Error> {
        dispatch!(self, |p| {
            sqlx::query_as::<_, MfaTokenRow>(
            "SELECT id, user_id, client, ip, attempts, created_at, used_at FROM mfa_tokens WHERE token_hash = $1"
        )
        .bind(hash)
        .fetch_optional(p)
        .await
        })
    }

    /// Counts a wrong code against the token: its attempts after this one.
    pub async fn mfa_token_failed(&self, id: Uuid) -> Result<i32, sqlx::Error> {
        dispatch!(self, |p| sqlx::query_scalar::<_, i32>(
            "UPDATE mfa_tokens SET attempts = attempts + 1 WHERE id = $1 RETURNING attempts"
        )
        .bind(id)
        .fetch_optional(p)
        .await
        .map(|n| n.unwrap_or(MFA_TOKEN_MAX_ATTEMPTS)))
    }

    /// Spends the token: false when it was spent or voided meanwhile.
    pub async fn spend_mfa_token(
        &self,
        id: Uuid,
        now: OffsetDateTime,
    ) -> Result<bool, sqlx::Error> {
        dispatch!(self, |p| {
            sqlx::query(
            "UPDATE mfa_tokens SET used_at = $2 WHERE id = $1 AND used_at IS NULL AND attempts < $3"
        )
        .bind(id)
        .bind(now)
        .bind(MFA_TOKEN_MAX_ATTEMPTS)
        .execute(p)
        .await
        .map(|r| r.rows_affected() == 1)
        })
    }

    /// Records that the second factor was just given on the user's live session.
    pub async fn stamp_mfa(
        &self,
        session_id: Uuid,
        user_id: Uuid,
        now: OffsetDateTime,
    ) -> Result<bool, sqlx::Error> {
        dispatch!(self, |p| sqlx::query(
            "UPDATE sessions SET mfa_at = $3 WHERE id = $1 AND user_id = $2 AND revoked_at IS NULL"
        )
        .bind(session_id)
        .bind(user_id)
        .bind(now)
        .execute(p)
        .await
        .map(|r| r.rows_affected() == 1))
    }

    /// The session's user and when its password and its second factor were last given.
    pub async fn session_stamps(
        &self,
        session_id: Uuid,
    ) -> Result<Option<SessionStamps>, sqlx::Error> {
        dispatch!(self, |p| sqlx::query_as::<_, SessionStamps>(
            "SELECT user_id, password_at, mfa_at FROM sessions WHERE id = $1"
        )
        .bind(session_id)
        .fetch_optional(p)
        .await)
    }

    /// Sets the team's "require a second factor" switch, part of the policy in every member's
    /// entitlements: announced (`Revoked::AllReads`).
    pub async fn set_team_require_mfa(
        &self,
        team_id: Uuid,
        required: bool,
        now: OffsetDateTime,
    ) -> Result<(), sqlx::Error> {
        let changed = dispatch!(self, |p| sqlx::query(
            "UPDATE teams SET require_mfa = $2, updated_at = $3 WHERE id = $1"
        )
        .bind(team_id)
        .bind(required)
        .bind(now)
        .execute(p)
        .await
        .map(|r| r.rows_affected() > 0))?;
        self.announce_if(changed, crate::store::Revoked::AllReads)
            .await
            .map(|_| ())
    }

    /// Whether team `team_id` requires a second factor, and which of its members have one (a
    /// confirmed app or a passkey).
    pub async fn team_mfa(&self, team_id: Uuid) -> Result<(bool, Vec<Uuid>), sqlx::Error> {
        let required = dispatch!(self, |p| sqlx::query_scalar::<_, bool>(
            "SELECT require_mfa FROM teams WHERE id = $1"
        )
        .bind(team_id)
        .fetch_optional(p)
        .await)?;
        let with_factor = dispatch!(self, |p| sqlx::query_scalar::<_, Uuid>(
            "SELECT m.user_id FROM team_members m WHERE m.team_id = $1 AND (\
             EXISTS (SELECT 1 FROM mfa_totp t WHERE t.user_id = m.user_id \
             AND t.confirmed_at IS NOT NULL) \
             OR EXISTS (SELECT 1 FROM passkeys k WHERE k.user_id = m.user_id))"
        )
        .bind(team_id)
        .fetch_all(p)
        .await)?;
        Ok((required.unwrap_or(false), with_factor))
    }

    /// True when a team `user_id` belongs to requires a second factor.
    pub async fn team_requires_mfa(&self, user_id: Uuid) -> Result<bool, sqlx::Error> {
        dispatch!(self, |p| sqlx::query_scalar::<_, i64>(
            "SELECT COUNT(*) FROM team_members m JOIN teams t ON t.id = m.team_id \
             WHERE m.user_id = $1 AND t.require_mfa"
        )
        .bind(user_id)
        .fetch_one(p)
        .await
        .map(|n| n > 0))
    }
}

#[derive(Clone, Debug, sqlx::FromRow)]
pub struct SessionStamps {
    pub user_id: Uuid,
    pub password_at: Option<OffsetDateTime>,
    pub mfa_at: Option<OffsetDateTime>,
}

/// Deletes the user's recovery codes and inserts `$hashes` in transaction `$tx`.
macro_rules! replace_codes {
    ($tx:ident, $user:expr, $hashes:expr, $now:expr) => {
        sqlx::query("DELETE FROM mfa_recovery_codes WHERE user_id = $1")
            .bind($user)
            .execute(&mut *$tx)
            .await?;
        for hash in $hashes {
            sqlx::query(
                "INSERT INTO mfa_recovery_codes (id, user_id, code_hash, created_at) VALUES ($1, $2, $3, $4)",
            )
            .bind(Uuid::now_v7())
            .bind($user)
            .bind(hash)
            .bind($now)
            .execute(&mut *$tx)
            .await?;
        }
    };
}
use replace_codes;
