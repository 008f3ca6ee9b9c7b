//! The team's invoices and company details on /team: owner and admins see the invoices with
//! Download; the owner saves the name, address and a tax ID, and a refusal is shown by its field;
//! admins read the details without a form to send; members see neither.

import { screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { db } from "../../testing/db";
import { refuse } from "../../testing/handlers";
import { detailsOf, invoicesOf } from "../../testing/handlers/invoices";
import { renderApp } from "../../testing/render";
import { server } from "../../testing/server";

const OWNER = "ana@northwind.example";
const ADMIN = "bo@northwind.example";
const MEMBER = "cy@northwind.example";

function seedNorthwind() {
  db.createUser({ email: OWNER });
  const { team } = db.seedTeam({
    owner: OWNER,
    seats: 3,
    members: [
      { email: ADMIN, role: "admin" },
      { email: MEMBER, role: "member" },
    ],
  });
  invoicesOf(team).push({
    ...{ id: "in_t1", number: "CW-000042", date: 1_793_000_000, period_start: 1_793_000_000, period_end: 1_795_600_000 },
    ...{ currency: "usd", subtotal: 6000, discount: 0, tax: 0, amount: 6000, amount_paid: 6000, status: "paid" },
    ...{ hosted_invoice_url: "https://pay.test/i/in_t1", invoice_pdf: "https://pay.test/i/in_t1/pdf" },
  });
  return team;
}

describe("/team invoices and company details", () => {
  it("lets the owner download an invoice and save the company details", async () => {
    const team = seedNorthwind();
    const { user } = renderApp("/team/billing", { signedInAs: OWNER });
    const invoices = await screen.findByRole("region", { name: "Invoices" });
    const link = await within(invoices).findByRole("link", { name: "Download invoice CW-000042" });
    expect(link).toHaveAttribute("href", "https://pay.test/i/in_t1/pdf");
    expect(within(invoices).getByRole("row", { name: /CW-000042/ })).toHaveTextContent("$60.00");

    const form = await screen.findByRole("form", { name: "Company details" });
    await user.type(within(form).getByLabelText("Company name"), "Northwind Vertrieb GmbH");
    await user.type(within(form).getByLabelText("Address line 1"), "Hauptstraße 5");
    await user.type(within(form).getByLabelText("Postal code"), "10115");
    await user.type(within(form).getByLabelText("City"), "Berlin");
    await user.type(within(form).getByLabelText("Country code"), "de");
    await user.selectOptions(within(form).getByLabelText("Tax ID type"), "eu_vat");
    await user.type(within(form).getByLabelText("Tax ID"), "DE123456789");
    await user.click(within(form).getByRole("button", { name: "Save company details" }));
    await waitFor(() => expect(detailsOf(team).name).toBe("Northwind Vertrieb GmbH"));
    expect(detailsOf(team).address).toMatchObject({ line1: "Hauptstraße 5", city: "Berlin", country: "DE" });
    expect(detailsOf(team).tax_ids).toEqual([{ type: "eu_vat", value: "DE123456789" }]);
    expect(await within(form).findByLabelText("Country code")).toHaveValue("DE");
  });

  it("shows the server's refusal of a tax ID by the Tax ID field", async () => {
    seedNorthwind();
    const message = "This is not a valid EU VAT number. It looks like DE123456789.";
    server.use(refuse("put", "/api/team/billing/details", 400, "invalid_tax_id", message, { once: true }));
    const { user } = renderApp("/team/billing", { signedInAs: OWNER });
    const form = await screen.findByRole("form", { name: "Company details" });
    await user.type(within(form).getByLabelText("Company name"), "Northwind");
    await user.type(within(form).getByLabelText("Country code"), "DE");
    await user.type(within(form).getByLabelText("Tax ID"), "DE12");
    await user.click(within(form).getByRole("button", { name: "Save company details" }));
    const field = within(form).getByLabelText("Tax ID");
    await waitFor(() => expect(field).toHaveAttribute("aria-invalid", "true"));
    expect(field).toHaveAccessibleDescription(message);
  });

  it("shows admins the invoices and the details without a save button, and members neither", async () => {
    const team = seedNorthwind();
    detailsOf(team).name = "Northwind Vertrieb GmbH";
    renderApp("/team/billing", { signedInAs: ADMIN });
    expect(await screen.findByRole("link", { name: "Download invoice CW-000042" })).toBeInTheDocument();
    const form = await screen.findByRole("form", { name: "Company details" });
    expect(await within(form).findByLabelText("Company name")).toHaveValue("Northwind Vertrieb GmbH");
    expect(within(form).getByLabelText("Company name")).toBeDisabled();
    expect(within(form).queryByRole("button", { name: "Save company details" })).not.toBeInTheDocument();
  });

  it("shows members no invoices", async () => {
    seedNorthwind();
    renderApp("/team/billing", { signedInAs: MEMBER });
    await screen.findByRole("region", { name: "Members" });
    expect(screen.queryByRole("region", { name: "Invoices" })).not.toBeInTheDocument();
    expect(screen.queryByRole("form", { name: "Company details" })).not.toBeInTheDocument();
  });
});
