//! With `STRIPE_AUTOMATIC_TAX=true` the personal checkout asks Stripe for automatic tax (and to
//! save the address Checkout collects for it), and the account's invoice list carries the tax.

use super::*;
use crate::both;
use closewise_testkit::Backend;

both!(
    async fn a_personal_checkout_with_automatic_tax_lists_its_invoice_with_the_tax(
        backend: Backend,
    ) {
        let b = spawn_billing_with(backend, |s| s.stripe.automatic_tax = true).await;
        let token = b.user("ana@example.com").await;
        let url = b.checkout(&token).await;
        let session_id = Billing::session_id(&url);
        let session = b.mock.object(&session_id).unwrap();
        assert_eq!(session["automatic_tax"]["enabled"], true, "{session}");
        // Paid with stripe-mock's address in Berlin: German VAT, 19 % of $20.
        b.mock.pay(&session_id, CARD_OK).expect("paid");
        let (status, v) = b.confirm(&token, &session_id).await;
        assert_eq!(status, StatusCode::OK, "{v}");
        let (status, page) = body(b.app.get_auth("/api/billing/invoices", &token).await).await;
        assert_eq!(status, StatusCode::OK, "{page}");
        let invoice = &page["invoices"][0];
        assert_eq!(invoice["subtotal"], 2000);
        assert_eq!(invoice["tax"], 380, "{invoice}");
        assert_eq!(invoice["amount"], 2380);
        assert_eq!(invoice["amount_paid"], 2380);
    }
);
