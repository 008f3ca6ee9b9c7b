// stripe-mock driven by Stripe's official Node library, unchanged, through a subscription's whole
// life: customer, checkout (paid on the hosted page with fetch, as a browser would), the
// subscription retrieved and expanded, cancel at period end and resume, the invoice preview, the
// clock moved past renewal, a seat-quantity change (previewed, prorated, billed at renewal), a
// declined renewal and its Smart Retries, paid at once by a card updated in the billing portal,
// cancellation, lists with pagination, tax IDs, invoices with their PDF, a checkout with automatic
// tax and its taxed invoice, a trial through its end, a subscription paid by invoice (sent, paid on
// its page, another overdue), error classes, and every webhook verified with
// `stripe.webhooks.constructEvent`.
//
// run.sh starts the mock and passes its port, keys and the webhook port in the environment. The
// tests share one mock and run in order (its clock only moves forward).

import assert from "node:assert/strict";
import http from "node:http";
import { after, before, describe, test } from "node:test";

import Stripe from "stripe";

const env = (name) => {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set: run this suite with run.sh`);
  return value;
};
const port = Number(env("STRIPE_MOCK_PORT"));
const hookPort = Number(env("STRIPE_MOCK_HOOK_PORT"));
const secretKey = env("STRIPE_MOCK_SECRET_KEY");
const webhookSecret = env("STRIPE_MOCK_WEBHOOK_SECRET");
const base = `http://127.0.0.1:${port}`;
const PRICE = "price_closewise_monthly";
const DAY = 86_400;

const connection = { host: "127.0.0.1", port, protocol: "http", telemetry: false };
const stripe = new Stripe(secretKey, { ...connection, maxNetworkRetries: 0 });

// ------------------------------------------------------------------ webhooks

/** Every delivery, verified: events by id (a retried delivery counts once), and what failed. */
const verified = new Map();
const refused = [];
let receiver;

function startReceiver() {
  receiver = http.createServer((req, res) => {
    const chunks = [];
    req.on("data", (c) => chunks.push(c));
    req.on("end", () => {
      const body = Buffer.concat(chunks);
      try {
        const event = stripe.webhooks.constructEvent(body, req.headers["stripe-signature"], webhookSecret);
        verified.set(event.id, event);
        res.writeHead(200).end();
      } catch (e) {
        refused.push(e);
        res.writeHead(400).end();
      }
    });
  });
  return new Promise((resolve) => receiver.listen(hookPort, "127.0.0.1", resolve));
}

/** Waits (up to 5 s) for a verified event of `type` matching `pick`, newest first. */
async function webhook(type, pick = () => true) {
  for (let i = 0; i < 250; i++) {
    const found = [...verified.values()].reverse().find((e) => e.type === type && pick(e));
    if (found) return found;
    await new Promise((r) => setTimeout(r, 20));
  }
  assert.fail(`no verified ${type} webhook; got ${[...verified.values()].map((e) => e.type).join(", ")}`);
}

// ------------------------------------------------------------------ the hosted pages and the clock

/** Submits the hosted checkout form, as a browser would. */
function payOnHostedPage(url, card) {
  return fetch(url, {
    method: "POST",
    redirect: "manual",
    body: new URLSearchParams({ email: "ada@example.com", cardnumber: card, exp: "12 / 34", cvc: "123", name: "Ada Buyer" }),
  });
}

function portalAction(url, action, fields) {
  return fetch(`${url}/${action}`, { method: "POST", redirect: "manual", body: new URLSearchParams(fields ?? {}) });
}

async function advanceClock(seconds) {
  const res = await fetch(`${base}/_mock/clock/advance`, { method: "POST", body: new URLSearchParams({ seconds: String(seconds) }) });
  assert.equal(res.status, 200);
  return res.json();
}

// ------------------------------------------------------------------ the life of a subscription

describe("stripe-mock through Stripe's Node library", () => {
  const state = {};

  before(startReceiver);
  after(() => new Promise((resolve) => receiver.close(resolve)));

  test("creates, retrieves and updates a customer", async () => {
    const customer = await stripe.customers.create({ email: "ada@example.com", metadata: { user_id: "user-42" } });
    assert.match(customer.id, /^cus_/);
    assert.equal(customer.object, "customer");
    assert.deepEqual(customer.metadata, { user_id: "user-42" });
    const got = await stripe.customers.retrieve(customer.id);
    assert.equal(got.email, "ada@example.com");
    const updated = await stripe.customers.update(customer.id, { name: "Ada Lovelace" });
    assert.equal(updated.name, "Ada Lovelace");
    const created = await webhook("customer.created", (e) => e.data.object.id === customer.id);
    assert.equal(created.data.object.email, "ada@example.com");
    const changed = await webhook("customer.updated", (e) => e.data.object.id === customer.id);
    assert.equal(changed.data.previous_attributes.name, null);
    state.customer = customer.id;
  });

  test("creates a subscription checkout session with its line items", async () => {
    const session = await stripe.checkout.sessions.create({
      mode: "subscription",
      customer: state.customer,
      line_items: [{ price: PRICE, quantity: 1 }],
      success_url: "http://app.test/success?session_id={CHECKOUT_SESSION_ID}",
      cancel_url: "http://app.test/pricing",
      client_reference_id: "user-42",
      metadata: { user_id: "user-42" },
      subscription_data: { metadata: { plan: "monthly" } },
    });
    assert.equal(session.status, "open");
    assert.equal(session.payment_status, "unpaid");
    assert.equal(session.amount_total, 2000);
    assert.ok(session.url.startsWith(`${base}/c/pay/`), session.url);
    const items = await stripe.checkout.sessions.listLineItems(session.id);
    assert.equal(items.object, "list");
    assert.equal(items.data[0].price.id, PRICE);
    state.session = session;
  });

  test("a declined card on the hosted page leaves the session open", async () => {
    const res = await payOnHostedPage(state.session.url, "4000 0000 0000 0002");
    assert.equal(res.status, 402);
    assert.match(await res.text(), /Your card was declined\./);
    const session = await stripe.checkout.sessions.retrieve(state.session.id);
    assert.equal(session.status, "open");
  });

  test("paying on the hosted page redirects to the success URL and completes the session", async () => {
    const res = await payOnHostedPage(state.session.url, "4242 4242 4242 4242");
    assert.equal(res.status, 303);
    assert.equal(res.headers.get("location"), `http://app.test/success?session_id=${state.session.id}`);
    const completed = await webhook("checkout.session.completed", (e) => e.data.object.id === state.session.id);
    assert.equal(completed.data.object.payment_status, "paid");
    await webhook("customer.subscription.created");
    await webhook("invoice.paid", (e) => e.data.object.billing_reason === "subscription_create");
  });

  test("retrieves the session and the subscription expanded", async () => {
    const session = await stripe.checkout.sessions.retrieve(state.session.id, {
      expand: ["subscription", "subscription.default_payment_method", "line_items"],
    });
    assert.equal(session.status, "complete");
    assert.equal(session.customer, state.customer);
    assert.equal(session.line_items.data[0].quantity, 1);
    const sub = session.subscription;
    assert.equal(sub.status, "active");
    assert.deepEqual(sub.metadata, { plan: "monthly" });
    assert.equal(sub.default_payment_method.card.last4, "4242");
    state.subscription = sub.id;

    const full = await stripe.subscriptions.retrieve(sub.id, { expand: ["latest_invoice", "customer", "default_payment_method"] });
    assert.equal(full.customer.id, state.customer);
    assert.equal(full.latest_invoice.status, "paid");
    assert.equal(full.latest_invoice.amount_paid, 2000);
    assert.equal(full.default_payment_method.card.brand, "visa");
    state.periodEnd = full.items.data[0].current_period_end;
    state.item = full.items.data[0].id;
    assert.ok(state.periodEnd > full.items.data[0].current_period_start);
  });

  test("cancels at period end and resumes", async () => {
    const canceling = await stripe.subscriptions.update(state.subscription, { cancel_at_period_end: true });
    assert.equal(canceling.cancel_at_period_end, true);
    const event = await webhook("customer.subscription.updated", (e) => e.data.object.cancel_at_period_end === true);
    assert.equal(event.data.previous_attributes.cancel_at_period_end, false);
    const resumed = await stripe.subscriptions.update(state.subscription, { cancel_at_period_end: false });
    assert.equal(resumed.cancel_at_period_end, false);
    await webhook("customer.subscription.updated", (e) => e.data.previous_attributes?.cancel_at_period_end === true);
  });

  test("a price that does not exist is refused, and nothing changes", async () => {
    await assert.rejects(
      stripe.subscriptions.update(state.subscription, { items: [{ id: state.item, price: "price_other" }] }),
      (e) => {
        assert.ok(e instanceof Stripe.errors.StripeInvalidRequestError, e.constructor.name);
        assert.equal(e.statusCode, 400);
        assert.equal(e.code, "resource_missing");
        return true;
      },
    );
    const sub = await stripe.subscriptions.retrieve(state.subscription);
    assert.equal(sub.items.data[0].quantity, 1);
  });

  test("previews the next invoice from the subscription and the clock", async () => {
    const preview = await stripe.invoices.createPreview({ subscription: state.subscription });
    assert.equal(preview.object, "invoice");
    assert.equal(preview.status, "draft");
    assert.equal(preview.amount_due, 2000);
    assert.equal(preview.period_start, state.periodEnd);
    assert.equal(preview.lines.data[0].period.start, state.periodEnd);
  });

  test("moving the clock past renewal pays an invoice and sends its events", async () => {
    const moved = await advanceClock(32 * DAY);
    assert.ok(moved.now > state.periodEnd);
    const types = moved.events.map((e) => e.type);
    assert.ok(types.includes("invoice.paid") && types.includes("customer.subscription.updated"), types.join());
    const paid = await webhook("invoice.paid", (e) => e.data.object.billing_reason === "subscription_cycle");
    assert.equal(paid.data.object.subscription, state.subscription);
    const invoices = await stripe.invoices.list({ subscription: state.subscription });
    assert.equal(invoices.data.length, 2);
    assert.equal(invoices.data[0].id, paid.data.object.id, "newest first");
    const invoice = await stripe.invoices.retrieve(paid.data.object.id);
    assert.equal(invoice.status, "paid");
    assert.equal(invoice.lines.data[0].amount, 2000);
    const sub = await stripe.subscriptions.retrieve(state.subscription);
    assert.equal(sub.items.data[0].current_period_start, state.periodEnd);
  });

  test("a quantity change is previewed, prorated and billed at renewal", async () => {
    const before = await stripe.subscriptions.retrieve(state.subscription);
    const { current_period_start: start, current_period_end: end } = before.items.data[0];
    const { now: at } = await advanceClock(10 * DAY);
    const change = { items: [{ id: state.item, quantity: 3 }], proration_date: at };
    const preview = await stripe.invoices.createPreview({ subscription: state.subscription, subscription_details: change });
    const prorated = (quantity) => Math.round((2000 * quantity * (end - at)) / (end - start));
    assert.deepEqual(preview.lines.data.map((l) => l.amount), [-prorated(1), prorated(3), 6000]);
    assert.deepEqual(preview.lines.data.map((l) => l.parent.subscription_item_details.proration), [true, true, false]);
    assert.match(preview.lines.data[1].description, /^Remaining time on 3 × Unlimited Sales Copilot after /);
    assert.equal(preview.amount_due, 6000 - prorated(1) + prorated(3));

    const updated = await stripe.subscriptions.update(state.subscription, change);
    assert.equal(updated.items.data[0].quantity, 3);
    const event = await webhook("customer.subscription.updated", (e) => e.data.previous_attributes?.quantity === 1);
    assert.equal(event.data.object.items.data[0].quantity, 3);
    assert.equal(event.data.previous_attributes.items.data[0].quantity, 1);
    const item = await stripe.subscriptionItems.retrieve(state.item);
    assert.equal(item.quantity, 3);
    const after = await stripe.invoices.createPreview({ subscription: state.subscription });
    assert.deepEqual(after.lines.data.map((l) => l.amount), preview.lines.data.map((l) => l.amount));

    await advanceClock(end - at + 1);
    const renewal = await webhook("invoice.paid", (e) => e.data.object.period_start === end);
    assert.deepEqual(renewal.data.object.lines.data.map((l) => l.amount), preview.lines.data.map((l) => l.amount));
    assert.equal(renewal.data.object.amount_paid, preview.amount_due);
  });

  test("the billing portal changes the card; a declined renewal is retried, then paid by a new card", async () => {
    const portal = await stripe.billingPortal.sessions.create({ customer: state.customer, return_url: "http://app.test/account" });
    assert.ok(portal.url.startsWith(`${base}/p/session/`), portal.url);
    const page = await (await fetch(portal.url)).text();
    assert.match(page, /Cancel plan/);
    state.portal = portal.url;

    // A card that attaches but fails every charge.
    const card = { cardnumber: "4000 0000 0000 0341", exp: "12 / 34", cvc: "123" };
    assert.equal((await portalAction(portal.url, "card", card)).status, 303);
    await webhook("payment_method.attached");
    const before = await stripe.subscriptions.retrieve(state.subscription);
    const { now } = await advanceClock(0);
    await advanceClock(before.current_period_end - now + 60);
    const failed = await webhook("invoice.payment_failed", (e) => e.data.object.attempt_count === 1);
    const first = failed.data.object;
    assert.equal(first.status, "open");
    assert.equal(first.attempted, true);
    assert.equal(first.next_payment_attempt, first.created + DAY, "Smart Retries: day 1");
    const sub = await stripe.subscriptions.retrieve(state.subscription);
    assert.equal(sub.status, "past_due");
    await webhook("customer.subscription.updated", (e) => e.data.previous_attributes?.status === "active");

    // The day-1 retry fails too; the next is on day 3.
    await advanceClock(2 * DAY);
    const retried = await webhook("invoice.payment_failed", (e) => e.data.object.attempt_count === 2);
    assert.equal(retried.data.object.id, first.id);
    assert.equal(retried.data.object.next_payment_attempt, first.created + 3 * DAY);

    await assert.rejects(stripe.invoices.pay(first.id), (e) => {
      assert.ok(e instanceof Stripe.errors.StripeCardError, e.constructor.name);
      assert.equal(e.statusCode, 402);
      assert.equal(e.code, "card_declined");
      assert.equal(e.decline_code, "generic_decline");
      assert.equal(e.message, "Your card was declined.");
      return true;
    });

    // A good card in the portal pays the open invoice at once.
    const good = { cardnumber: "4242 4242 4242 4242", exp: "12 / 34", cvc: "123" };
    assert.equal((await portalAction(portal.url, "card", good)).status, 303);
    const paid = await webhook("invoice.paid", (e) => e.data.object.id === first.id);
    assert.equal(paid.data.object.status, "paid");
    assert.equal(paid.data.object.next_payment_attempt, null);
    assert.equal((await stripe.invoices.retrieve(first.id)).status, "paid");
    assert.equal((await stripe.subscriptions.retrieve(state.subscription)).status, "active");
    await assert.rejects(stripe.invoices.pay(first.id), (e) => e instanceof Stripe.errors.StripeInvalidRequestError);
  });

  test("the portal cancels at period end and renews", async () => {
    assert.equal((await portalAction(state.portal, "cancel")).status, 303);
    assert.equal((await stripe.subscriptions.retrieve(state.subscription)).cancel_at_period_end, true);
    await assert.rejects(stripe.invoices.createPreview({ subscription: state.subscription }), (e) => {
      assert.ok(e instanceof Stripe.errors.StripeInvalidRequestError, e.constructor.name);
      assert.equal(e.code, "invoice_upcoming_none");
      return true;
    });
    assert.equal((await portalAction(state.portal, "renew")).status, 303);
    assert.equal((await stripe.subscriptions.retrieve(state.subscription)).cancel_at_period_end, false);
  });

  test("cancels the subscription", async () => {
    const canceled = await stripe.subscriptions.cancel(state.subscription);
    assert.equal(canceled.status, "canceled");
    const deleted = await webhook("customer.subscription.deleted", (e) => e.data.object.id === state.subscription);
    assert.equal(deleted.data.object.status, "canceled");
    const live = await stripe.subscriptions.list({ customer: state.customer });
    assert.equal(live.data.length, 0, "canceled subscriptions are hidden by default");
    const all = await stripe.subscriptions.list({ customer: state.customer, status: "all" });
    assert.equal(all.data[0].id, state.subscription);
  });

  test("lists page with has_more and starting_after, and auto-pagination walks them", async () => {
    for (const name of ["Seat A", "Seat B", "Seat C"]) {
      await stripe.products.create({ name });
    }
    const first = await stripe.products.list({ limit: 2 });
    assert.equal(first.has_more, true);
    assert.equal(first.data.length, 2);
    const second = await stripe.products.list({ limit: 2, starting_after: first.data[1].id });
    assert.equal(second.data.length, 2, "three made, plus the seeded one");
    assert.equal(second.has_more, false);
    const products = await stripe.products.list({ limit: 1 }).autoPagingToArray({ limit: 100 });
    assert.equal(new Set(products.map((p) => p.id)).size, 4);

    const invoices = await stripe.invoices.list({ customer: state.customer, limit: 1 }).autoPagingToArray({ limit: 100 });
    assert.equal(invoices.length, 4, "checkout, two renewals, the declined-then-paid renewal");
    const before = await stripe.invoices.list({ customer: state.customer, limit: 1, ending_before: invoices[2].id });
    assert.equal(before.data[0].id, invoices[1].id);
    const events = await stripe.events.list({ type: "invoice.*", limit: 2 }).autoPagingToArray({ limit: 100 });
    assert.ok(events.length >= 4 && events.every((e) => e.type.startsWith("invoice.")));
  });

  test("coupons and promotion codes: created, listed, retrieved, deactivated", async () => {
    const coupon = await stripe.coupons.create({ percent_off: 20, duration: "repeating", duration_in_months: 3, name: "Launch" });
    assert.equal(coupon.object, "coupon");
    assert.equal(coupon.valid, true);
    const amount = await stripe.coupons.create({ amount_off: 500, currency: "usd", duration: "once" });
    assert.equal((await stripe.coupons.retrieve(coupon.id)).duration_in_months, 3);
    const coupons = await stripe.coupons.list({ limit: 1 });
    assert.equal(coupons.object, "list");
    assert.equal(coupons.has_more, true);
    // Newest first; two made in the same second may come in either order, as on Stripe.
    assert.ok(coupons.data[0].created >= coupon.created && [coupon.id, amount.id].includes(coupons.data[0].id), "newest first");
    await assert.rejects(stripe.coupons.create({ percent_off: 150 }), (e) => {
      assert.ok(e instanceof Stripe.errors.StripeInvalidRequestError, e.constructor.name);
      assert.equal(e.param, "percent_off");
      return true;
    });

    const code = await stripe.promotionCodes.create({
      promotion: { type: "coupon", coupon: coupon.id },
      code: "NODE20",
      max_redemptions: 10,
      restrictions: { first_time_transaction: true },
    });
    assert.equal(code.object, "promotion_code");
    assert.equal(code.promotion.coupon, coupon.id);
    assert.equal(code.restrictions.first_time_transaction, true);
    const found = await stripe.promotionCodes.list({ code: "node20", active: true, expand: ["data.promotion.coupon"] });
    assert.equal(found.data.length, 1);
    assert.equal(found.data[0].promotion.coupon.percent_off, 20);
    assert.equal((await stripe.promotionCodes.retrieve(code.id)).code, "NODE20");
    const off = await stripe.promotionCodes.update(code.id, { active: false });
    assert.equal(off.active, false);
    assert.equal((await stripe.promotionCodes.list({ code: "NODE20", active: true })).data.length, 0);
  });

  test("error classes: a wrong key, a missing object", async () => {
    const stranger = new Stripe("sk_test_not_the_mock_key_0000", { ...connection, maxNetworkRetries: 0 });
    await assert.rejects(stranger.customers.retrieve(state.customer), (e) => {
      assert.ok(e instanceof Stripe.errors.StripeAuthenticationError, e.constructor.name);
      assert.equal(e.statusCode, 401);
      assert.match(e.message, /^Invalid API Key provided: sk_test_/);
      return true;
    });
    await assert.rejects(stripe.customers.retrieve("cus_missing"), (e) => {
      assert.ok(e instanceof Stripe.errors.StripeInvalidRequestError, e.constructor.name);
      assert.equal(e.statusCode, 404);
      assert.equal(e.code, "resource_missing");
      assert.equal(e.param, "id");
      assert.equal(e.message, "No such customer: 'cus_missing'");
      return true;
    });
  });

  test("creates, lists, retrieves and deletes tax IDs; a malformed one is a StripeInvalidRequestError", async () => {
    const vat = await stripe.customers.createTaxId(state.customer, { type: "eu_vat", value: "DE 123 456 789" });
    assert.match(vat.id, /^txi_/);
    assert.equal(vat.object, "tax_id");
    assert.equal(vat.value, "DE123456789");
    assert.equal(vat.country, "DE");
    const list = await stripe.customers.listTaxIds(state.customer, { limit: 10 });
    assert.deepEqual(list.data.map((t) => t.id), [vat.id]);
    const got = await stripe.customers.retrieveTaxId(state.customer, vat.id);
    assert.equal(got.type, "eu_vat");
    await assert.rejects(stripe.customers.createTaxId(state.customer, { type: "gb_vat", value: "GB12" }), (e) => {
      assert.ok(e instanceof Stripe.errors.StripeInvalidRequestError, e.constructor.name);
      assert.equal(e.code, "tax_id_invalid");
      assert.equal(e.param, "value");
      assert.equal(e.message, "Invalid value for gb_vat.");
      return true;
    });
    const deleted = await stripe.customers.deleteTaxId(state.customer, vat.id);
    assert.deepEqual(deleted, { id: vat.id, object: "tax_id", deleted: true });
    assert.equal((await stripe.customers.listTaxIds(state.customer)).data.length, 0);
  });

  test("lists and retrieves invoices with their hosted page and a real PDF", async () => {
    const list = await stripe.invoices.list({ customer: state.customer, limit: 2 });
    assert.equal(list.object, "list");
    const invoice = await stripe.invoices.retrieve(list.data[0].id);
    assert.equal(invoice.number, list.data[0].number);
    assert.equal(invoice.total_excluding_tax, invoice.total);
    assert.deepEqual(invoice.total_taxes, []);
    const page = await fetch(invoice.hosted_invoice_url);
    assert.equal(page.status, 200);
    assert.match(await page.text(), new RegExp(invoice.number));
    const pdf = await fetch(invoice.invoice_pdf);
    assert.equal(pdf.status, 200);
    assert.equal(pdf.headers.get("content-type"), "application/pdf");
    assert.equal(Buffer.from(await pdf.arrayBuffer()).subarray(0, 5).toString(), "%PDF-");
  });

  test("a checkout with automatic tax: the session, the paid invoice and its lines carry the VAT", async () => {
    const address = { line1: "Hauptstraße 5", city: "Berlin", postal_code: "10115", country: "DE" };
    const customer = await stripe.customers.create({ email: "finance@example.com", name: "Acme GmbH", address });
    const session = await stripe.checkout.sessions.create({
      mode: "subscription",
      customer: customer.id,
      customer_update: { address: "auto" },
      automatic_tax: { enabled: true },
      line_items: [{ price: PRICE, quantity: 3 }],
      success_url: "http://app.test/success",
    });
    assert.equal(session.automatic_tax.enabled, true);
    assert.equal(session.total_details.amount_tax, 1140, "19 % of 6000");
    assert.equal(session.amount_total, 7140);
    const res = await fetch(session.url, {
      method: "POST",
      redirect: "manual",
      body: new URLSearchParams({
        cardnumber: "4242 4242 4242 4242", exp: "12 / 34", cvc: "123", name: "Ada Buyer",
        billing_name: "Ada Buyer", line1: address.line1, city: address.city, postal_code: address.postal_code, country: "DE",
      }),
    });
    assert.equal(res.status, 303, await res.text());
    const [listed] = (await stripe.invoices.list({ customer: customer.id })).data;
    const invoice = await stripe.invoices.retrieve(listed.id);
    assert.equal(invoice.automatic_tax.enabled, true);
    assert.equal(invoice.automatic_tax.status, "complete");
    assert.equal(invoice.total_excluding_tax, 6000);
    assert.equal(invoice.total, 7140);
    assert.equal(invoice.amount_paid, 7140);
    assert.equal(invoice.total_taxes.length, 1);
    const [tax] = invoice.total_taxes;
    assert.equal(tax.amount, 1140);
    assert.equal(tax.taxable_amount, 6000);
    assert.equal(tax.taxability_reason, "standard_rated");
    assert.equal(tax.type, "tax_rate_details");
    assert.match(tax.tax_rate_details.tax_rate, /^txr_/);
    assert.equal(invoice.lines.data[0].taxes[0].amount, 1140);
    const subscription = await stripe.subscriptions.retrieve(invoice.parent.subscription_details.subscription);
    assert.equal(subscription.automatic_tax.enabled, true);
    const page = await (await fetch(invoice.hosted_invoice_url)).text();
    assert.match(page, /VAT DE \(19% on \$60\.00\)/);
    const preview = await stripe.invoices.createPreview({ customer: customer.id, automatic_tax: { enabled: true } });
    assert.equal(preview.total_taxes[0].amount, 1140);
  });

  test("a trial: the card taken, trialing, trial_will_end three days before, charged at trial_end", async () => {
    const customer = await stripe.customers.create({ email: "team@example.com" });
    const session = await stripe.checkout.sessions.create({
      mode: "subscription",
      customer: customer.id,
      line_items: [{ price: PRICE, quantity: 3 }],
      subscription_data: { trial_period_days: 14, metadata: { team_id: "team-1" } },
      success_url: "http://app.test/success?session_id={CHECKOUT_SESSION_ID}",
    });
    assert.equal(session.amount_total, 0);
    const res = await payOnHostedPage(session.url, "4242 4242 4242 4242");
    assert.equal(res.status, 303, await res.text());
    const done = await stripe.checkout.sessions.retrieve(session.id, { expand: ["subscription"] });
    assert.equal(done.payment_status, "no_payment_required");
    const sub = done.subscription;
    assert.equal(sub.status, "trialing");
    assert.equal(sub.trial_end - sub.trial_start, 14 * DAY);
    assert.equal(sub.current_period_end, sub.trial_end);
    await advanceClock(sub.trial_end - (await (await fetch(`${base}/_mock/clock`)).json()).now + 60);
    const warned = await webhook("customer.subscription.trial_will_end", (e) => e.data.object.id === sub.id);
    assert.equal(warned.created, sub.trial_end - 3 * DAY);
    const converted = await webhook("customer.subscription.updated", (e) => e.data.object.id === sub.id && e.data.previous_attributes.status === "trialing");
    assert.equal(converted.data.object.status, "active");
    const paid = await webhook("invoice.paid", (e) => e.data.object.subscription === sub.id && e.data.object.billing_reason === "subscription_cycle");
    assert.equal(paid.data.object.amount_paid, 6000);
  });

  test("send_invoice: active at once, the invoice open and sent, paid on its page; another overdue", async () => {
    const customer = await stripe.customers.create({ email: "billing@acme.example" });
    const create = () =>
      stripe.subscriptions.create({
        customer: customer.id,
        items: [{ price: "price_closewise_yearly", quantity: 12 }],
        collection_method: "send_invoice",
        days_until_due: 30,
        expand: ["latest_invoice"],
      });
    const sub = await create();
    assert.equal(sub.status, "active");
    assert.equal(sub.collection_method, "send_invoice");
    const invoice = sub.latest_invoice;
    assert.equal(invoice.status, "open");
    assert.equal(invoice.collection_method, "send_invoice");
    assert.equal(invoice.amount_due, 240_000);
    assert.ok(invoice.due_date > invoice.created);
    await webhook("invoice.sent", (e) => e.data.object.id === invoice.id);
    const sent = await (await fetch(`${base}/_mock/sent_invoices`)).json();
    assert.equal(sent.data.find((m) => m.invoice === invoice.id).to, "billing@acme.example");
    const res = await fetch(`${invoice.hosted_invoice_url}/pay`, {
      method: "POST",
      redirect: "manual",
      body: new URLSearchParams({ cardnumber: "4242 4242 4242 4242", exp: "12 / 34", cvc: "123" }),
    });
    assert.equal(res.status, 303, await res.text());
    assert.equal((await stripe.invoices.retrieve(invoice.id)).status, "paid");
    await webhook("invoice.paid", (e) => e.data.object.id === invoice.id);

    const unpaid = await create();
    await advanceClock(31 * DAY);
    const overdue = await webhook("invoice.overdue", (e) => e.data.object.id === unpaid.latest_invoice.id);
    assert.equal(overdue.data.object.status, "open");
    assert.equal((await stripe.subscriptions.retrieve(unpaid.id)).status, "past_due");
    assert.equal((await stripe.subscriptions.retrieve(sub.id)).status, "active");
  });

  test("every event was delivered as a webhook that constructEvent verifies", async () => {
    const events = await stripe.events.list({ limit: 100 }).autoPagingToArray({ limit: 1000 });
    assert.ok(events.length > 20, `${events.length} events`);
    for (let i = 0; i < 250 && events.some((e) => !verified.has(e.id)); i++) {
      await new Promise((r) => setTimeout(r, 20));
    }
    const missing = events.filter((e) => !verified.has(e.id)).map((e) => e.type);
    assert.deepEqual(missing, [], "events never delivered");
    assert.deepEqual(refused, [], "deliveries constructEvent refused");
    for (const e of events) {
      assert.equal(verified.get(e.id).type, e.type);
      assert.equal(verified.get(e.id).data.object.id, e.data.object.id);
    }
    // A forged signature is refused by the same call.
    const body = JSON.stringify(events[0]);
    const header = `t=${Math.floor(Date.now() / 1000)},v1=${"0".repeat(64)}`;
    assert.throws(() => stripe.webhooks.constructEvent(body, header, webhookSecret), Stripe.errors.StripeSignatureVerificationError);
  });
});
