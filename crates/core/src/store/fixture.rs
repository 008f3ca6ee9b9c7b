//! A team at scale for `just bench` and its tests: one team with its members (the
//! owner first), a year of their calls, audit rows about the team and pending invites, written
//! in bulk (multi-row `INSERT`s in one transaction) so a thousand members with 100,000 calls take
//! seconds. The rows are the ones the real paths write (`seed_user`, `create_team`,
//! `invite_to_team_mailed`, the meter's `calls`, `bind_audit!`), column for column; this is the
//! one place that writes them in bulk, exercised on both databases by
//! `crates/core/tests/fixture.rs`.

use closewise_domain::plan::{PlanStatus, PlanType};
use closewise_domain::teams::Role;
use closewise_domain::usage::EndReason;
use time::{Duration, OffsetDateTime};
use uuid::Uuid;

use super::audit::{commit_audited, NewAudit};
use super::{dispatch, Pool, Store};

/// What to build. Addresses: `{prefix}-owner@{domain}`, `{prefix}-m{n}@{domain}` for the other
/// members (from 1), `{prefix}-i{n}@{domain}` for the invites.
#[derive(Clone, Debug)]
pub struct TeamFixture {
    pub prefix: String,
    pub domain: String,
    /// Members, the owner included (at least 1).
    pub members: u32,
    /// Calls over the year before `now`, spread evenly over the members and the year.
    pub calls: u32,
    pub audit: u32,
    pub invites: u32,
    /// Every member's (one argon2id hash: hashing a thousand would take the minute saved).
    pub password_hash: String,
    pub now: OffsetDateTime,
}

/// What was built.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeededTeam {
    pub team_id: Uuid,
    pub owner_id: Uuid,
    pub owner_email: String,
    /// The first member after the owner; None for a team of one.
    pub member_email: Option<String>,
}

impl TeamFixture {
    pub fn owner_email(&self) -> String {
        format!("{}-owner@{}", self.prefix, self.domain)
    }

    pub fn member_email(&self, n: u32) -> String {
        format!("{}-m{n}@{}", self.prefix, self.domain)
    }

    pub fn invite_email(&self, n: u32) -> String {
        format!("{}-i{n}@{}", self.prefix, self.domain)
    }
}

/// `INSERT INTO {head} VALUES ($1, …), (…)`: `rows` rows of `cols` placeholders.
fn insert_sql(head: &str, cols: usize, rows: usize) -> String {
    let mut sql = format!("INSERT INTO {head} VALUES ");
    for r in 0..rows {
        if r > 0 {
            sql.push_str(", ");
        }
        sql.push('(');
        for c in 0..cols {
            if c > 0 {
                sql.push_str(", ");
            }
            sql.push_str(&format!("${}", r * cols + c + 1));
        }
        sql.push(')');
    }
    sql
}

/// Bound parameters per statement. Small on purpose: SQLite finds each `$n` by name, so a
/// statement's binding cost grows with the square of its parameters (30,000 took 90 s for 100,000
/// calls; 1,000 take a second or two).
const CHUNK_PARAMS: usize = 1_000;

struct Member {
    id: Uuid,
    email: String,
    role: Role,
    joined_at: OffsetDateTime,
}

impl Store {
    /// Builds `f` in one transaction. Fails (nothing written) when an address is taken.
    pub async fn seed_team_fixture(&self, f: &TeamFixture) -> Result<SeededTeam, sqlx::Error> {
        self.seed_team_audited(f, None).await
    }

    /// Builds `f` in one transaction with the audit row `audited` makes of what was built.
    #[tracing::instrument(skip_all, fields(prefix = %f.prefix, members = f.members))]
    pub async fn seed_team_audited(
        &self,
        f: &TeamFixture,
        audited: Option<&(dyn Fn(&SeededTeam) -> NewAudit + Sync)>,
    ) -> Result<SeededTeam, sqlx::Error> {
        let team_id = Uuid::now_v7();
        let year_ago = f.now - Duration::days(365);
        let members: Vec<Member> = (0..f.members.max(1))
            .map(|n| Member {
                id: Uuid::now_v7(),
                email: if n == 0 {
                    f.owner_email()
                } else {
                    f.member_email(n)
                },
                role: match n {
                    0 => Role::Owner,
                    1 => Role::Admin,
                    _ => Role::Member,
                },
                // One a minute from a year ago: a stable order that is the insertion order.
                joined_at: year_ago + Duration::minutes(i64::from(n)),
            })
            .collect();
        let owner = &members[0];
        let seeded = SeededTeam {
            team_id,
            owner_id: owner.id,
            owner_email: owner.email.clone(),
            member_email: members.get(1).map(|m| m.email.clone()),
        };
        let seconds = i64::from(f.calls.max(1));
        dispatch!(self, |p| {
            let mut tx = crate::store::begin::begin(p).await?;
            for chunk in members.chunks(CHUNK_PARAMS / 6) {
                let sql = insert_sql(
                    "users (id, email, password_hash, email_confirmed_at, created_at, updated_at)",
                    6,
                    chunk.len(),
                );
                let mut q = sqlx::query(&sql);
                for m in chunk {
                    q = q
                        .bind(m.id)
                        .bind(&m.email)
                        .bind(&f.password_hash)
                        .bind(m.joined_at)
                        .bind(m.joined_at)
                        .bind(m.joined_at);
                }
                q.execute(&mut *tx).await?;
                let sql = insert_sql(
                    "user_plans (id, user_id, plan_type, status, plan_started_at, \
                     plan_updated_at, created_at, updated_at)",
                    8,
                    chunk.len(),
                );
                let mut q = sqlx::query(&sql);
                for m in chunk {
                    q = q
                        .bind(Uuid::now_v7())
                        .bind(m.id)
                        .bind(PlanType::Free.as_str())
                        .bind(PlanStatus::Active.as_str())
                        .bind(m.joined_at)
                        .bind(m.joined_at)
                        .bind(m.joined_at)
                        .bind(m.joined_at);
                }
                q.execute(&mut *tx).await?;
            }
            sqlx::query(
                "INSERT INTO teams (id, name, owner_id, seats, cancel_at_period_end, \
                 created_at, updated_at) VALUES ($1, $2, $3, 0, $4, $5, $5)",
            )
            .bind(team_id)
            .bind(format!("{} bench team", f.prefix))
            .bind(owner.id)
            .bind(false)
            .bind(year_ago)
            .execute(&mut *tx)
            .await?;
            for chunk in members.chunks(CHUNK_PARAMS / 4) {
                let sql = insert_sql(
                    "team_members (team_id, user_id, role, joined_at)",
                    4,
                    chunk.len(),
                );
                let mut q = sqlx::query(&sql);
                for m in chunk {
                    q = q
                        .bind(team_id)
                        .bind(m.id)
                        .bind(m.role.as_str())
                        .bind(m.joined_at);
                }
                q.execute(&mut *tx).await?;
            }
            // Call n: member n mod members, started at an even step through the year, 5 minutes.
            let calls: Vec<u32> = (0..f.calls).collect();
            for chunk in calls.chunks(CHUNK_PARAMS / 10) {
                let sql = insert_sql(
                    "calls (id, user_id, client_call_id, free, started_at, last_heartbeat_at, \
                     ended_at, ended_reason, duration_seconds, max_seconds)",
                    10,
                    chunk.len(),
                );
                let mut q = sqlx::query(&sql);
                for n in chunk {
                    let m = &members[*n as usize % members.len()];
                    let started = year_ago
                        + Duration::seconds(365 * 86_400 * i64::from(*n) / seconds)
                        + Duration::seconds(1);
                    let ended = started + Duration::minutes(5);
                    q = q
                        .bind(Uuid::now_v7())
                        .bind(m.id)
                        .bind(format!("bench-{n}"))
                        .bind(false)
                        .bind(started)
                        .bind(ended)
                        .bind(ended)
                        .bind(EndReason::Ended.as_str())
                        .bind(300_i32)
                        .bind(None::<i32>);
                }
                q.execute(&mut *tx).await?;
            }
            let audit: Vec<u32> = (0..f.audit).collect();
            for chunk in audit.chunks(CHUNK_PARAMS / 10) {
                let sql = insert_sql(
                    "audit_log (id, actor, action, user_id, target_email, reason, details, \
                     created_at, instance, team_id)",
                    10,
                    chunk.len(),
                );
                let mut q = sqlx::query(&sql);
                let audit_seconds = i64::from(f.audit.max(1));
                for n in chunk {
                    let m = &members[*n as usize % members.len()];
                    let at =
                        year_ago + Duration::seconds(365 * 86_400 * i64::from(*n) / audit_seconds);
                    q = q
                        .bind(Uuid::now_v7())
                        .bind(&owner.email)
                        .bind("team.member_role")
                        .bind(Some(m.id))
                        .bind(Some(&m.email))
                        .bind(None::<String>)
                        .bind(
                            serde_json::json!({"team_id": team_id, "role": m.role.as_str()})
                                .to_string(),
                        )
                        .bind(at)
                        .bind(&*self.instance)
                        .bind(Some(team_id));
                }
                q.execute(&mut *tx).await?;
            }
            let invites: Vec<u32> = (1..=f.invites).collect();
            for chunk in invites.chunks(CHUNK_PARAMS / 9) {
                let sql = insert_sql(
                    "team_invites (id, team_id, email, role, token_hash, invited_by, \
                     created_at, expires_at, last_sent_at)",
                    9,
                    chunk.len(),
                );
                let mut q = sqlx::query(&sql);
                for n in chunk {
                    let sent = f.now - Duration::hours(1) + Duration::seconds(i64::from(*n));
                    let id = Uuid::now_v7();
                    q = q
                        .bind(id)
                        .bind(team_id)
                        .bind(f.invite_email(*n))
                        .bind(Role::Member.as_str())
                        // Never a SHA-256 of a token: nobody can accept these.
                        .bind(format!("bench-{}", id.simple()))
                        .bind(Some(owner.id))
                        .bind(sent)
                        .bind(sent + Duration::days(7))
                        .bind(sent);
                }
                q.execute(&mut *tx).await?;
            }
            let row = audited.map(|audited| audited(&seeded));
            commit_audited!(self, tx, row.as_ref());
            Ok::<_, sqlx::Error>(())
        })?;
        // A bulk load leaves PostgreSQL without statistics and without its visibility map (and
        // `call_months` with a dead row version per call, its trigger's upserts) until autovacuum
        // comes by, a minute or more later; a real team's year of calls was written over a year
        // and vacuumed as it went. So what was written is vacuumed now, and the whole database
        // analyzed, as PostgreSQL's advice for bulk loads has it ("Populating a Database":
        // ANALYZE afterwards). The whole database: a table filled just before (the bench's
        // sign-ins fill `sessions`) and never analyzed yet misleads the team queries' plans too
        // (a probe by `sessions_revoked_idx` instead of by user, 50 ms at 1,000 members).
        if let Pool::Postgres(p) = &self.pool {
            sqlx::query(
                "VACUUM users, user_plans, teams, team_members, calls, call_months, audit_log, \
                 team_invites",
            )
            .execute(p)
            .await?;
            sqlx::query("ANALYZE").execute(p).await?;
        }
        Ok(seeded)
    }
}

#[cfg(test)]
mod tests {
    use super::insert_sql;

    #[test]
    fn a_bulk_insert_numbers_its_placeholders_row_after_row() {
        assert_eq!(
            insert_sql("t (a, b)", 2, 2),
            "INSERT INTO t (a, b) VALUES ($1, $2), ($3, $4)"
        );
    }
}
