//! The open invitations addressed to one person (`team_invites_email_idx`): what their `/team`
//! shows before they are in a team, and the one they accept from there.

use time::OffsetDateTime;
use uuid::Uuid;

use super::{InviteRow, INVITE_COLUMNS, OPEN};
use crate::store::{dispatch, Store};

/// An open invitation to the address, with its team's name and who sent it.
#[derive(Clone, Debug, sqlx::FromRow)]
pub struct AddressedInviteRow {
    pub id: Uuid,
    pub team_name: String,
    pub role: String,
    /// The inviter's address; None once their account is gone.
    pub invited_by: Option<String>,
    pub created_at: OffsetDateTime,
    pub expires_at: OffsetDateTime,
}

/// An invite with its link's token hash (which a resend replaces): accepting it claims this one.
#[derive(Clone, Debug, sqlx::FromRow)]
pub struct InviteWithHash {
    #[sqlx(flatten)]
    pub invite: InviteRow,
    pub token_hash: String,
}

impl Store {
    /// The invitations to `email` (normalised, as invites store it) neither used, withdrawn nor
    /// expired at `now`, oldest first.
    pub async fn open_invites_to(
        &self,
        email: &str,
        now: OffsetDateTime,
    ) -> Result<Vec<AddressedInviteRow>, sqlx::Error> {
        let sql = format!(
            "SELECT i.id, t.name AS team_name, i.role, u.email AS invited_by, i.created_at, \
             i.expires_at FROM team_invites i JOIN teams t ON t.id = i.team_id \
             LEFT JOIN users u ON u.id = i.invited_by \
             WHERE i.email = $1 AND i.expires_at > $2 AND i.{} \
             ORDER BY i.created_at, i.id",
            OPEN.replace(" AND ", " AND i.")
        );
        dispatch!(self, |p| sqlx::query_as::<_, AddressedInviteRow>(&sql)
            .bind(email)
            .bind(now)
            .fetch_all(p)
            .await)
    }

    /// The invite `id`, whatever its state, with its current token hash.
    pub async fn team_invite_with_hash(
        &self,
        id: Uuid,
    ) -> Result<Option<InviteWithHash>, sqlx::Error> {
        let sql = format!("SELECT {INVITE_COLUMNS}, token_hash FROM team_invites WHERE id = $1");
        dispatch!(self, |p| sqlx::query_as::<_, InviteWithHash>(&sql)
            .bind(id)
            .fetch_optional(p)
            .await)
    }
}
