//! Passkeys and their WebAuthn challenges (migration 0014). Binary values (credential ids, COSE
//! keys, challenges) are stored base64url so both databases compare them as text.

use time::OffsetDateTime;
use uuid::Uuid;

use super::mail::bind_mail;
use super::{dispatch, is_unique_violation, NewMail, Store};

#[derive(Clone, Debug, sqlx::FromRow)]
pub struct PasskeyRow {
    pub id: Uuid,
    pub user_id: Uuid,
    /// base64url of the authenticator's credential id.
    pub credential_id: String,
    pub name: String,
    /// base64url of the COSE_Key.
    pub public_key: String,
    pub sign_count: i64,
    pub created_at: OffsetDateTime,
    pub last_used_at: Option<OffsetDateTime>,
}

const PASSKEY_COLUMNS: &str =
    "id, user_id, credential_id, name, public_key, sign_count, created_at, last_used_at";

/// A challenge just issued.
pub struct NewChallenge<'a> {
    pub id: Uuid,
    /// `register`, `sign_in` or `step_up`.
    pub purpose: &'a str,
    pub user_id: Option<Uuid>,
    /// base64url of the random challenge.
    pub challenge: &'a str,
    pub created_at: OffsetDateTime,
    pub expires_at: OffsetDateTime,
}

/// A challenge just spent.
#[derive(Clone, Debug, sqlx::FromRow)]
pub struct ChallengeRow {
    pub user_id: Option<Uuid>,
    pub challenge: String,
    pub expires_at: OffsetDateTime,
}

impl Store {
    pub async fn create_webauthn_challenge(&self, c: &NewChallenge<'_>) -> Result<(), sqlx::Error> {
        dispatch!(self, |p| sqlx::query(
            "INSERT INTO webauthn_challenges \
             (id, purpose, user_id, challenge, created_at, expires_at, used_at) \
             VALUES ($1, $2, $3, $4, $5, $6, NULL)"
        )
        .bind(c.id)
        .bind(c.purpose)
        .bind(c.user_id)
        .bind(c.challenge)
        .bind(c.created_at)
        .bind(c.expires_at)
        .execute(p)
        .await
        .map(|_| ()))
    }

    /// Spends challenge `id` of `purpose`, once: `None` when it is unknown, of another purpose or
    /// spent already (its expiry is the caller's to judge: an expired one is spent too).
    pub async fn take_webauthn_challenge(
        &self,
        id: Uuid,
        purpose: &str,
        now: OffsetDateTime,
    ) -> Result<Option<ChallengeRow>, sqlx::Error> {
        dispatch!(self, |p| sqlx::query_as::<_, ChallengeRow>(
            "UPDATE webauthn_challenges SET used_at = $3 \
             WHERE id = $1 AND purpose = $2 AND used_at IS NULL \
             RETURNING user_id, challenge, expires_at"
        )
        .bind(id)
        .bind(purpose)
        .bind(now)
        .fetch_optional(p)
        .await)
    }

    /// The user's passkeys, oldest first.
    pub async fn passkeys_of(&self, user_id: Uuid) -> Result<Vec<PasskeyRow>, sqlx::Error> {
        let sql = format!(
            "SELECT {PASSKEY_COLUMNS} FROM passkeys WHERE user_id = $1 ORDER BY created_at, id"
        );
        dispatch!(self, |p| sqlx::query_as::<_, PasskeyRow>(&sql)
            .bind(user_id)
            .fetch_all(p)
            .await)
    }

    pub async fn passkey_by_credential(
        &self,
        credential_id: &str,
    ) -> Result<Option<PasskeyRow>, sqlx::Error> {
        let sql = format!("SELECT {PASSKEY_COLUMNS} FROM passkeys WHERE credential_id = $1");
        dispatch!(self, |p| sqlx::query_as::<_, PasskeyRow>(&sql)
            .bind(credential_id)
            .fetch_optional(p)
            .await)
    }

    /// The user's passkey `id`, if it is theirs.
    pub async fn passkey_of(
        &self,
        user_id: Uuid,
        id: Uuid,
    ) -> Result<Option<PasskeyRow>, sqlx::Error> {
        let sql = format!("SELECT {PASSKEY_COLUMNS} FROM passkeys WHERE id = $1 AND user_id = $2");
        dispatch!(self, |p| sqlx::query_as::<_, PasskeyRow>(&sql)
            .bind(id)
            .bind(user_id)
            .fetch_optional(p)
            .await)
    }

    /// Stores a passkey and its "passkey added" mail together; false (and nothing written) when
    /// the credential is registered already, to this account or another.
    pub async fn insert_passkey(
        &self,
        row: &PasskeyRow,
        mail: &NewMail,
    ) -> Result<bool, sqlx::Error> {
        let sql = format!(
            "INSERT INTO passkeys ({PASSKEY_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)"
        );
        let done = dispatch!(self, |p| {
            let mut tx = crate::store::begin::begin(p).await?;
            let inserted = sqlx::query(&sql)
                .bind(row.id)
                .bind(row.user_id)
                .bind(&row.credential_id)
                .bind(&row.name)
                .bind(&row.public_key)
                .bind(row.sign_count)
                .bind(row.created_at)
                .bind(row.last_used_at)
                .execute(&mut *tx)
                .await;
            match inserted {
                Err(e) if is_unique_violation(&e) => return Ok(false),
                other => other?,
            };
            bind_mail!(mail).execute(&mut *tx).await?;
            tx.commit().await?;
            Ok::<_, sqlx::Error>(true)
        })?;
        Ok(done)
    }

    /// Deletes the user's passkey `id` and writes its "passkey removed" mail together; false
    /// (nothing written) when it is not theirs or gone already.
    pub async fn delete_passkey(
        &self,
        user_id: Uuid,
        id: Uuid,
        mail: &NewMail,
    ) -> Result<bool, sqlx::Error> {
        dispatch!(self, |p| {
            let mut tx = crate::store::begin::begin(p).await?;
            let deleted = sqlx::query("DELETE FROM passkeys WHERE id = $1 AND user_id = $2")
                .bind(id)
                .bind(user_id)
                .execute(&mut *tx)
                .await?;
            if deleted.rows_affected() != 1 {
                return Ok(false);
            }
            bind_mail!(mail).execute(&mut *tx).await?;
            tx.commit().await?;
            Ok::<_, sqlx::Error>(true)
        })
    }

    /// Records a sign-in with passkey `id`: its new counter and the time. Compare-and-set on the
    /// counter read before verifying: false when another sign-in recorded first (two answers of
    /// one authenticator racing, or a clone), and nothing changes.
    pub async fn record_passkey_use(
        &self,
        id: Uuid,
        read_count: i64,
        new_count: i64,
        now: OffsetDateTime,
    ) -> Result<bool, sqlx::Error> {
        dispatch!(self, |p| sqlx::query(
            "UPDATE passkeys SET sign_count = $3, last_used_at = $4 \
             WHERE id = $1 AND sign_count = $2"
        )
        .bind(id)
        .bind(read_count)
        .bind(new_count)
        .bind(now)
        .execute(p)
        .await
        .map(|r| r.rows_affected() == 1))
    }
}
