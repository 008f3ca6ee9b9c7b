//! The proration dates an interval preview issued for a subscription (`interval_quotes`): the
//! only ones its switch may name, as seats have theirs (`proration_quotes`).

use crate::store::{dispatch, Store};

impl Store {
    /// Records that a preview issued `proration_date` for `subscription_id` at `now_ms`, and
    /// forgets its quotes older than `ttl_ms`.
    pub async fn record_interval_quote(
        &self,
        subscription_id: &str,
        proration_date: i64,
        now_ms: i64,
        ttl_ms: i64,
    ) -> Result<(), sqlx::Error> {
        dispatch!(self, |p| {
            sqlx::query(
                "DELETE FROM interval_quotes WHERE subscription_id = $1 AND issued_at_ms < $2",
            )
            .bind(subscription_id)
            .bind(now_ms - ttl_ms)
            .execute(p)
            .await?;
            sqlx::query(
                "INSERT INTO interval_quotes (subscription_id, proration_date, issued_at_ms) \
                 VALUES ($1, $2, $3) ON CONFLICT (subscription_id, proration_date) \
                 DO UPDATE SET issued_at_ms = excluded.issued_at_ms",
            )
            .bind(subscription_id)
            .bind(proration_date)
            .bind(now_ms)
            .execute(p)
            .await
            .map(|_| ())
        })
    }

    /// When a preview last issued `proration_date` for the subscription (Unix milliseconds).
    pub async fn interval_quote_issued_at(
        &self,
        subscription_id: &str,
        proration_date: i64,
    ) -> Result<Option<i64>, sqlx::Error> {
        dispatch!(self, |p| sqlx::query_scalar(
            "SELECT issued_at_ms FROM interval_quotes \
             WHERE subscription_id = $1 AND proration_date = $2"
        )
        .bind(subscription_id)
        .bind(proration_date)
        .fetch_optional(p)
        .await)
    }
}
