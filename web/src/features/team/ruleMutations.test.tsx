//! `/team`'s rules changing (features/team/api/ruleMutations.ts): the policy and the owner's
//! "Require a second factor" are one rule, so changing it in one place shows in the other at once.

import { screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { db } from "../../testing/db";
import { renderApp } from "../../testing/render";
import { REQUIRE_FACTOR_LABEL, REQUIRED_TEXT } from "./components/MfaPolicy";

const OWNER = "ana@northwind.example";

function seed() {
  db.createUser({ email: OWNER });
  return db.seedTeam({ owner: OWNER, seats: 4, members: [{ email: "cy@northwind.example", role: "member" }] }).team;
}

describe("/team's rules", () => {
  it("shows the second-factor rule under Second factor as soon as the policy that requires it is saved", async () => {
    const team = seed();
    const { user } = renderApp("/team", { signedInAs: OWNER });
    const policies = await screen.findByRole("region", { name: "Policies" });
    const factor = screen.getByRole("region", { name: "Second factor" });
    expect(within(factor).queryByText(REQUIRED_TEXT)).not.toBeInTheDocument();
    await user.click(await within(policies).findByRole("checkbox", { name: "Require a second factor" }));
    await user.click(within(policies).getByRole("button", { name: "Save policy" }));
    expect(await within(factor).findByText(REQUIRED_TEXT)).toBeInTheDocument();
    expect(within(factor).getByRole("switch", { name: REQUIRE_FACTOR_LABEL })).toBeChecked();
    expect(team.requireMfa).toBe(true);
  });

  it("ticks the policy's second factor as soon as the owner turns the switch on", async () => {
    seed();
    const { user } = renderApp("/team", { signedInAs: OWNER });
    const policies = await screen.findByRole("region", { name: "Policies" });
    expect(await within(policies).findByRole("checkbox", { name: "Require a second factor" })).not.toBeChecked();
    const factor = screen.getByRole("region", { name: "Second factor" });
    await user.click(within(factor).getByRole("switch", { name: REQUIRE_FACTOR_LABEL }));
    await waitFor(() => expect(within(policies).getByRole("checkbox", { name: "Require a second factor" })).toBeChecked());
  });
});
