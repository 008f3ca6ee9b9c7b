//! The members and invites of a team a page at a time: keyset pages in the order
//! members joined and invites were sent (`team_members_team_joined_idx`,
//! `team_invites_team_created_idx`), each page's cost its own rows, whatever the team's size.

use time::OffsetDateTime;
use uuid::Uuid;

use super::{InviteRow, MemberRow, INVITE_COLUMNS, OPEN};
use crate::store::{dispatch, Store};

/// Where a page starts: after the row with this time (joined or sent) and id.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PageAfter {
    pub at: OffsetDateTime,
    pub id: Uuid,
}

/// A member of a page, with whether they have a second factor.
#[derive(Clone, Debug, sqlx::FromRow)]
pub struct MemberPageRow {
    #[sqlx(flatten)]
    pub member: MemberRow,
    pub mfa: bool,
}

const MEMBERS_PAGE: &str = "SELECT m.user_id, u.email, m.role, m.joined_at, \
    (SELECT COUNT(*) FROM calls c WHERE c.user_id = m.user_id AND c.started_at >= $2) \
    AS calls_since, \
    (EXISTS (SELECT 1 FROM mfa_totp t WHERE t.user_id = m.user_id AND t.confirmed_at IS NOT NULL) \
     OR EXISTS (SELECT 1 FROM passkeys k WHERE k.user_id = m.user_id)) AS mfa \
    FROM team_members m JOIN users u ON u.id = m.user_id WHERE m.team_id = $1";

/// What `GET /api/team` counts of the whole team beside its first pages.
#[derive(Clone, Debug, sqlx::FromRow)]
pub struct TeamCounts {
    pub members: i64,
    /// Open invites (expired ones included), as the invites list.
    pub open_invites: i64,
    /// Members with a second factor (a confirmed app or a passkey).
    pub with_mfa: i64,
    pub require_mfa: bool,
    pub owner_email: String,
}

/// One statement; the second factors are two indexed probes per member (`mfa_totp`'s key,
/// `passkeys_user_idx`), the other counts index ranges of the team.
const COUNTS: &str = "SELECT \
    (SELECT COUNT(*) FROM team_members m WHERE m.team_id = t.id) AS members, \
    (SELECT COUNT(*) FROM team_invites i WHERE i.team_id = t.id AND i.accepted_at IS NULL \
     AND i.declined_at IS NULL AND i.revoked_at IS NULL) AS open_invites, \
    (SELECT COUNT(*) FROM team_members m WHERE m.team_id = t.id AND (\
     EXISTS (SELECT 1 FROM mfa_totp f WHERE f.user_id = m.user_id AND f.confirmed_at IS NOT NULL) \
     OR EXISTS (SELECT 1 FROM passkeys k WHERE k.user_id = m.user_id))) AS with_mfa, \
    t.require_mfa, u.email AS owner_email \
    FROM teams t JOIN users u ON u.id = t.owner_id WHERE t.id = $1";

impl Store {
    /// The team's counts and its owner's address; None when there is no such team.
    pub async fn team_counts(&self, team_id: Uuid) -> Result<Option<TeamCounts>, sqlx::Error> {
        dispatch!(self, |p| sqlx::query_as::<_, TeamCounts>(COUNTS)
            .bind(team_id)
            .fetch_optional(p)
            .await)
    }

    /// Up to `limit` members after `after`, in the order they joined, each with the calls they
    /// started at or after `since`.
    pub async fn team_members_page(
        &self,
        team_id: Uuid,
        since: OffsetDateTime,
        after: Option<PageAfter>,
        limit: i64,
    ) -> Result<Vec<MemberPageRow>, sqlx::Error> {
        let sql = match after {
            Some(_) => format!(
                "{MEMBERS_PAGE} AND (m.joined_at, m.user_id) > ($3, $4) \
                 ORDER BY m.joined_at, m.user_id LIMIT $5"
            ),
            None => format!("{MEMBERS_PAGE} ORDER BY m.joined_at, m.user_id LIMIT $3"),
        };
        dispatch!(self, |p| {
            let mut q = sqlx::query_as::<_, MemberPageRow>(&sql)
                .bind(team_id)
                .bind(since);
            if let Some(a) = after {
                q = q.bind(a.at).bind(a.id);
            }
            q.bind(limit).fetch_all(p).await
        })
    }

    /// Up to `limit` open invites (expired ones included) after `after`, oldest first.
    pub async fn team_invites_page(
        &self,
        team_id: Uuid,
        after: Option<PageAfter>,
        limit: i64,
    ) -> Result<Vec<InviteRow>, sqlx::Error> {
        let base =
            format!("SELECT {INVITE_COLUMNS} FROM team_invites WHERE team_id = $1 AND {OPEN}");
        let sql = match after {
            Some(_) => {
                format!("{base} AND (created_at, id) > ($2, $3) ORDER BY created_at, id LIMIT $4")
            }
            None => format!("{base} ORDER BY created_at, id LIMIT $2"),
        };
        dispatch!(self, |p| {
            let mut q = sqlx::query_as::<_, InviteRow>(&sql).bind(team_id);
            if let Some(a) = after {
                q = q.bind(a.at).bind(a.id);
            }
            q.bind(limit).fetch_all(p).await
        })
    }
}
