//! A team larger than a page: `GET /api/team` answers the counts and the first page of
//! its members and invitations; /team shows that page, says how many there are, and reads the rest
//! a page at a time ("Show more members", "Show more invites") from `GET /api/team/members` and
//! `GET /api/team/invites`. Everything a row offers works on the later pages too.

import { screen, waitFor, within } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { db } from "../../testing/db";
import { seedTotp } from "../../testing/handlers/mfa";
import { renderApp } from "../../testing/render";
import { listPaging } from "../../testing/teamPages";
import { REQUIRED_TEXT } from "./components/MfaPolicy";

const OWNER = "ana@northwind.example";
/** The API's pages are 100 rows; the mock's are 10 here, so that a page renders fast. */
const PAGE = 10;
/** The owner and 14 others: 15 members, a page of 10 and 5 more; 12 invitations. */
const OTHERS = 14;
const INVITES = 12;
const rep = (n: number) => `rep${String(n).padStart(3, "0")}@northwind.example`;

function seedLargeTeam() {
  db.createUser({ email: OWNER });
  listPaging.size = PAGE;
  return db.seedTeam({
    owner: OWNER,
    seats: 300,
    members: Array.from({ length: OTHERS }, (_, i) => ({
      email: rep(i + 1),
      role: i === 0 ? ("admin" as const) : ("member" as const),
    })),
    invites: Array.from({ length: INVITES }, (_, i) => ({ email: `new${i + 1}@northwind.example` })),
  });
}

const membersRegion = () => screen.getByRole("region", { name: "Members" });
const rows = () => within(membersRegion()).getAllByRole("rowheader");

describe("/team with more members and invitations than a page", () => {
  afterEach(() => {
    listPaging.size = 100;
  });

  it("shows the first page, how many there are, and the rest on Show more members", async () => {
    seedLargeTeam();
    const { user } = renderApp("/team", { signedInAs: OWNER });
    await screen.findByRole("region", { name: "Members" });
    expect(rows()).toHaveLength(PAGE);
    expect(within(membersRegion()).getByRole("status")).toHaveTextContent("Showing 10 of 15 members.");
    await user.click(within(membersRegion()).getByRole("button", { name: "Show more members" }));
    await waitFor(() => expect(rows()).toHaveLength(OTHERS + 1));
    expect(within(membersRegion()).getByRole("status")).toHaveTextContent("Showing 15 of 15 members.");
    expect(within(membersRegion()).queryByRole("button", { name: "Show more members" })).not.toBeInTheDocument();
    // The button is gone: focus moves to the first member the page added.
    expect(document.activeElement).toBe(within(membersRegion()).getByRole("rowheader", { name: rep(10) }));
    expect(screen.getByText(`${OTHERS + 1 + INVITES} of 300 used`)).toBeInTheDocument();
  });

  it("removes and re-roles a member of a later page, the pages read again", async () => {
    seedLargeTeam();
    const { user } = renderApp("/team", { signedInAs: OWNER });
    await screen.findByRole("region", { name: "Members" });
    await user.click(within(membersRegion()).getByRole("button", { name: "Show more members" }));
    await waitFor(() => expect(rows()).toHaveLength(OTHERS + 1));

    await user.selectOptions(within(membersRegion()).getByLabelText(`Role of ${rep(12)}`), "admin");
    await waitFor(() => expect(within(membersRegion()).getByLabelText(`Role of ${rep(12)}`)).toHaveValue("admin"));
    expect(db.team.membershipOf(db.findUser(rep(12))!.user.id)?.role).toBe("admin");

    await user.click(within(membersRegion()).getByRole("button", { name: `Remove ${rep(13)}` }));
    const dialog = screen.getByRole("dialog", { name: `Remove ${rep(13)}?` });
    await user.click(within(dialog).getByRole("button", { name: "Remove" }));
    await waitFor(() => expect(rows()).toHaveLength(OTHERS));
    expect(within(membersRegion()).queryByRole("rowheader", { name: rep(13) })).not.toBeInTheDocument();
    expect(within(membersRegion()).getByRole("rowheader", { name: rep(14) })).toBeInTheDocument();
    expect(document.activeElement).toBe(screen.getByRole("heading", { name: "Members" }));
    expect(within(membersRegion()).getByRole("status")).toHaveTextContent("Showing 14 of 14 members.");
  });

  it("shows the first page of invitations and the rest on Show more invites; resend works there", async () => {
    seedLargeTeam();
    const { user } = renderApp("/team", { signedInAs: OWNER });
    const region = await screen.findByRole("region", { name: "Invitations" });
    const list = () => within(region).getByRole("list", { name: "Pending invitations" });
    expect(within(list()).getAllByRole("listitem")).toHaveLength(PAGE);
    expect(within(region).getByRole("status")).toHaveTextContent("Showing 10 of 12 invitations.");
    await user.click(within(region).getByRole("button", { name: "Show more invites" }));
    await waitFor(() => expect(within(list()).getAllByRole("listitem")).toHaveLength(INVITES));
    expect(within(region).queryByRole("button", { name: "Show more invites" })).not.toBeInTheDocument();
    expect(document.activeElement).toBe(within(list()).getAllByRole("listitem")[PAGE]);
    await user.click(within(region).getByRole("button", { name: "Revoke invitation to new12@northwind.example" }));
    await waitFor(() => expect(within(list()).getAllByRole("listitem")).toHaveLength(INVITES - 1));
    expect(within(region).queryByText("new12@northwind.example")).not.toBeInTheDocument();
  });

  it("counts second factors over the whole team and lists them with the members shown", async () => {
    const { team } = seedLargeTeam();
    team.requireMfa = true;
    seedTotp(rep(13));
    const { user } = renderApp("/team/security", { signedInAs: OWNER });
    const section = await screen.findByRole("region", { name: "Second factor" });
    expect(within(section).getByText(REQUIRED_TEXT)).toBeInTheDocument();
    expect(within(section).getByText("14 members have not set one up yet.")).toBeInTheDocument();
    const list = within(section).getByRole("list", { name: "Who has a second factor" });
    expect(within(list).getAllByRole("listitem")).toHaveLength(PAGE);
    await user.click(within(section).getByRole("button", { name: "Show more members" }));
    await waitFor(() => expect(within(list).getAllByRole("listitem")).toHaveLength(OTHERS + 1));
    expect(within(list).getByText(rep(13)).closest("li")).toHaveTextContent("Second factor on");
  });

  it("offers every member as the new owner, past the first page", async () => {
    seedLargeTeam();
    const { user } = renderApp("/team", { signedInAs: OWNER });
    await user.click(await screen.findByRole("button", { name: "Transfer ownership" }));
    const dialog = screen.getByRole("dialog", { name: "Transfer ownership" });
    const picker = await within(dialog).findByLabelText("New owner");
    await waitFor(() => expect(within(picker).getAllByRole("option")).toHaveLength(OTHERS));
    expect(within(picker).getByRole("option", { name: rep(14) })).toBeInTheDocument();
  });

  it("names the owner to admins when the owner is past the first page", async () => {
    const { team } = seedLargeTeam();
    const admin = rep(1);
    const last = db.findUser(rep(OTHERS))!.user.id;
    // Ownership went to the member who joined last.
    for (const m of db.team.membersOf(team.id)) m.role = m.userId === last ? "owner" : m.role === "owner" ? "admin" : m.role;
    team.ownerId = last;
    renderApp("/team/billing", { signedInAs: admin });
    expect(await screen.findByText(new RegExp(`Need more seats\\? Ask ${rep(OTHERS)}\\.`))).toBeInTheDocument();
  });
});
