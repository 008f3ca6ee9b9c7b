//! Team billing's races on both databases: a seat change waiting for Stripe, an account deletion
//! crossing a transfer, seats recorded by hand while a payment lands.

use super::*;

both!(
    /// A seat change waiting for Stripe holds back only its own team: nothing else waits for it (on
    /// SQLite, with one writer, holding the database's write lock across Stripe made every other
    /// write wait behind Stripe and fail after the busy timeout), and no invite takes a seat it
    /// removes. A failed change gives the seats back.
    async fn a_seat_change_waiting_for_stripe_holds_back_only_its_own_team(fx: Fx) from fixture {
        let (team, owner, _) = fx.team("d").await; // 3 seats, 2 used
        let (_, other_owner, _) = fx.team("e").await;
        let (started_tx, started) = tokio::sync::oneshot::channel::<()>();
        let (release, wait) = tokio::sync::oneshot::channel::<()>();
        let (store, now) = (fx.store.clone(), fx.clock.now());
        let record = fx.record("sub_d", SubscriptionStatus::Active);
        let resize = tokio::spawn(async move {
            store
                .resize_team_seats(team, 2, now, None, || async move {
                    started_tx.send(()).unwrap();
                    wait.await.unwrap(); // Stripe, taking its time
                    Ok::<_, ()>((record, 2))
                })
                .await
                .unwrap()
        });
        started.await.unwrap();

        let quick = Duration::from_secs(3);
        tokio::time::timeout(
            quick,
            fx.teams.invite(
                &closewise_core::actor::Actor::member(other_owner, ""),
                "new-e@northwind.test",
                Role::Member,
            ),
        )
        .await
        .expect("another team's invite is not held up")
        .unwrap();
        tokio::time::timeout(quick, fx.user("someone@else.test"))
            .await
            .expect("other writes are not held up");

        let teams = fx.teams.clone();
        let invite = tokio::spawn(async move {
            teams
                .invite(
                    &closewise_core::actor::Actor::member(owner, ""),
                    "late-d@northwind.test",
                    Role::Member,
                )
                .await
        });
        tokio::time::sleep(Duration::from_millis(200)).await;
        release.send(()).unwrap();
        match resize.await.unwrap() {
            ResizeOutcome::Done(seats) => assert_eq!((seats.total, seats.members), (2, 2)),
            other => panic!("{other:?}"),
        }
        let refused = invite.await.unwrap().unwrap_err();
        assert_eq!(
            refused.code(),
            "seats_taken",
            "the seat went with the change"
        );
        assert_eq!(fx.store.team_by_id(team).await.unwrap().unwrap().seats, 2);

        // Up to 3, then down to 2 with Stripe failing: the third seat stays, free to invite.
        // Each audited: the row lands with the seats Stripe answered, and not when Stripe fails.
        let record = fx.record("sub_d", SubscriptionStatus::Active);
        let audit = |after: u32| {
            let details = serde_json::json!({"team_id": team, "seats": {"after": after}});
            closewise_core::actor::Actor::operator("ops-d", None).audit(
                "team.seats",
                None,
                None,
                details,
                now,
            )
        };
        let seat_rows = || async {
            let rows = fx.store.audit_log(50).await.unwrap();
            rows.into_iter()
                .filter(|r| r.action == "team.seats" && r.actor == "ops-d")
                .count()
        };
        let three = audit(3);
        let up = fx
            .store
            .resize_team_seats(team, 3, now, Some(&three), || async {
                Ok::<_, ()>((record, 3))
            });
        assert!(matches!(up.await.unwrap(), ResizeOutcome::Done(s) if s.total == 3));
        assert_eq!(seat_rows().await, 1, "audited with the change");
        let outcome = fx
            .store
            .resize_team_seats(team, 2, now, Some(&audit(2)), || async {
                Err::<(SubscriptionRecord, u32), _>("down")
            })
            .await
            .unwrap();
        assert!(
            matches!(outcome, ResizeOutcome::Failed("down")),
            "{outcome:?}"
        );
        assert_eq!(
            seat_rows().await,
            1,
            "no row for a change that did not happen"
        );
        assert_eq!(fx.store.team_by_id(team).await.unwrap().unwrap().seats, 3);
        fx.teams
            .invite(
                &closewise_core::actor::Actor::member(owner, ""),
                "late-d@northwind.test",
                Role::Member,
            )
            .await
            .expect("the seat is free again");
        let refused = fx.store.resize_team_seats(team, 2, now, None, || async {
            Err::<(SubscriptionRecord, u32), _>("never called")
        });
        assert!(matches!(refused.await.unwrap(), ResizeOutcome::Refused(_)));
    }
);

both!(
    /// The store itself never deletes the owner of a team somebody else is in (the cascade would take
    /// the team, its members and invites, and leave its subscription billing): a transfer that lands
    /// between an account deletion's checks and its delete is caught in the delete's transaction.
    async fn the_owner_of_a_team_someone_needs_is_never_deleted(fx: Fx) from fixture {
        let (team, owner, member) = fx.team("f").await;
        fx.teams
            .transfer(
                &closewise_core::actor::Actor::member(owner, ""),
                None,
                member,
            )
            .await
            .unwrap(); // after the member's checks
        assert_eq!(
            fx.store.delete_user(member).await.unwrap(),
            UserDeletion::TeamOwner
        );
        assert!(fx.store.user_by_id(member).await.unwrap().is_some());
        assert_eq!(
            fx.store.team_by_id(team).await.unwrap().unwrap().owner_id,
            member
        );
        assert_eq!(
            fx.store.membership_of(owner).await.unwrap(),
            Some((team, Role::Admin))
        );

        // Transfer and deletion at once, many times: the team always survives with an owner.
        for round in 0..12 {
            let (team, owner, member) = fx.team(&format!("race{round}")).await;
            let (teams, accounts) = (fx.teams.clone(), fx.accounts.clone());
            let transfer = tokio::spawn(async move {
                teams
                    .transfer(
                        &closewise_core::actor::Actor::member(owner, ""),
                        None,
                        member,
                    )
                    .await
            });
            let delete = tokio::spawn(async move { accounts.delete(member, None).await });
            let (transferred, deleted) = (transfer.await.unwrap(), delete.await.unwrap());
            let row = fx.store.team_by_id(team).await.unwrap();
            let row = row.unwrap_or_else(|| {
                panic!("round {round}: the team went ({transferred:?}, {deleted:?})")
            });
            match deleted {
                Ok(d) if d.deleted => {
                    assert!(transferred.is_err(), "round {round}");
                    assert_eq!(row.owner_id, owner);
                }
                _ => {
                    assert!(transferred.is_ok(), "round {round}: {deleted:?}");
                    assert_eq!(row.owner_id, member);
                }
            }
        }

        // Alone and unpaid, the owner goes with the team.
        let loner = fx.user("loner@northwind.test").await;
        let alone = fx
            .teams
            .create(&closewise_core::actor::Actor::member(loner, ""), "Solo")
            .await
            .unwrap();
        assert_eq!(
            fx.store.delete_user(loner).await.unwrap(),
            UserDeletion::Deleted
        );
        assert!(fx.store.team_by_id(alone.id).await.unwrap().is_none());
        assert_eq!(
            fx.store.delete_user(loner).await.unwrap(),
            UserDeletion::Gone
        );
    }
);

both!(
    /// Seats recorded by hand (the operator's `teams seats set` for a team Stripe does not bill) are
    /// refused once the team has a live subscription, decided under the team's lock: a payment that
    /// lands while the operator confirms must not have its quantity overwritten.
    async fn seats_by_hand_are_refused_once_stripe_bills_the_team(fx: Fx) from fixture {
        let (team, owner, _) = fx.team("g").await;
        let row = fx.store.team_by_id(team).await.unwrap().unwrap(); // read before the prompt
        fx.store
            .apply_team_subscription(
                team,
                &fx.record("sub_g", SubscriptionStatus::Active),
                2,
                fx.clock.now(),
            )
            .await
            .unwrap(); // paid meanwhile
        assert_eq!(
            fx.record_seats(owner, 5).await,
            Err("team_already_subscribed")
        );
        let ops = closewise_core::actor::Actor::operator("ops@closewise.test", Some("comp".into()));
        let err = fx.teams.record_seats(&ops, &row, 50).await.unwrap_err();
        assert_eq!(err.code(), "team_changed");
        assert_eq!(
            fx.store.team_by_id(team).await.unwrap().unwrap().seats,
            2,
            "Stripe's quantity stays"
        );
        // Once the subscription has ended, seats are the operator's to record again.
        fx.store
            .apply_team_subscription(
                team,
                &fx.record("sub_g", SubscriptionStatus::Canceled),
                2,
                fx.clock.now(),
            )
            .await
            .unwrap();
        fx.record_seats(owner, 4).await.unwrap();
        assert_eq!(fx.store.team_by_id(team).await.unwrap().unwrap().seats, 4);
    }
);

both!(
    /// A checkout of fewer seats lowers them at once (no invite meanwhile outgrows the payment), and
    /// gives them back when no checkout opens after all (here Stripe is out of reach), also after an
    /// abandoned first payment (`incomplete`), which bills nothing.
    async fn a_checkout_that_does_not_open_gives_the_seats_back(fx: Fx) from fixture {
        let (team, owner, _) = fx.team("h").await; // 3 seats recorded, 2 used
        let checkout = closewise_core::teams::billing::TeamCheckout {
            seats: 2,
            price_id: "price_closewise_monthly",
            prices: closewise_domain::catalogue::PriceIds::DEFAULT,
            success_url: "http://127.0.0.1:8080/team",
            cancel_url: "http://127.0.0.1:8080/team",
            site: "http://127.0.0.1:8080",
            promotion_code: None,
            interval: closewise_domain::billing_interval::Interval::Month,
            trial: false,
        };
        for status in [None, Some(SubscriptionStatus::Incomplete)] {
            if let Some(status) = status {
                fx.store
                    .apply_team_subscription(team, &fx.record("sub_h", status), 3, fx.clock.now())
                    .await
                    .unwrap();
            }
            let row = fx.store.team_by_id(team).await.unwrap().unwrap();
            assert_eq!(row.seats, 3);
            let refused = fx
                .billing
                .start_team_checkout(&fx.member(owner).await, None, &checkout)
                .await;
            assert!(
                matches!(
                    refused,
                    Err(closewise_core::teams::billing::TeamBillingError::StripeUnavailable(_))
                ),
                "{refused:?}"
            );
            assert_eq!(
                fx.store.team_by_id(team).await.unwrap().unwrap().seats,
                3,
                "given back ({status:?})"
            );
        }
    }
);
