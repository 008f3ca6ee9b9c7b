// @vitest-environment node
import { describe, expect, it } from "vitest";
import {
  count,
  formatMoney,
  moneyDue,
  reclaimSummary,
  roleWithArticle,
  seatsLine,
  seatsProblem,
  teamCheckoutUrls,
} from "./format";

describe("team wording", () => {
  it("words a seat count outside the range the API answered", () => {
    const seats = { seats: { total: 3, used: 3, free: 0 }, seat_range: { min: 3, max: 10000 } };
    expect(seatsProblem(0, seats)).toBe("A team has between 1 and 10000 seats.");
    expect(seatsProblem(10001, seats)).toBe("A team has between 1 and 10000 seats.");
    expect(seatsProblem(2.5, seats)).toBe("A team has between 1 and 10000 seats.");
    expect(seatsProblem(2, seats)).toBe("3 seats are in use. Remove members or revoke invites first.");
    expect(seatsProblem(3, seats)).toBeNull();
    expect(seatsProblem(40, { ...seats, seat_range: { min: 3, max: 25 } })).toBe("A team has between 1 and 25 seats.");
  });

  it("sends the team's checkout back to /team with the session id", () => {
    expect(teamCheckoutUrls("https://closewise.app")).toEqual({
      success_url: "https://closewise.app/team?checkout=success&session_id={CHECKOUT_SESSION_ID}",
      cancel_url: "https://closewise.app/team",
    });
  });

  it("formats cents as money, credits negative, and roles for sentences", () => {
    expect(formatMoney(4000, "usd")).toBe("$40.00");
    expect(formatMoney(-667, "usd")).toBe("-$6.67");
    expect(roleWithArticle("admin")).toBe("an admin");
  });

  it("says an amount due as a credit when it is one, never with a minus", () => {
    expect(moneyDue(4000, "usd")).toBe("$40.00");
    expect(moneyDue(-4000, "usd")).toBe("credit of $40.00");
    expect(moneyDue(0, "usd")).toBe("$0.00");
  });

  it("counts with the right plural", () => {
    expect(count(1, "member")).toBe("1 member");
    expect(count(0, "member")).toBe("0 members");
    expect(count(3, "seat")).toBe("3 seats");
  });

  it("says what a reclaim removes: the idle members' seats, and the unused ones only by name", () => {
    const offer = { idle_members: 1, seats: 2, seats_freed: 1, monthly_saving: 2000, currency: "usd" };
    expect(reclaimSummary(offer, 3)).toBe("Reclaiming removes 1 idle member: 3 seats become 2, saving $20.00 a month.");
    const withUnused = { ...offer, seats_freed: 2, monthly_saving: 4000 };
    expect(reclaimSummary(withUnused, 4)).toBe(
      "Reclaiming removes 1 idle member and 1 unused seat: 4 seats become 2, saving $40.00 a month.",
    );
    expect(reclaimSummary({ ...offer, idle_members: 2, seats: 1, seats_freed: 4, monthly_saving: 8000 }, 5)).toBe(
      "Reclaiming removes 2 idle members and 2 unused seats: 5 seats become 1, saving $80.00 a month.",
    );
  });

  it("says the seats before any were bought, and how many are used after", () => {
    expect(seatsLine({ total: 0, used: 1, free: 0 })).toBe("No seats yet: buy seats to give the team the paid plan");
    expect(seatsLine({ total: 3, used: 1, free: 2 })).toBe("1 of 3 used");
    expect(seatsLine({ total: 1, used: 1, free: 0 })).toBe("1 of 1 used");
  });
});
