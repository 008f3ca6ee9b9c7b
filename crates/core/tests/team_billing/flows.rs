//! Team billing's flows as the API calls them, up to Stripe (out of reach here: the API suite
//! runs the Stripe side against stripe-mock): who may open the checkout and the portal, and the
//! refusals that come before Stripe is called.

use closewise_core::billing::PortalReturn;
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

/// The team portal is the owner's, goes back to a page of the site, and needs the team's Stripe
/// customer; with one, Stripe is asked (and here fails).
async fn the_team_portal_is_the_owners_and_needs_a_customer(postgres: bool) {
    let fx = fixture(postgres).await;
    let (team, owner, member) = fx.team("p").await;
    let stranger = fx.user("stranger-p@elsewhere.test").await;
    let portal = |who| fx.billing.open_team_portal(who, back_to(None));
    assert!(matches!(
        portal(stranger).await,
        Err(TeamBillingError::TeamNotFound)
    ));
    assert!(matches!(
        portal(member).await,
        Err(TeamBillingError::ForbiddenRole)
    ));
    let off_site = fx
        .billing
        .open_team_portal(owner, back_to(Some("https://evil.example/")))
        .await;
    assert!(
        matches!(off_site, Err(TeamBillingError::InvalidRedirect)),
        "{off_site:?}"
    );
    let none = portal(owner).await.unwrap_err();
    assert!(matches!(none, TeamBillingError::NoCustomer), "{none:?}");
    assert_eq!(none.code(), "no_customer");

    fx.store
        .save_team_customer(team, "cus_team_p", fx.clock.now())
        .await
        .unwrap();
    let failed = portal(owner).await.unwrap_err();
    assert!(
        matches!(failed, TeamBillingError::PortalFailed(_)),
        "{failed:?}"
    );
    assert_eq!(failed.code(), "portal_failed");
}

/// A team checkout is the owner's, with a verified address and return pages on the site; each
/// refusal comes before Stripe and changes nothing.
async fn a_team_checkout_is_refused_before_stripe(postgres: bool) {
    let fx = fixture(postgres).await;
    let (team, owner, member) = fx.team("q").await;
    let order = |success_url| TeamCheckout {
        seats: 3,
        price_id: "price_closewise_monthly",
        success_url,
        cancel_url: "http://127.0.0.1:8080/team",
        site: SITE,
    };
    let on_site = order("http://127.0.0.1:8080/team?paid={CHECKOUT_SESSION_ID}");
    let refused = fx.billing.start_team_checkout(member, &on_site).await;
    assert!(
        matches!(refused, Err(TeamBillingError::ForbiddenRole)),
        "{refused:?}"
    );
    let off_site = fx
        .billing
        .start_team_checkout(owner, &order("https://evil.example/paid"))
        .await;
    assert!(
        matches!(off_site, Err(TeamBillingError::InvalidRedirect)),
        "{off_site:?}"
    );

    fx.unverify(owner).await;
    let unverified = fx.billing.start_team_checkout(owner, &on_site).await;
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

#[tokio::test]
async fn the_team_portal_is_the_owners_and_needs_a_customer_sqlite() {
    the_team_portal_is_the_owners_and_needs_a_customer(false).await
}
#[tokio::test]
async fn the_team_portal_is_the_owners_and_needs_a_customer_postgres() {
    the_team_portal_is_the_owners_and_needs_a_customer(true).await
}
#[tokio::test]
async fn a_team_checkout_is_refused_before_stripe_sqlite() {
    a_team_checkout_is_refused_before_stripe(false).await
}
#[tokio::test]
async fn a_team_checkout_is_refused_before_stripe_postgres() {
    a_team_checkout_is_refused_before_stripe(true).await
}
