use super::*;
use proptest::prelude::*;
use time::macros::datetime;

const T0: OffsetDateTime = datetime!(2026-11-23 10:00:00 UTC);

fn facts(plan: PlanType, subscription: Option<SubscriptionStatus>) -> BillingFacts {
    BillingFacts {
        plan_type: plan,
        plan_status: PlanStatus::Active,
        subscription,
        current_period_end: None,
    }
}

fn free_call(started_at: OffsetDateTime) -> OpenCall {
    OpenCall {
        started_at,
        last_heartbeat_at: started_at,
        max_seconds: Some(FREE_CALL_MAX_SECONDS),
    }
}

#[test]
fn the_free_trial_is_five_calls_of_three_hundred_seconds_with_heartbeats_every_thirty() {
    assert_eq!(FREE_TRIAL.calls, 5);
    assert_eq!(FREE_CALL_MAX_SECONDS, 300);
    assert_eq!(HEARTBEAT_INTERVAL_SECONDS, 30);
    assert_eq!(STALE_AFTER_SECONDS, 120);
}

#[test]
fn the_messages_are_the_contracts_and_the_used_up_one_names_the_limit() {
    assert_eq!(
        free_calls_used_up_message(5),
        "You have used your 5 free calls. Upgrade to keep getting live hints."
    );
    assert_eq!(
        free_calls_used_up_message(8),
        "You have used your 8 free calls. Upgrade to keep getting live hints."
    );
    assert_eq!(
        CALL_TIME_LIMIT_MESSAGE,
        format!(
            "Your free call has reached its {}-minute limit.",
            FREE_TRIAL.minutes_per_call
        )
    );
    assert_eq!(CALL_ENDED_MESSAGE, "This call has already ended.");
}

#[test]
fn a_free_user_gets_five_calls_plus_grants_capped_at_three_hundred_seconds() {
    let e = entitlements(access(&facts(PlanType::Free, None), T0), 3, 0);
    assert_eq!(e.plan_type, PlanType::Free);
    assert!(!e.unlimited);
    assert_eq!(
        e.calls,
        Some(CallAllowance {
            limit: 5,
            used: 3,
            remaining: 2
        })
    );
    assert_eq!(e.max_call_seconds, Some(300));
    assert_eq!(e.warning, None);

    let granted = entitlements(Access::Free, 7, 4);
    assert_eq!(
        granted.calls,
        Some(CallAllowance {
            limit: 9,
            used: 7,
            remaining: 2
        })
    );
}

#[test]
fn more_calls_used_than_the_limit_leaves_none_remaining() {
    let e = entitlements(Access::Free, 9, 0);
    assert_eq!(e.calls.unwrap().remaining, 0);
    assert_eq!(
        start_decision(&e),
        StartDecision::FreeCallsUsedUp { limit: 5 }
    );
}

#[test]
fn an_active_or_trialing_subscription_or_a_monthly_plan_is_unlimited_without_a_warning() {
    for f in [
        facts(PlanType::Monthly, Some(SubscriptionStatus::Active)),
        facts(PlanType::Monthly, Some(SubscriptionStatus::Trialing)),
        facts(PlanType::Monthly, None),
        facts(PlanType::Free, Some(SubscriptionStatus::Active)),
    ] {
        let e = entitlements(access(&f, T0), 12, 0);
        assert_eq!(e.plan_type, PlanType::Monthly, "{f:?}");
        assert!(e.unlimited, "{f:?}");
        assert_eq!((e.calls, e.max_call_seconds, e.warning), (None, None, None));
        assert_eq!(
            start_decision(&e),
            StartDecision::Start {
                free: false,
                max_seconds: None
            }
        );
    }
}

#[test]
fn an_inactive_monthly_plan_without_a_subscription_is_free() {
    let f = BillingFacts {
        plan_status: PlanStatus::Inactive,
        ..facts(PlanType::Monthly, None)
    };
    assert_eq!(access(&f, T0), Access::Free);
}

#[test]
fn a_past_due_subscription_stays_unlimited_and_warns() {
    // The plan row went back to free when the subscription stopped counting as subscribed.
    let f = facts(PlanType::Free, Some(SubscriptionStatus::PastDue));
    let e = entitlements(access(&f, T0), 0, 0);
    assert!(e.unlimited);
    assert_eq!(e.warning, Some(Warning::PaymentFailed));
    assert_eq!(e.warning.unwrap().as_str(), "payment_failed");
}

#[test]
fn an_unpaid_subscription_warns_until_its_period_ends_then_is_free() {
    let mut f = facts(PlanType::Free, Some(SubscriptionStatus::Unpaid));
    f.current_period_end = Some(T0 + Duration::days(3));
    assert_eq!(
        access(&f, T0),
        Access::Paid {
            warning: Some(Warning::PaymentFailed)
        }
    );
    assert_eq!(access(&f, T0 + Duration::days(3)), Access::Free);
    f.current_period_end = None;
    assert!(payment_failing(&f, T0), "an unknown end has not passed");
}

#[test]
fn ended_and_unfinished_subscriptions_give_the_free_trial() {
    for status in [
        SubscriptionStatus::Canceled,
        SubscriptionStatus::Incomplete,
        SubscriptionStatus::IncompleteExpired,
        SubscriptionStatus::Paused,
        SubscriptionStatus::NotStarted,
    ] {
        assert_eq!(
            access(&facts(PlanType::Free, Some(status)), T0),
            Access::Free,
            "{status}"
        );
    }
}

#[test]
fn a_free_call_starts_counted_and_capped_while_calls_remain() {
    let e = entitlements(Access::Free, 4, 0);
    assert_eq!(
        start_decision(&e),
        StartDecision::Start {
            free: true,
            max_seconds: Some(300)
        }
    );
}

#[test]
fn client_call_ids_are_one_to_sixty_four_url_safe_characters() {
    for ok in ["a", "call-1", "A_b-9", &"x".repeat(64)] {
        assert_eq!(ClientCallId::parse(ok).unwrap().as_str(), ok);
    }
    for bad in ["", " ", "a b", "a/b", "é", "a.b", &"x".repeat(65)] {
        assert_eq!(
            ClientCallId::parse(bad),
            Err(InvalidClientCallId),
            "{bad:?}"
        );
    }
}

#[test]
fn grants_are_one_to_a_thousand_calls() {
    assert_eq!(parse_grant(1), Ok(1));
    assert_eq!(parse_grant(1000), Ok(1000));
    for bad in [0, -1, 1001, i64::MAX] {
        assert_eq!(parse_grant(bad), Err(InvalidGrant), "{bad}");
    }
}

#[test]
fn a_free_call_lapses_at_exactly_three_hundred_seconds_and_ends_at_its_cap() {
    let mut call = free_call(T0);
    call.last_heartbeat_at = T0 + Duration::seconds(290);
    assert_eq!(call.lapse(T0 + Duration::seconds(299)), None);
    let ending = call.lapse(T0 + Duration::seconds(300)).unwrap();
    assert_eq!(
        ending,
        Ending {
            at: T0 + Duration::seconds(300),
            reason: EndReason::TimeLimit,
            duration_seconds: 300
        }
    );
    let late = call.lapse(T0 + Duration::seconds(330)).unwrap();
    assert_eq!((late.at, late.duration_seconds), (ending.at, 300));
}

#[test]
fn a_call_without_a_heartbeat_for_two_minutes_ends_at_its_last_heartbeat() {
    let mut call = free_call(T0);
    call.last_heartbeat_at = T0 + Duration::seconds(60);
    assert_eq!(call.lapse(T0 + Duration::seconds(179)), None);
    assert_eq!(
        call.lapse(T0 + Duration::seconds(180)),
        Some(Ending {
            at: T0 + Duration::seconds(60),
            reason: EndReason::Stale,
            duration_seconds: 60
        })
    );
    // Abandoned before its cap: it ended when it was abandoned, not at the cap.
    assert_eq!(
        call.lapse(T0 + Duration::hours(5)).unwrap().reason,
        EndReason::Stale
    );
}

#[test]
fn a_paid_call_is_not_metered_but_ends_after_four_hours() {
    assert_eq!(PAID_CALL_MAX_SECONDS, 4 * 3600);
    let call = OpenCall {
        max_seconds: None,
        ..free_call(T0)
    };
    assert_eq!(call.cap(), T0 + Duration::hours(4));
    let ending = call.end(T0 + Duration::seconds(100));
    assert_eq!(
        (ending.reason, ending.duration_seconds),
        (EndReason::Ended, 100)
    );
    assert_eq!(call.elapsed_seconds(T0 + Duration::seconds(4000)), 4000);
    let beating = OpenCall {
        last_heartbeat_at: T0 + Duration::hours(4) - Duration::seconds(10),
        ..call
    };
    assert_eq!(
        beating.lapse(T0 + Duration::hours(4) - Duration::seconds(1)),
        None
    );
    assert_eq!(
        beating.lapse(T0 + Duration::hours(4) + Duration::seconds(5)),
        Some(Ending {
            at: T0 + Duration::hours(4),
            reason: EndReason::TimeLimit,
            duration_seconds: 4 * 3600
        })
    );
    assert_eq!(time_limit_message(None), PAID_CALL_TIME_LIMIT_MESSAGE);
    assert_eq!(time_limit_message(Some(300)), CALL_TIME_LIMIT_MESSAGE);
}

#[test]
fn a_heartbeat_ends_a_paid_call_whose_plan_lapsed_and_leaves_the_rest_alone() {
    let paid = Access::Paid { warning: None };
    let failing = Access::Paid {
        warning: Some(Warning::PaymentFailed),
    };
    let call = OpenCall {
        max_seconds: None,
        ..free_call(T0)
    };
    let now = T0 + Duration::seconds(20);
    assert_eq!(heartbeat_ending(&call, false, paid, now), None);
    assert_eq!(
        heartbeat_ending(&call, false, failing, now),
        None,
        "a failing payment warns only"
    );
    assert_eq!(
        heartbeat_ending(&call, false, Access::Free, now),
        Some(Ending {
            at: now,
            reason: EndReason::PlanLapsed,
            duration_seconds: 20
        })
    );
    // A free call keeps its own terms, whatever the plan does.
    assert_eq!(
        heartbeat_ending(&free_call(T0), true, Access::Free, now),
        None
    );
    assert_eq!(
        heartbeat_ending(&call, false, Access::Free, T0 + Duration::seconds(301)).map(|e| e.reason),
        Some(EndReason::Stale),
        "abandoned before the plan lapsed: it ended at its last heartbeat"
    );
    // Over its cap, the cap is the reason, not the plan.
    let late = OpenCall {
        last_heartbeat_at: T0 + Duration::hours(4),
        ..call
    };
    assert_eq!(
        heartbeat_ending(
            &late,
            false,
            Access::Free,
            T0 + Duration::hours(4) + Duration::seconds(1)
        )
        .map(|e| e.reason),
        Some(EndReason::TimeLimit)
    );
    assert_eq!(EndReason::parse("plan_lapsed"), EndReason::PlanLapsed);
    assert_eq!(EndReason::PlanLapsed.as_str(), "plan_lapsed");
}

#[test]
fn ending_a_call_by_hand_takes_now_unless_it_had_already_lapsed() {
    let call = free_call(T0);
    let ending = call.end(T0 + Duration::seconds(42));
    assert_eq!(
        ending,
        Ending {
            at: T0 + Duration::seconds(42),
            reason: EndReason::Ended,
            duration_seconds: 42
        }
    );
    assert_eq!(
        call.end(T0 + Duration::seconds(100)).reason,
        EndReason::Ended
    );
    assert_eq!(
        call.end(T0 + Duration::seconds(121)).reason,
        EndReason::Stale
    );
}

#[test]
fn end_reasons_have_stored_names() {
    for r in [EndReason::Ended, EndReason::TimeLimit, EndReason::Stale] {
        assert_eq!(EndReason::parse(r.as_str()), r);
    }
    assert_eq!(EndReason::parse("other"), EndReason::Ended);
}

#[test]
fn an_entitlement_token_is_valid_a_day_then_in_grace_a_week_then_expires() {
    let t = entitlement_times(T0);
    assert_eq!(t.iat, T0.unix_timestamp());
    assert_eq!(t.valid_until, t.iat + 24 * 3600);
    assert_eq!(t.grace_until, t.valid_until + 7 * 24 * 3600);
    assert_eq!(t.exp, t.grace_until);
}

#[test]
fn this_month_starts_at_midnight_utc_on_the_first() {
    assert_eq!(month_start(T0), datetime!(2026-11-01 00:00:00 UTC));
    assert_eq!(
        month_start(datetime!(2026-12-01 00:00:00 +02:00)),
        datetime!(2026-11-01 00:00:00 UTC),
        "22:00 UTC on 30 November"
    );
}

proptest! {
    #[test]
    fn a_client_call_id_parses_exactly_when_it_is_short_and_url_safe(raw in "\\PC{0,70}") {
        let expected = !raw.is_empty()
            && raw.len() <= 64
            && raw.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
        prop_assert_eq!(ClientCallId::parse(&raw).is_ok(), expected);
    }

    #[test]
    fn every_valid_client_call_id_parses(raw in "[A-Za-z0-9_-]{1,64}") {
        let id = ClientCallId::parse(&raw).unwrap();
        prop_assert_eq!(id.as_str(), raw.as_str());
    }

    #[test]
    fn the_free_meter_never_goes_negative_and_refuses_exactly_when_nothing_remains(
        used in 0u32..50, granted in 0u32..50,
    ) {
        let e = entitlements(Access::Free, used, granted);
        let c = e.calls.unwrap();
        prop_assert_eq!(c.limit, 5 + granted);
        prop_assert_eq!(c.remaining, (5 + granted).saturating_sub(used));
        let refused = matches!(start_decision(&e), StartDecision::FreeCallsUsedUp { .. });
        prop_assert_eq!(refused, used >= 5 + granted);
    }

    #[test]
    fn a_free_calls_duration_is_never_over_its_cap_nor_negative(
        heartbeat in 0i64..1000, later in 0i64..1000,
    ) {
        let call = OpenCall {
            last_heartbeat_at: T0 + Duration::seconds(heartbeat),
            ..free_call(T0)
        };
        let now = call.last_heartbeat_at + Duration::seconds(later);
        let ending = call.end(now);
        prop_assert!((0..=300).contains(&ending.duration_seconds));
        prop_assert!(ending.at >= T0 && ending.at <= now);
        prop_assert!(call.elapsed_seconds(now) <= 300);
        if let Some(lapsed) = call.lapse(now) {
            prop_assert_eq!(lapsed, ending);
        }
    }

    #[test]
    fn only_paid_access_is_unlimited(status in proptest::sample::select(SubscriptionStatus::ALL.to_vec()), paid_plan: bool) {
        let plan = if paid_plan { PlanType::Monthly } else { PlanType::Free };
        let f = facts(plan, Some(status));
        let e = entitlements(access(&f, T0), 0, 0);
        prop_assert_eq!(e.unlimited, e.calls.is_none());
        prop_assert_eq!(e.unlimited, e.max_call_seconds.is_none());
        prop_assert_eq!(e.warning.is_some(), matches!(status, SubscriptionStatus::PastDue | SubscriptionStatus::Unpaid));
        prop_assert_eq!(e.unlimited, paid_plan || status.counts_as_subscribed() || e.warning.is_some());
    }
}

proptest! {
    /// `lapses_at` is the first instant `lapse` answers: the cache of a user's facts relies on it
    /// to know, without a query, that none of their open calls has lapsed yet.
    #[test]
    fn a_call_lapses_exactly_at_lapses_at(
        heartbeat_after in 0i64..20_000,
        max in proptest::option::of(1u32..20_000),
        probe in 0i64..40_000,
    ) {
        let call = OpenCall {
            started_at: T0,
            last_heartbeat_at: T0 + Duration::seconds(heartbeat_after),
            max_seconds: max,
        };
        let at = call.lapses_at();
        prop_assert!(call.lapse(at).is_some());
        prop_assert!(call.lapse(at - Duration::seconds(1)).is_none());
        let now = T0 + Duration::seconds(probe);
        prop_assert_eq!(call.lapse(now).is_some(), now >= at);
    }
}
