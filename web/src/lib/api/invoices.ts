//! Invoices and the company details on them (docs/api.md "Invoices"): the caller's own invoices,
//! the team's (owner and admins), and the team's billing name, address and tax IDs (the owner
//! writes them).

import { apiRequest } from "./client";
import type { BillingDetails, InvoicesPage } from "./types";

const cursorQuery = (cursor: string | null) => (cursor ? `?cursor=${encodeURIComponent(cursor)}` : "");

/** The caller's own invoices a page at a time, newest first. */
export function getInvoices(cursor: string | null) {
  return apiRequest<InvoicesPage>(`/api/billing/invoices${cursorQuery(cursor)}`, { auth: true });
}

/** The team's invoices a page at a time, newest first. */
export function getTeamInvoices(cursor: string | null) {
  return apiRequest<InvoicesPage>(`/api/team/billing/invoices${cursorQuery(cursor)}`, { auth: true });
}

export function getTeamBillingDetails() {
  return apiRequest<BillingDetails>("/api/team/billing/details", { auth: true });
}

export function putTeamBillingDetails(body: BillingDetails) {
  return apiRequest<BillingDetails>("/api/team/billing/details", { method: "PUT", body, auth: true });
}
