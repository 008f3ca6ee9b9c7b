//! Team billing's flows as the API calls them, up to Stripe (out of reach here: the API suite
//! runs the Stripe side against stripe-mock): who may open the checkout and the portal, and the
//! refusals that come before Stripe is called.

use closewise_core::actor::Actor;
use closewise_core::billing::PortalReturn;
use closewise_core::limits::{Limit, LimitError, RateLimits, SpendFuture};
use closewise_core::teams::billing::{TeamBillingError, TeamCheckout};
use closewise_domain::checkout::CheckoutRefusal;

use super::*;

const SITE: &str = "http://127.0.0.1:8080";

fn back_to(requested: Option<&str>) -> PortalReturn<'_> {
    PortalReturn {
        requested,
        site: SITE,
        default_path: "/team",
    }
}

both!(
    /// The team portal is the owner's, goes back to a page of the site, and needs the team's Stripe
    /// customer; with one, Stripe is asked (and here fails).
    async fn the_team_portal_is_the_owners_and_needs_a_customer(fx: Fx) from fixture {
        let (team, owner, member) = fx.team("p").await;
        let stranger = fx.user("stranger-p@elsewhere.test").await;
        let billing = &fx.billing;
        let portal =
            |who: Actor| async move { billing.open_team_portal(&who, None, back_to(None)).await };
        assert!(matches!(
            portal(fx.member(stranger).await).await,
            Err(TeamBillingError::TeamNotFound)
        ));
        assert!(matches!(
            portal(fx.member(member).await).await,
            Err(TeamBillingError::ForbiddenRole)
        ));
        let off_site = fx
            .billing
            .open_team_portal(
                &fx.member(owner).await,
                None,
                back_to(Some("https://evil.example/")),
            )
            .await;
        assert!(
            matches!(off_site, Err(TeamBillingError::InvalidRedirect)),
            "{off_site:?}"
        );
        let none = portal(fx.member(owner).await).await.unwrap_err();
        assert!(matches!(none, TeamBillingError::NoCustomer), "{none:?}");
        assert_eq!(none.code(), "no_customer");

        fx.store
            .save_team_customer(team, "cus_team_p", fx.clock.now())
            .await
            .unwrap();
        let failed = portal(fx.member(owner).await).await.unwrap_err();
        assert!(
            matches!(failed, TeamBillingError::PortalFailed(_)),
            "{failed:?}"
        );
        assert_eq!(failed.code(), "portal_failed");
    }
);

both!(
    /// A team checkout is the owner's, with a verified address and return pages on the site; each
    /// refusal comes before Stripe and changes nothing.
    async fn a_team_checkout_is_refused_before_stripe(fx: Fx) from fixture {
        let (team, owner, member) = fx.team("q").await;
        let order = |success_url| TeamCheckout {
            seats: 3,
            price_id: "price_closewise_monthly",
            prices: closewise_domain::catalogue::PriceIds::DEFAULT,
            success_url,
            cancel_url: "http://127.0.0.1:8080/team",
            site: SITE,
            promotion_code: None,
            interval: closewise_domain::billing_interval::Interval::Month,
            trial: false,
        };
        let on_site = order("http://127.0.0.1:8080/team?paid={CHECKOUT_SESSION_ID}");
        let refused = fx
            .billing
            .start_team_checkout(&fx.member(member).await, None, &on_site)
            .await;
        assert!(
            matches!(refused, Err(TeamBillingError::ForbiddenRole)),
            "{refused:?}"
        );
        let off_site = fx
            .billing
            .start_team_checkout(
                &fx.member(owner).await,
                None,
                &order("https://evil.example/paid"),
            )
            .await;
        assert!(
            matches!(off_site, Err(TeamBillingError::InvalidRedirect)),
            "{off_site:?}"
        );

        fx.unverify(owner).await;
        let unverified = fx
            .billing
            .start_team_checkout(&fx.member(owner).await, None, &on_site)
            .await;
        assert!(
            matches!(
                unverified,
                Err(TeamBillingError::Refused(CheckoutRefusal::EmailNotVerified))
            ),
            "{unverified:?}"
        );
        let row = fx.store.team_by_id(team).await.unwrap().unwrap();
        assert_eq!(
            (row.seats, row.stripe_customer_id),
            (3, None),
            "nothing changed"
        );
    }
);

/// Counts what is spent; refuses from the second spending on.
#[derive(Default)]
struct Budget(std::sync::Mutex<Vec<(Limit, String)>>);

impl RateLimits for Budget {
    fn spend<'a>(&'a self, limit: Limit, key: &'a str) -> SpendFuture<'a> {
        let mut spent = self.0.lock().unwrap();
        spent.push((limit, key.to_owned()));
        let over = spent.len() > 1;
        Box::pin(async move {
            match over {
                true => Err(LimitError::Limited { retry_after: 30 }),
                false => Ok(()),
            }
        })
    }
}

both!(
    /// The seat commands check the actor's role themselves: a member is refused by core, before a
    /// Stripe budget is spent; an operator acts with the owner's authority on the team they name.
    async fn the_seat_commands_check_the_role_before_spending(fx: Fx) from fixture {
        let (team, owner, member) = fx.team("r").await;
        let budget = std::sync::Arc::new(Budget::default());
        let billing = fx.billing.clone().with_limits(budget.clone());
        let member = fx.member(member).await;
        let refused = billing.change_team_seats(&member, None, 4, None).await;
        assert!(
            matches!(refused, Err(TeamBillingError::ForbiddenRole)),
            "{refused:?}"
        );
        let refused = billing.preview_team_seats(&member, None, 4).await;
        assert!(
            matches!(refused, Err(TeamBillingError::ForbiddenRole)),
            "{refused:?}"
        );
        let refused = billing.open_team_portal(&member, None, back_to(None)).await;
        assert!(
            matches!(refused, Err(TeamBillingError::ForbiddenRole)),
            "{refused:?}"
        );
        assert!(budget.0.lock().unwrap().is_empty(), "nothing spent");
        // The owner spends their budget once allowed, and is refused once it is spent.
        let owner_actor = fx.member(owner).await;
        let none = billing
            .open_team_portal(&owner_actor, None, back_to(None))
            .await;
        assert!(
            matches!(none, Err(TeamBillingError::NoCustomer)),
            "{none:?}"
        );
        assert_eq!(
            budget.0.lock().unwrap().as_slice(),
            &[(Limit::StripePerUser, owner.to_string())]
        );
        let spent = billing
            .open_team_portal(&owner_actor, None, back_to(None))
            .await;
        assert_eq!(spent.unwrap_err().code(), "rate_limited");
        // An operator names the team; without a subscription there are no seats to change at Stripe.
        let ops = Actor::operator("ops-alice", Some("ticket 4".into()));
        let unnamed = billing.change_team_seats(&ops, None, 4, None).await;
        assert!(
            matches!(unnamed, Err(TeamBillingError::TeamNotFound)),
            "{unnamed:?}"
        );
        let none = billing.change_team_seats(&ops, Some(team), 4, None).await;
        assert!(
            matches!(none, Err(TeamBillingError::NoSubscription)),
            "{none:?}"
        );
    }
);

both!(
    /// Deleting a team is the owner's (or an operator's): the role first, then the adapter's
    /// confirmation, then the team goes with its audit row in the same transaction.
    async fn deleting_a_team_checks_the_role_then_the_confirmation(fx: Fx) from fixture {
        let (team, owner, member) = fx.team("d").await;
        let asked = std::sync::atomic::AtomicU32::new(0);
        let confirm = |ok: bool| {
            let asked = &asked;
            async move {
                asked.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                if ok {
                    Ok(())
                } else {
                    Err("wrong password")
                }
            }
        };
        let refused = fx
            .billing
            .delete_team(&fx.member(member).await, None, confirm(true))
            .await;
        assert!(
            matches!(refused, Err(TeamBillingError::ForbiddenRole)),
            "{refused:?}"
        );
        assert_eq!(
            asked.load(std::sync::atomic::Ordering::SeqCst),
            0,
            "not asked"
        );
        let owner_actor = fx.member(owner).await;
        let wrong = fx
            .billing
            .delete_team(&owner_actor, None, confirm(false))
            .await;
        assert!(matches!(wrong, Ok(Err("wrong password"))), "{wrong:?}");
        assert!(fx.store.team_by_id(team).await.unwrap().is_some(), "kept");
        let ops = Actor::operator("ops-alice", Some("ticket 5".into()));
        let done = fx
            .billing
            .delete_team(&ops, Some(team), confirm(true))
            .await;
        assert!(matches!(done, Ok(Ok(None))), "{done:?}");
        assert!(fx.store.team_by_id(team).await.unwrap().is_none(), "gone");
        let rows = fx.store.audit_log(20).await.unwrap();
        let row = rows
            .iter()
            .find(|r| r.action == "team.delete")
            .expect("audited");
        assert_eq!(
            (row.actor.as_str(), row.reason.as_deref()),
            ("ops-alice", Some("ticket 5"))
        );
    }
);
