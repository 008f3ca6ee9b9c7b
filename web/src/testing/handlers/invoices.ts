//! Invoices and company details (docs/api.md "Invoices"): fixtures kept on the user's and the
//! team's rows, so they go with the mock's reset. The tax ID shapes are the server's rule: a test
//! that needs a refusal sets it (`refuse` in handlers.ts).

import type { BillingDetails, Invoice } from "../../lib/api/types";
import type { DbUser } from "../db";
import type { TeamRow } from "../teamStore";
import { type MockRoute, json, readBody, signedIn } from "./common";
import { teamRoute } from "./teamCommon";

type Billed = { invoices?: Invoice[]; billingDetails?: BillingDetails };
/** The invoices of a user (their own) or a team, newest first: tests push theirs here. */
export const invoicesOf = (row: DbUser | TeamRow) => ((row as Billed).invoices ??= []);
const none = { line1: null, line2: null, city: null, postal_code: null, state: null, country: null };
export const detailsOf = (team: TeamRow) =>
  ((team as Billed).billingDetails ??= { name: null, address: { ...none }, tax_ids: [] });

/** The page after `cursor` (the last invoice's id, as the server's cursor). */
function page(all: Invoice[], request: Request) {
  const query = new URL(request.url).searchParams;
  const start = query.get("cursor") ? all.findIndex((i) => i.id === query.get("cursor")) + 1 : 0;
  const invoices = all.slice(start, start + Number(query.get("limit") ?? 12));
  return json({ invoices, next_cursor: start + invoices.length < all.length ? invoices.at(-1)!.id : null });
}

export const invoiceRoutes: MockRoute[] = [
  signedIn("get", "/api/billing/invoices", ({ row }, { request }) => page(invoicesOf(row), request)),
  teamRoute("get", "/api/team/billing/invoices", "view_invoices", ({ team }, request) => page(invoicesOf(team), request)),
  teamRoute("get", "/api/team/billing/details", "view_invoices", ({ team }) => json(detailsOf(team))),
  teamRoute("put", "/api/team/billing/details", "edit_billing_details", async ({ team }, request) => {
    const body = await readBody<"BillingDetails">(request);
    const country = body.address.country?.toUpperCase() ?? null;
    (team as Billed).billingDetails = { ...body, address: { ...none, ...body.address, country } };
    return json(detailsOf(team));
  }),
];
