//! The footer on signed-in pages leads to the dashboard, not to the marketing footer's sign-up and
//! sign-in; public pages keep those.

import { screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { db } from "../../testing/db";
import { renderApp } from "../../testing/render";

describe("the footer", () => {
  it("carries no Start Free Trial or Sign In on a signed-in page, and a way to the dashboard", async () => {
    db.createUser({ email: "ana@example.com" });
    renderApp("/dashboard", { signedInAs: "ana@example.com" });
    await screen.findByRole("heading", { name: "Dashboard", level: 1 });
    const footer = screen.getByRole("contentinfo");
    expect(within(footer).queryByRole("link", { name: "Start Free Trial" })).not.toBeInTheDocument();
    expect(within(footer).queryByRole("link", { name: "Sign In" })).not.toBeInTheDocument();
    expect(within(footer).getByRole("link", { name: "Dashboard" })).toHaveAttribute("href", "/dashboard");
  });

  it("keeps them on a public page", async () => {
    renderApp("/pricing");
    const footer = await screen.findByRole("contentinfo");
    expect(within(footer).getByRole("link", { name: "Start Free Trial" })).toHaveAttribute("href", "/signup");
    expect(within(footer).getByRole("link", { name: "Sign In" })).toHaveAttribute("href", "/signin");
  });
});
