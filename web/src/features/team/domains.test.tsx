//! /team → Security: the owner adds a company domain, sees the TXT record to publish (with copy
//! buttons), verifies it once published, and removes it; admins and members see no such section.

import { screen, within } from "@testing-library/react";
import { http, HttpResponse } from "msw";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { db } from "../../testing/db";
import { publishedRecords } from "../../testing/handlers/teamDomains";
import { renderApp } from "../../testing/render";
import { server } from "../../testing/server";

const OWNER = "ana@northwind.example";
const MEMBER = "cy@northwind.example";

function seedNorthwind() {
  db.createUser({ email: OWNER });
  db.seedTeam({ owner: OWNER, seats: 3, members: [{ email: MEMBER, role: "member" }] });
}

beforeEach(() => publishedRecords.clear());

describe("/team Security: verified domains", () => {
  it("adds a domain, shows the record to publish, verifies it once published, and removes it", async () => {
    seedNorthwind();
    const { user } = renderApp("/team/security", { signedInAs: OWNER });
    // After the render: user-event puts its own clipboard in place when it starts.
    const writeText = vi.fn(() => Promise.resolve());
    Object.defineProperty(navigator, "clipboard", { value: { writeText }, configurable: true });
    const section = await screen.findByRole("region", { name: "Security" });
    await user.click(within(section).getByRole("button", { name: "Add domain" }));
    expect(await within(section).findByText("Please enter your company's domain.")).toBeInTheDocument();

    await user.type(within(section).getByLabelText("Company domain"), "Northwind.example");
    await user.click(within(section).getByRole("button", { name: "Add domain" }));
    const row = await within(section).findByRole("listitem", { name: "northwind.example" });
    expect(within(row).getByText("Pending")).toBeInTheDocument();
    expect(within(row).getByText("_closewise-challenge.northwind.example")).toBeInTheDocument();
    const value = within(row).getByText(/^closewise-domain-verification=/).textContent;
    await user.click(within(row).getByRole("button", { name: "Copy record value" }));
    expect(writeText).toHaveBeenCalledWith(value);

    // Not published yet: the server's message.
    await user.click(within(row).getByRole("button", { name: "Verify" }));
    expect(await within(row).findByRole("alert")).toHaveTextContent("We did not find _closewise-challenge.northwind.example");

    publishedRecords.add(value);
    await user.click(within(row).getByRole("button", { name: "Verify" }));
    expect(await within(row).findByText("Verified")).toBeInTheDocument();
    expect(within(row).queryByRole("button", { name: "Verify" })).not.toBeInTheDocument();
    expect(within(row).queryByText(value)).not.toBeInTheDocument();

    await user.click(within(row).getByRole("button", { name: "Remove" }));
    await expect.poll(() => within(section).queryByRole("listitem", { name: "northwind.example" })).toBeNull();
  });

  it("shows the server's refusal (a public mail domain) at the field", async () => {
    seedNorthwind();
    const { user } = renderApp("/team/security", { signedInAs: OWNER });
    const section = await screen.findByRole("region", { name: "Security" });
    server.use(
      http.post("*/api/team/domains", () =>
        HttpResponse.json(
          { error: { code: "public_mail_domain", message: "Anyone can get an address at a public mail provider's domain." } },
          { status: 400 },
        ),
      ),
    );
    await user.type(within(section).getByLabelText("Company domain"), "gmail.com");
    await user.click(within(section).getByRole("button", { name: "Add domain" }));
    expect(await within(section).findByText(/public mail provider's domain/)).toBeInTheDocument();
  });

  it("is the owner's alone", async () => {
    seedNorthwind();
    renderApp("/team/security", { signedInAs: MEMBER });
    await screen.findByRole("region", { name: "Members" });
    expect(screen.queryByRole("region", { name: "Security" })).not.toBeInTheDocument();
  });
});
