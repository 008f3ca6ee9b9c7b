//! The spec's `user_plans` rows.

use closewise_domain::plan::{PlanStatus, PlanType};
use time::OffsetDateTime;
use uuid::Uuid;

use super::{dispatch, domain_sql, Store};

#[derive(Clone, Debug, sqlx::FromRow)]
pub struct PlanRow {
    pub id: Uuid,
    pub user_id: Uuid,
    #[sqlx(try_from = "String")]
    pub plan_type: PlanType,
    #[sqlx(try_from = "String")]
    pub status: PlanStatus,
    pub plan_started_at: OffsetDateTime,
    pub plan_updated_at: OffsetDateTime,
    pub created_at: OffsetDateTime,
    pub updated_at: OffsetDateTime,
    pub stripe_subscription_id: Option<String>,
    pub stripe_customer_id: Option<String>,
    pub subscription_id: Option<String>,
}

const PLAN_COLUMNS: &str = "id, user_id, plan_type, status, plan_started_at, plan_updated_at, \
    created_at, updated_at, stripe_subscription_id, stripe_customer_id, subscription_id";

impl Store {
    /// The user's plan row; a missing one is created free and active (upsert on user_id).
    pub async fn plan_for(
        &self,
        user_id: Uuid,
        now: OffsetDateTime,
    ) -> Result<PlanRow, sqlx::Error> {
        let select = format!("SELECT {PLAN_COLUMNS} FROM user_plans WHERE user_id = $1");
        dispatch!(self, |p| {
            if let Some(row) = sqlx::query_as::<_, PlanRow>(&select)
                .bind(user_id)
                .fetch_optional(p)
                .await?
            {
                return Ok(row);
            }
            sqlx::query(&domain_sql("INSERT INTO user_plans (id, user_id, plan_type, status, plan_started_at, plan_updated_at, created_at, updated_at) \
                 VALUES ($1, $2, '{free}', '{active}', $3, $3, $3, $3) ON CONFLICT (user_id) DO NOTHING"))
            .bind(Uuid::now_v7())
            .bind(user_id)
            .bind(now)
            .execute(p)
            .await?;
            sqlx::query_as::<_, PlanRow>(&select)
                .bind(user_id)
                .fetch_one(p)
                .await
        })
    }
}
