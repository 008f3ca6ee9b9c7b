//! /team as a console: each section (Members, Seats & billing, Usage, Activity, Security, Policy)
//! has its own URL, reached from the section navigation, by a deep link and by the browser's back
//! button; `/team` alone opens Members; a role sees the sections its `may` allows and no other; the
//! anchors mails link to (`/team#update-card`, `/team#team-adoption`) land in their section.

import { screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { db } from "../../testing/db";
import clientRoutePaths from "../../clientRoutes.json";
import { renderApp } from "../../testing/render";
import { TEAM_SECTIONS, teamSectionPath } from "./components/teamSections";

const OWNER = "ana@northwind.example";
const ADMIN = "bo@northwind.example";
const MEMBER = "cy@northwind.example";

function seed() {
  db.createUser({ email: OWNER });
  return db.seedTeam({
    owner: OWNER,
    seats: 4,
    members: [
      { email: ADMIN, role: "admin" },
      { email: MEMBER, role: "member" },
    ],
  }).team;
}

const sections = () => screen.getByRole("navigation", { name: "Team sections" });
const sectionNames = () =>
  within(sections())
    .getAllByRole("link")
    .map((l) => l.textContent);

describe("/team sections", () => {
  it("opens Members at /team, and each section at its own URL from the navigation; Back returns", async () => {
    seed();
    const { user, router } = renderApp("/team", { signedInAs: OWNER });
    expect(await screen.findByRole("region", { name: "Members" })).toBeInTheDocument();
    expect(sectionNames()).toEqual(["Members", "Seats & billing", "Usage", "Activity", "Security", "Policy"]);
    expect(within(sections()).getByRole("link", { name: "Members" })).toHaveAttribute("aria-current", "page");
    expect(screen.queryByRole("region", { name: "Adoption" })).not.toBeInTheDocument();
    expect(screen.queryByRole("region", { name: "Policies" })).not.toBeInTheDocument();

    await user.click(within(sections()).getByRole("link", { name: "Usage" }));
    expect(router.state.location.pathname).toBe("/team/usage");
    expect(await screen.findByRole("region", { name: "Adoption" })).toBeInTheDocument();
    expect(screen.queryByRole("region", { name: "Members" })).not.toBeInTheDocument();
    expect(within(sections()).getByRole("link", { name: "Usage" })).toHaveAttribute("aria-current", "page");

    await user.click(within(sections()).getByRole("link", { name: "Security" }));
    expect(router.state.location.pathname).toBe("/team/security");
    expect(await screen.findByRole("region", { name: "Second factor" })).toBeInTheDocument();
    expect(screen.getByRole("region", { name: "Single sign-on" })).toBeInTheDocument();
    expect(screen.getByRole("region", { name: "Security: SCIM tokens" })).toBeInTheDocument();

    await router.navigate(-1);
    expect(await screen.findByRole("region", { name: "Adoption" })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe("/team/usage");
  }, 40_000);

  it("opens a section from a deep link", async () => {
    seed();
    renderApp("/team/policy", { signedInAs: OWNER });
    expect(await screen.findByRole("region", { name: "Policies" })).toBeInTheDocument();
    expect(within(sections()).getByRole("link", { name: "Policy" })).toHaveAttribute("aria-current", "page");
    expect(screen.queryByRole("region", { name: "Members" })).not.toBeInTheDocument();
  });

  it("lands a mail's /team#anchor in the section that holds it", async () => {
    seed();
    const { router, unmount } = renderApp("/team#team-adoption", { signedInAs: OWNER });
    await waitFor(() => expect(router.state.location.pathname).toBe("/team/usage"));
    expect(router.state.location.hash).toBe("#team-adoption");
    expect(await screen.findByRole("region", { name: "Adoption" })).toBeInTheDocument();
    unmount();
    const back = renderApp("/team?sso_test=passed", { signedInAs: OWNER });
    await waitFor(() => expect(back.router.state.location.pathname).toBe("/team/security"));
    expect(await screen.findByText(/Test connection passed/)).toBeInTheDocument();
  });

  it("shows an admin what admins may do, and a plain member Members alone", async () => {
    seed();
    const admin = renderApp("/team", { signedInAs: ADMIN });
    await screen.findByRole("region", { name: "Members" });
    expect(sectionNames()).toEqual(["Members", "Seats & billing", "Usage", "Activity", "Security", "Policy"]);
    admin.unmount();

    const { router } = renderApp("/team/billing", { signedInAs: MEMBER });
    // Not a section of theirs: Members, at /team.
    expect(await screen.findByRole("region", { name: "Members" })).toBeInTheDocument();
    await waitFor(() => expect(router.state.location.pathname).toBe("/team"));
    expect(screen.queryByRole("navigation", { name: "Team sections" })).not.toBeInTheDocument();
    for (const name of ["Adoption", "Activity", "Policies", "Second factor", "Invitations", "Company details on invoices"])
      expect(screen.queryByRole("region", { name })).not.toBeInTheDocument();
  });

  it("offers 'Require a second factor' in one section only", async () => {
    seed();
    const { user } = renderApp("/team", { signedInAs: OWNER });
    await screen.findByRole("region", { name: "Members" });
    const found: string[] = [];
    for (const name of sectionNames()) {
      await user.click(within(sections()).getByRole("link", { name: name }));
      await waitFor(() => expect(within(sections()).getByRole("link", { name: name })).toHaveAttribute("aria-current", "page"));
      // Each section's reads (the policy, SSO) have answered.
      await waitFor(() => expect(screen.queryByText(/^Loading/)).not.toBeInTheDocument());
      if (screen.queryAllByRole("checkbox", { name: /Require a second factor/ }).length > 0) found.push(name);
      if (screen.queryAllByRole("switch", { name: /Require a second factor/ }).length > 0) found.push(name);
    }
    expect(found).toEqual(["Security"]);
  }, 40_000);

  it("has a client route for each section (the server serves them the app)", () => {
    for (const section of TEAM_SECTIONS) expect(clientRoutePaths).toContain(teamSectionPath(section.id));
  });
});
