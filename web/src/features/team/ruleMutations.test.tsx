//! `/team`'s rules changing (features/team/api/ruleMutations.ts): the policy and the owner's
//! "Require a second factor" (under Security) are one rule, so saving the policy never undoes the switch.

import { screen, within } from "@testing-library/react";
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
  it("keeps the owner's second factor when the policy is saved after it (the policy sends the rule back as it is now)", async () => {
    const team = seed();
    const { user } = renderApp("/team/security", { signedInAs: OWNER });
    const factor = await screen.findByRole("region", { name: "Second factor" });
    expect(within(factor).queryByText(REQUIRED_TEXT)).not.toBeInTheDocument();
    await user.click(within(factor).getByRole("switch", { name: REQUIRE_FACTOR_LABEL }));
    expect(await within(factor).findByText(REQUIRED_TEXT)).toBeInTheDocument();
    expect(team.requireMfa).toBe(true);

    await user.click(screen.getByRole("link", { name: "Policy" }));
    const policies = await screen.findByRole("region", { name: "Policies" });
    await user.click(await within(policies).findByRole("button", { name: "Save policy" }));
    expect(await screen.findByText("Policy saved")).toBeInTheDocument();
    expect(team.requireMfa).toBe(true);
    await user.click(screen.getByRole("link", { name: "Security" }));
    expect(await screen.findByRole("switch", { name: REQUIRE_FACTOR_LABEL })).toBeChecked();
  }, 30_000);
});
