//! Switching between monthly and yearly, personal and a team's, up to Stripe (out of reach here:
//! the API suite runs the switch against stripe-mock): who may, which intervals, and the
//! refusals that come before Stripe is called; a proration date no preview issued is refused,
//! one it issued goes on to Stripe; a failed switch changes and audits nothing.

use closewise_core::actor::Actor;
use closewise_core::billing::interval::IntervalError;
use closewise_core::teams::billing::TeamBillingError;
use closewise_domain::billing_interval::{Interval, IntervalRefusal};
use closewise_domain::catalogue::PriceIds;

use super::*;

const PRICES: PriceIds<'static> = PriceIds::DEFAULT;

impl Fx {
    /// `user`'s own subscription as Stripe reported it.
    async fn subscribe(&self, user: Uuid, price: &str, cancel_at_period_end: bool) {
        let record = SubscriptionRecord {
            customer_id: format!("cus_{}", user.simple()),
            subscription_id: format!("sub_{}", user.simple()),
            price_id: Some(price.into()),
            cancel_at_period_end,
            ..self.record("unused", SubscriptionStatus::Active)
        };
        self.store
            .apply_subscription(user, &record, self.clock.now())
            .await
            .unwrap();
    }

    async fn audits(&self, user: Uuid, action: &str) -> usize {
        let rows = self.store.audit_of(Some(user), "", 100).await.unwrap();
        rows.iter().filter(|r| r.action == action).count()
    }
}

fn code<T>(r: Result<T, TeamBillingError>) -> &'static str {
    r.map(drop).unwrap_err().code()
}

fn refusal(r: Result<impl std::fmt::Debug, IntervalError>) -> &'static str {
    match r {
        Err(e) => e.code(),
        Ok(v) => panic!("switched: {v:?}"),
    }
}

async fn a_personal_switch_is_refused_before_stripe_unless_it_may_happen_on(postgres: bool) {
    let fx = fixture(postgres.into()).await;
    let billing = &fx.billing;
    let user = fx.user("solo-i@example.test").await;
    let me = fx.member(user).await;

    let none = billing.preview_interval(&me, Interval::Year, PRICES).await;
    assert_eq!(refusal(none), "no_subscription");
    let operator = Actor::operator("ops", Some("a reason".into()));
    let nobody = billing
        .preview_interval(&operator, Interval::Year, PRICES)
        .await;
    assert_eq!(
        refusal(nobody),
        "no_subscription",
        "an operator has no own subscription"
    );

    fx.subscribe(user, "price_closewise_monthly", false).await;
    let same = billing.preview_interval(&me, Interval::Month, PRICES).await;
    assert_eq!(refusal(same), "same_interval");
    let same = billing
        .change_interval(&me, Interval::Month, PRICES, None)
        .await;
    assert!(matches!(
        same,
        Err(IntervalError::Refused(IntervalRefusal::AlreadyBilled(
            "monthly"
        )))
    ));

    let unquoted = fx.clock.now().unix_timestamp();
    let stale = billing
        .change_interval(&me, Interval::Year, PRICES, Some(unquoted))
        .await;
    assert_eq!(refusal(stale), "invalid_proration_date");

    // A date a preview issued passes; Stripe is out of reach, so nothing changes.
    let sub = format!("sub_{}", user.simple());
    let now_ms = fx.clock.now().unix_timestamp() * 1000;
    fx.store
        .record_interval_quote(&sub, unquoted, now_ms, 600_000)
        .await
        .unwrap();
    let down = billing
        .change_interval(&me, Interval::Year, PRICES, Some(unquoted))
        .await;
    assert_eq!(refusal(down), "stripe_unavailable");
    let row = fx.store.subscription_of(user).await.unwrap().unwrap();
    assert_eq!(row.price_id.as_deref(), Some("price_closewise_monthly"));
    assert_eq!(fx.audits(user, "billing.interval").await, 0);

    fx.subscribe(user, "price_closewise_monthly", true).await;
    let ending = billing.preview_interval(&me, Interval::Year, PRICES).await;
    assert_eq!(refusal(ending), "subscription_ending");
}

async fn a_teams_switch_is_the_owners_and_needs_a_live_subscription_on(postgres: bool) {
    let fx = fixture(postgres.into()).await;
    let billing = &fx.billing;
    let (team, owner, member) = fx.team("i").await;
    let stranger = fx.user("stranger-i@elsewhere.test").await;

    let owner_actor = fx.member(owner).await;
    let preview =
        |who: Actor, to| async move { billing.preview_team_interval(&who, None, to, PRICES).await };
    assert_eq!(
        code(preview(fx.member(stranger).await, Interval::Year).await),
        "team_not_found"
    );
    assert_eq!(
        code(preview(fx.member(member).await, Interval::Year).await),
        "forbidden_role"
    );
    assert_eq!(
        code(preview(owner_actor.clone(), Interval::Year).await),
        "no_team_subscription"
    );

    fx.store
        .apply_team_subscription(
            team,
            &fx.record("sub_team_i", SubscriptionStatus::Active),
            3,
            fx.clock.now(),
        )
        .await
        .unwrap();
    assert_eq!(
        code(preview(owner_actor.clone(), Interval::Month).await),
        "same_interval"
    );
    let switch = |who: Actor, date| async move {
        billing
            .change_team_interval(&who, None, Interval::Year, PRICES, date)
            .await
    };
    assert_eq!(
        code(switch(fx.member(member).await, None).await),
        "forbidden_role"
    );
    let unquoted = Some(fx.clock.now().unix_timestamp());
    assert_eq!(
        code(switch(owner_actor.clone(), unquoted).await),
        "invalid_proration_date"
    );
    assert_eq!(
        code(switch(owner_actor.clone(), None).await),
        "stripe_unavailable"
    );
    let stored = fx.store.team_by_id(team).await.unwrap().unwrap();
    assert_eq!(stored.price_id.as_deref(), Some("price_closewise_monthly"));

    fx.store
        .apply_team_subscription(
            team,
            &fx.record("sub_team_i", SubscriptionStatus::PastDue),
            3,
            fx.clock.now(),
        )
        .await
        .unwrap();
    assert_eq!(
        code(preview(owner_actor, Interval::Year).await),
        "no_team_subscription"
    );
}

async fn interval_quotes_are_per_subscription_and_forgotten_after_ten_minutes_on(postgres: bool) {
    let fx = fixture(postgres.into()).await;
    let store = &fx.store;
    store
        .record_interval_quote("sub_a", 100, 1_000, 600_000)
        .await
        .unwrap();
    store
        .record_interval_quote("sub_b", 200, 2_000, 600_000)
        .await
        .unwrap();
    assert_eq!(
        store.interval_quote_issued_at("sub_a", 100).await.unwrap(),
        Some(1_000)
    );
    assert_eq!(
        store.interval_quote_issued_at("sub_a", 200).await.unwrap(),
        None
    );
    assert_eq!(
        store.interval_quote_issued_at("sub_b", 200).await.unwrap(),
        Some(2_000)
    );
    // Issuing again re-dates it; a new quote forgets the subscription's stale ones only.
    store
        .record_interval_quote("sub_a", 300, 700_000, 600_000)
        .await
        .unwrap();
    assert_eq!(
        store.interval_quote_issued_at("sub_a", 100).await.unwrap(),
        None
    );
    assert_eq!(
        store.interval_quote_issued_at("sub_a", 300).await.unwrap(),
        Some(700_000)
    );
    assert_eq!(
        store.interval_quote_issued_at("sub_b", 200).await.unwrap(),
        Some(2_000)
    );
}

both!(
    async fn a_personal_switch_is_refused_before_stripe_unless_it_may_happen(backend: Backend) {
        a_personal_switch_is_refused_before_stripe_unless_it_may_happen_on(
            backend == Backend::Postgres,
        )
        .await
    }
);

both!(
    async fn a_teams_switch_is_the_owners_and_needs_a_live_subscription(backend: Backend) {
        a_teams_switch_is_the_owners_and_needs_a_live_subscription_on(backend == Backend::Postgres)
            .await
    }
);

both!(
    async fn interval_quotes_are_per_subscription_and_forgotten_after_ten_minutes(
        backend: Backend,
    ) {
        interval_quotes_are_per_subscription_and_forgotten_after_ten_minutes_on(
            backend == Backend::Postgres,
        )
        .await
    }
);
