//! Cancelling at the period's end and resuming, personal and a team's, up to Stripe (out of
//! reach here: the API suite runs them against stripe-mock): the refusals that come before
//! Stripe is called, nothing changed or audited when Stripe fails, and the stored reason kept
//! consistent with what Stripe reports afterwards (a resumption clears it, a cancellation made
//! elsewhere has none, an ended subscription keeps it).

use closewise_core::actor::Actor;
use closewise_core::billing::cancel::{CancelError, Cancellation};
use closewise_domain::cancellation::CancellationReason;

use super::*;

impl Fx {
    /// `user`'s own subscription as Stripe reported it, ending `period_end` seconds from now.
    fn personal(&self, user: Uuid, cancelling: bool, period_end: i64) -> SubscriptionRecord {
        SubscriptionRecord {
            customer_id: format!("cus_{}", user.simple()),
            subscription_id: format!("sub_{}", user.simple()),
            cancel_at_period_end: cancelling,
            current_period_end: Some(self.clock.now().unix_timestamp() + period_end),
            ..self.record("unused", SubscriptionStatus::Active)
        }
    }

    async fn store_personal(&self, user: Uuid, record: &SubscriptionRecord) {
        self.store
            .apply_subscription(user, record, self.clock.now())
            .await
            .unwrap();
    }

    async fn reason_of(&self, user: Uuid) -> Option<String> {
        let row = self.store.subscription_of(user).await.unwrap().unwrap();
        row.cancellation_reason
    }

    async fn count_audits(&self, user: Option<Uuid>, action: &str) -> usize {
        let rows = self.store.audit_of(user, "", 100).await.unwrap();
        rows.iter().filter(|r| r.action == action).count()
    }
}

fn refused(r: Result<impl std::fmt::Debug, CancelError>) -> &'static str {
    match r {
        Err(e) => e.code(),
        Ok(v) => panic!("changed: {v:?}"),
    }
}

const TOO_EXPENSIVE: Cancellation =
    Cancellation::AtPeriodEnd(Some(CancellationReason::TooExpensive));

both!(
    async fn a_personal_cancellation_is_refused_before_stripe_unless_it_may_happen(fx: Fx) from fixture {
        let billing = &fx.billing;
        let user = fx.user("leaving-c@example.test").await;
        let me = fx.member(user).await;

        assert_eq!(refused(billing.cancel_plan(&me, TOO_EXPENSIVE).await), "nothing_to_cancel");
        assert_eq!(
            refused(billing.cancel_plan(&me, Cancellation::Resume).await),
            "nothing_to_resume"
        );
        let operator = Actor::operator("ops", Some("a reason".into()));
        assert_eq!(
            refused(billing.cancel_plan(&operator, TOO_EXPENSIVE).await),
            "nothing_to_cancel",
            "an operator has no own plan"
        );

        fx.store_personal(user, &fx.personal(user, false, 86_400)).await;
        assert_eq!(
            refused(billing.cancel_plan(&me, Cancellation::Resume).await),
            "nothing_to_resume"
        );
        // It may be cancelled; Stripe is out of reach, so nothing changes and nothing is audited.
        assert_eq!(refused(billing.cancel_plan(&me, TOO_EXPENSIVE).await), "stripe_unavailable");
        let row = fx.store.subscription_of(user).await.unwrap().unwrap();
        assert!(!row.cancel_at_period_end);
        assert_eq!(row.cancellation_reason, None);
        assert_eq!(fx.count_audits(Some(user), "billing.cancel").await, 0);

        fx.store_personal(user, &fx.personal(user, true, 86_400)).await;
        assert_eq!(refused(billing.cancel_plan(&me, TOO_EXPENSIVE).await), "already_cancelling");
        assert_eq!(
            refused(billing.cancel_plan(&me, Cancellation::Resume).await),
            "stripe_unavailable"
        );

        fx.store_personal(user, &fx.personal(user, true, 0)).await;
        assert_eq!(
            refused(billing.cancel_plan(&me, Cancellation::Resume).await),
            "period_over"
        );
    }
);

both!(
    async fn the_stored_reason_follows_what_stripe_reports(fx: Fx) from fixture {
        let user = fx.user("reasons-c@example.test").await;
        let me = fx.member(user).await;
        fx.store_personal(user, &fx.personal(user, false, 86_400)).await;

        let cancelled = fx.personal(user, true, 86_400);
        let now = fx.clock.now();
        let audit = me.audit("billing.cancel", Some(user), None, serde_json::json!({}), now);
        fx.store
            .apply_cancellation_audited(user, &cancelled, Some(CancellationReason::Unused), now, &audit)
            .await
            .unwrap();
        assert_eq!(fx.reason_of(user).await.as_deref(), Some("unused"));
        assert_eq!(fx.count_audits(Some(user), "billing.cancel").await, 1);

        // Stripe's webhook about the same cancellation keeps it.
        fx.store_personal(user, &cancelled).await;
        assert_eq!(fx.reason_of(user).await.as_deref(), Some("unused"));

        // Resumed (here or in Stripe's portal): gone.
        fx.store_personal(user, &fx.personal(user, false, 86_400)).await;
        assert_eq!(fx.reason_of(user).await, None);

        // Cancelled in Stripe's portal: no reason.
        fx.store_personal(user, &cancelled).await;
        assert_eq!(fx.reason_of(user).await, None);

        // A cancellation without a reason replaces one with a reason; an ended one keeps it.
        fx.store
            .apply_cancellation_audited(user, &cancelled, Some(CancellationReason::Other), now, &audit)
            .await
            .unwrap();
        fx.store
            .apply_cancellation_audited(user, &cancelled, None, now, &audit)
            .await
            .unwrap();
        assert_eq!(fx.reason_of(user).await, None);
        fx.store
            .apply_cancellation_audited(user, &cancelled, Some(CancellationReason::Other), now, &audit)
            .await
            .unwrap();
        let ended = SubscriptionRecord {
            status: SubscriptionStatus::Canceled,
            ..cancelled.clone()
        };
        fx.store_personal(user, &ended).await;
        assert_eq!(fx.reason_of(user).await.as_deref(), Some("other"));
    }
);

both!(
    async fn a_teams_cancellation_is_the_owners_and_its_reason_follows_stripe(fx: Fx) from fixture {
        let billing = &fx.billing;
        let (team, owner, member) = fx.team("c").await;
        let stranger = fx.user("stranger-c@elsewhere.test").await;
        let owner_actor = fx.member(owner).await;
        let code = |r: Result<_, closewise_core::teams::billing::TeamBillingError>| {
            r.map(drop).unwrap_err().code()
        };

        let cancel = |who: Actor| async move { billing.cancel_team_plan(&who, None, TOO_EXPENSIVE).await };
        assert_eq!(code(cancel(fx.member(stranger).await).await), "team_not_found");
        assert_eq!(code(cancel(fx.member(member).await).await), "forbidden_role");
        assert_eq!(code(cancel(owner_actor.clone()).await), "nothing_to_cancel");
        assert_eq!(
            code(billing.cancel_team_plan(&owner_actor, None, Cancellation::Resume).await),
            "nothing_to_resume"
        );

        let live = fx.record("sub_team_c", SubscriptionStatus::Active);
        fx.store.apply_team_subscription(team, &live, 3, fx.clock.now()).await.unwrap();
        assert_eq!(code(cancel(owner_actor.clone()).await), "stripe_unavailable");
        assert!(!fx.store.team_by_id(team).await.unwrap().unwrap().cancel_at_period_end);

        let cancelled = SubscriptionRecord {
            cancel_at_period_end: true,
            ..live.clone()
        };
        let now = fx.clock.now();
        let audit = owner_actor.audit("team.cancel", None, None, serde_json::json!({}), now);
        fx.store
            .apply_team_cancellation_audited(
                team,
                &cancelled,
                3,
                Some(CancellationReason::SwitchedService),
                now,
                &audit,
            )
            .await
            .unwrap();
        let view = fx.teams.view(owner).await.unwrap();
        let sub = view.subscription.expect("a subscription");
        assert!(sub.cancel_at_period_end);
        assert_eq!(sub.cancellation_reason.as_deref(), Some("switched_service"));
        assert_eq!(code(cancel(owner_actor.clone()).await), "already_cancelling");

        fx.store.apply_team_subscription(team, &live, 3, now).await.unwrap();
        let view = fx.teams.view(owner).await.unwrap();
        assert_eq!(view.subscription.unwrap().cancellation_reason, None);
        assert_eq!(fx.store.cancellation_reason("sub_team_c").await.unwrap(), None);
    }
);
