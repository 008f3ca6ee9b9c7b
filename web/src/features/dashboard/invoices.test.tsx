//! The subscriber's invoices on the dashboard: each with its amounts, status and a Download link
//! to the PDF the server names, newest first, a page at a time.

import { screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import type { Invoice } from "../../lib/api/types";
import { db } from "../../testing/db";
import { invoicesOf } from "../../testing/handlers/invoices";
import { renderApp } from "../../testing/render";

const DAY = 86_400;
const NOV_1 = Date.UTC(2026, 10, 1) / 1000;

const invoice = (n: number, extra: Partial<Invoice> = {}): Invoice => ({
  ...{ id: `in_${n}`, number: `CW-00000${n}`, date: NOV_1 - n * 30 * DAY, period_start: NOV_1 - n * 30 * DAY },
  ...{ period_end: NOV_1 - (n - 1) * 30 * DAY, currency: "usd", subtotal: 2000, discount: 0, tax: 0, amount: 2000 },
  ...{ amount_paid: 2000, status: "paid", hosted_invoice_url: `https://pay.test/i/in_${n}` },
  ...{ invoice_pdf: `https://pay.test/i/in_${n}/pdf`, ...extra },
});

describe("Dashboard invoices", () => {
  it("lists the subscriber's invoices with amounts, status and a Download link, then the next page", async () => {
    db.createUser({ email: "ana@example.com", plan: "monthly" });
    const row = db.findUser("ana@example.com")!;
    invoicesOf(row).push(
      invoice(1, { discount: 400, tax: 304, amount: 1904 }),
      ...Array.from({ length: 12 }, (_, i) => invoice(i + 2)),
    );
    const { user } = renderApp("/dashboard", { signedInAs: "ana@example.com" });
    const section = await screen.findByRole("region", { name: "Invoices" });
    const first = await within(section).findByRole("row", { name: /^CW-000001 / });
    expect(first).toHaveTextContent("$19.04");
    expect(first).toHaveTextContent("$3.04");
    expect(first).toHaveTextContent("−$4.00");
    expect(first).toHaveTextContent("Paid");
    expect(first).toHaveTextContent("October 2, 2026");
    const download = within(first).getByRole("link", { name: "Download invoice CW-000001" });
    expect(download).toHaveAttribute("href", "https://pay.test/i/in_1/pdf");
    expect(within(section).getAllByRole("row")).toHaveLength(13);
    await user.click(within(section).getByRole("button", { name: "Show more invoices" }));
    expect(await within(section).findByRole("row", { name: /^CW-0000013 / })).toBeInTheDocument();
    expect(within(section).queryByRole("button", { name: "Show more invoices" })).not.toBeInTheDocument();
  });

  it("says there are none yet before the first invoice", async () => {
    db.createUser({ email: "ana@example.com", plan: "monthly" });
    renderApp("/dashboard", { signedInAs: "ana@example.com" });
    const section = await screen.findByRole("region", { name: "Invoices" });
    expect(await within(section).findByText("No invoices yet.")).toBeInTheDocument();
  });

  it("shows no invoices on the Free Trial", async () => {
    db.createUser({ email: "bo@example.com" });
    renderApp("/dashboard", { signedInAs: "bo@example.com" });
    await screen.findByRole("heading", { name: "Dashboard", level: 1 });
    expect(screen.queryByRole("region", { name: "Invoices" })).not.toBeInTheDocument();
  });
});
