"""stripe-mock driven by Stripe's official Python library (`stripe`, pinned in requirements.txt,
unchanged): coupons, promotion codes, tax IDs and invoices created, listed and retrieved; a
checkout with automatic tax paid on the hosted page and its taxed invoice; the error classes.

run.sh starts the mock and passes its port and key in the environment. The tests share one mock
and run in the order they are written (unittest sorts them by name: hence the numbers).
"""

import os
import unittest
import urllib.error
import urllib.parse
import urllib.request

import stripe


def env(name):
    value = os.environ.get(name)
    if not value:
        raise RuntimeError(f"{name} is not set: run this suite with run.sh")
    return value


BASE = f"http://127.0.0.1:{env('STRIPE_MOCK_PORT')}"
KEY = env("STRIPE_MOCK_SECRET_KEY")
PRICE = "price_closewise_monthly"
CLIENT = stripe.StripeClient(KEY, base_addresses={"api": BASE}, max_network_retries=0)
STATE = {}


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


def post_form(url, fields):
    """POSTs the hosted checkout form as a browser would; returns the status."""
    opener = urllib.request.build_opener(NoRedirect)
    data = urllib.parse.urlencode(fields).encode()
    try:
        with opener.open(urllib.request.Request(url, data=data, method="POST")) as res:
            return res.status
    except urllib.error.HTTPError as e:
        return e.code


def fetch(url):
    with urllib.request.urlopen(url) as res:
        return res.status, res.headers.get("content-type"), res.read()


class StripeMockThroughPython(unittest.TestCase):
    def test_01_coupons_are_created_listed_and_retrieved(self):
        coupon = CLIENT.v1.coupons.create(
            params={"percent_off": 20, "duration": "repeating", "duration_in_months": 3, "name": "Launch"}
        )
        self.assertEqual(coupon.object, "coupon")
        self.assertEqual(coupon.percent_off, 20)
        self.assertEqual(coupon.duration_in_months, 3)
        self.assertTrue(coupon.valid)
        got = CLIENT.v1.coupons.retrieve(coupon.id)
        self.assertEqual(got.name, "Launch")
        amount = CLIENT.v1.coupons.create(params={"amount_off": 500, "currency": "usd", "duration": "once"})
        listed = CLIENT.v1.coupons.list(params={"limit": 10})
        self.assertEqual(listed.object, "list")
        self.assertEqual({c.id for c in listed.data}, {coupon.id, amount.id})
        with self.assertRaises(stripe.InvalidRequestError) as caught:
            CLIENT.v1.coupons.create(params={"percent_off": 150})
        self.assertEqual(caught.exception.param, "percent_off")
        STATE["coupon"] = coupon.id

    def test_02_promotion_codes_are_created_listed_and_retrieved(self):
        code = CLIENT.v1.promotion_codes.create(
            params={
                "promotion": {"type": "coupon", "coupon": STATE["coupon"]},
                "code": "PY20",
                "max_redemptions": 5,
            }
        )
        self.assertEqual(code.object, "promotion_code")
        self.assertEqual(code.promotion.coupon, STATE["coupon"])
        found = CLIENT.v1.promotion_codes.list(params={"code": "py20", "active": True})
        self.assertEqual([p.id for p in found.data], [code.id])
        self.assertEqual(CLIENT.v1.promotion_codes.retrieve(code.id).code, "PY20")
        off = CLIENT.v1.promotion_codes.update(code.id, params={"active": False})
        self.assertFalse(off.active)

    def test_03_tax_ids_are_created_listed_and_retrieved(self):
        customer = CLIENT.v1.customers.create(
            params={
                "email": "finance@example.com",
                "name": "Acme GmbH",
                "address": {"line1": "Hauptstraße 5", "city": "Berlin", "postal_code": "10115", "country": "DE"},
            }
        )
        vat = CLIENT.v1.customers.tax_ids.create(customer.id, params={"type": "eu_vat", "value": "DE 123 456 789"})
        self.assertTrue(vat.id.startswith("txi_"))
        self.assertEqual(vat.value, "DE123456789")
        self.assertEqual(vat.country, "DE")
        listed = CLIENT.v1.customers.tax_ids.list(customer.id)
        self.assertEqual([t.id for t in listed.data], [vat.id])
        self.assertEqual(CLIENT.v1.customers.tax_ids.retrieve(customer.id, vat.id).type, "eu_vat")
        with self.assertRaises(stripe.InvalidRequestError) as caught:
            CLIENT.v1.customers.tax_ids.create(customer.id, params={"type": "gb_vat", "value": "GB12"})
        self.assertEqual(caught.exception.code, "tax_id_invalid")
        self.assertEqual(caught.exception.param, "value")
        deleted = CLIENT.v1.customers.tax_ids.delete(customer.id, vat.id)
        self.assertTrue(deleted.deleted)
        STATE["customer"] = customer.id

    def test_04_a_checkout_with_automatic_tax_ends_with_a_taxed_invoice(self):
        session = CLIENT.v1.checkout.sessions.create(
            params={
                "mode": "subscription",
                "customer": STATE["customer"],
                "customer_update": {"address": "auto"},
                "automatic_tax": {"enabled": True},
                "line_items": [{"price": PRICE, "quantity": 3}],
                "success_url": "http://app.test/success",
            }
        )
        self.assertTrue(session.automatic_tax.enabled)
        self.assertEqual(session.total_details.amount_tax, 1140)
        status = post_form(
            session.url,
            {
                "cardnumber": "4242 4242 4242 4242",
                "exp": "12 / 34",
                "cvc": "123",
                "name": "Ada Buyer",
                "billing_name": "Ada Buyer",
                "line1": "Hauptstraße 5",
                "city": "Berlin",
                "postal_code": "10115",
                "country": "DE",
            },
        )
        self.assertEqual(status, 303)
        STATE["session"] = session.id

    def test_05_invoices_are_listed_and_retrieved_with_their_tax_and_documents(self):
        listed = CLIENT.v1.invoices.list(params={"customer": STATE["customer"], "limit": 10})
        self.assertEqual(len(listed.data), 1)
        invoice = CLIENT.v1.invoices.retrieve(listed.data[0].id)
        self.assertEqual(invoice.status, "paid")
        self.assertTrue(invoice.number.startswith("CW-"))
        self.assertEqual(invoice.total_excluding_tax, 6000)
        self.assertEqual(invoice.total, 7140)
        self.assertEqual(invoice.amount_paid, 7140)
        self.assertEqual(len(invoice.total_taxes), 1)
        tax = invoice.total_taxes[0]
        self.assertEqual(tax.amount, 1140)
        self.assertEqual(tax.taxable_amount, 6000)
        self.assertEqual(tax.taxability_reason, "standard_rated")
        self.assertEqual(invoice.lines.data[0].taxes[0].amount, 1140)
        status, _, page = fetch(invoice.hosted_invoice_url)
        self.assertEqual(status, 200)
        self.assertIn(invoice.number, page.decode())
        status, kind, pdf = fetch(invoice.invoice_pdf)
        self.assertEqual((status, kind), (200, "application/pdf"))
        self.assertTrue(pdf.startswith(b"%PDF-"))
        lines = CLIENT.v1.invoices.line_items.list(invoice.id)
        self.assertEqual(lines.data[0].quantity, 3)
        preview = CLIENT.v1.invoices.create_preview(params={"customer": STATE["customer"]})
        self.assertIsNone(preview.number)
        self.assertEqual(preview.total_taxes[0].amount, 1140)
        pages = list(CLIENT.v1.invoices.list(params={"limit": 1}).auto_paging_iter())
        self.assertEqual([i.id for i in pages], [invoice.id])

    def test_06_error_classes(self):
        stranger = stripe.StripeClient("sk_test_not_the_mock_key_0000", base_addresses={"api": BASE})
        with self.assertRaises(stripe.AuthenticationError) as caught:
            stranger.v1.customers.retrieve(STATE["customer"])
        self.assertEqual(caught.exception.http_status, 401)
        with self.assertRaises(stripe.InvalidRequestError) as caught:
            CLIENT.v1.invoices.retrieve("in_missing")
        self.assertEqual(caught.exception.code, "resource_missing")
        self.assertEqual(caught.exception.http_status, 404)


if __name__ == "__main__":
    unittest.main()
