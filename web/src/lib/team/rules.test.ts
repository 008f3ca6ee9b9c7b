import { describe, expect, it } from "vitest";
import type { TeamRole, TeamSubscription } from "../api/types";
import {
  formatMoney,
  hasLiveSubscription,
  mayBuySeats,
  mayDo,
  mayInviteAs,
  mayStartCheckout,
  mayRemove,
  maySetRole,
  seatsProblem,
  teamCheckoutUrls,
  teamNameProblem,
  teamPaymentFailed,
} from "./rules";

const ROLES: TeamRole[] = ["owner", "admin", "member"];

describe("team rules (crates/domain/src/teams.rs)", () => {
  it("let the owner remove anyone but an owner, admins remove members only, members nobody", () => {
    const allowed = ROLES.flatMap((actor) => ROLES.filter((target) => mayRemove(actor, target)).map((t) => `${actor}>${t}`));
    expect(allowed).toEqual(["owner>admin", "owner>member", "admin>member"]);
  });

  it("let the owner invite admins and members, admins members only, members nobody", () => {
    const allowed = ROLES.flatMap((actor) =>
      (["admin", "member"] as const).filter((r) => mayInviteAs(actor, r)).map((r) => `${actor}>${r}`),
    );
    expect(allowed).toEqual(["owner>admin", "owner>member", "admin>member"]);
  });

  it("let only the owner change the roles of admins and members", () => {
    const allowed = ROLES.flatMap((actor) => ROLES.filter((target) => maySetRole(actor, target)).map((t) => `${actor}>${t}`));
    expect(allowed).toEqual(["owner>admin", "owner>member"]);
  });

  it("give the owner billing, transfer and delete; admins invitations; everyone but the owner leaving", () => {
    expect(ROLES.filter((r) => mayDo(r, "delete"))).toEqual(["owner"]);
    expect(ROLES.filter((r) => mayDo(r, "rename"))).toEqual(["owner"]);
    expect(ROLES.filter((r) => mayDo(r, "invite"))).toEqual(["owner", "admin"]);
    // Who pays (teams::Action::BILLING): the card on file is the owner's.
    for (const action of ["buySeats", "previewSeats", "changeSeats", "manageBilling"] as const)
      expect(ROLES.filter((r) => mayDo(r, action))).toEqual(["owner"]);
    expect(ROLES.filter(mayBuySeats)).toEqual(["owner"]);
    expect(ROLES.filter((r) => mayDo(r, "leave"))).toEqual(["admin", "member"]);
    expect(ROLES.filter((r) => mayDo(r, "configureDomainJoin"))).toEqual(["owner"]);
    expect(ROLES.filter((r) => mayDo(r, "approveJoin"))).toEqual(["owner", "admin"]);
  });

  it("check team names and seat counts with the domain's messages", () => {
    expect(teamNameProblem("  ")).toBe("Please enter a team name.");
    expect(teamNameProblem("a".repeat(81))).toMatch(/at most 80 characters/);
    expect(teamNameProblem("Northwind Sales")).toBeNull();
    expect(seatsProblem(0, 1)).toBe("A team has between 1 and 1000 seats.");
    expect(seatsProblem(1001, 1)).toBe("A team has between 1 and 1000 seats.");
    expect(seatsProblem(2, 3)).toMatch(/^3 seats are in use/);
    expect(seatsProblem(3, 3)).toBeNull();
  });

  it("send the team's checkout back to /team with the session id", () => {
    expect(teamCheckoutUrls("https://closewise.app")).toEqual({
      success_url: "https://closewise.app/team?checkout=success&session_id={CHECKOUT_SESSION_ID}",
      cancel_url: "https://closewise.app/team",
    });
  });

  it("start a checkout only without a subscription, after it ended, or after an abandoned first payment (team_billing.rs)", () => {
    const statuses: TeamSubscription["status"][] = [
      "active",
      "trialing",
      "past_due",
      "unpaid",
      "paused",
      "canceled",
      "incomplete",
      "incomplete_expired",
    ];
    expect(mayStartCheckout(null)).toBe(true);
    expect(statuses.filter(mayStartCheckout)).toEqual(["canceled", "incomplete", "incomplete_expired"]);
    expect(hasLiveSubscription(null)).toBe(false);
    expect(statuses.filter(hasLiveSubscription)).toEqual(["active", "trialing", "past_due", "unpaid", "paused", "incomplete"]);
    expect(statuses.filter(teamPaymentFailed)).toEqual(["past_due", "unpaid", "paused"]);
  });

  it("format cents as money, credits negative", () => {
    expect(formatMoney(4000, "usd")).toBe("$40.00");
    expect(formatMoney(-667, "usd")).toBe("-$6.67");
  });
});
