// @vitest-environment node
import { describe, expect, it } from "vitest";
import { describeActivity } from "./activity";

const entry = (action: string, details: Record<string, unknown> = {}, target_email: string | null = null) => ({
  action,
  actor: "ana@acme.test",
  target_email,
  details,
});

describe("the team's activity in words", () => {
  it("says who did what to whom, with the old value and the new", () => {
    expect(describeActivity(entry("team.member_role", { role: "admin", from: "member" }, "bo@acme.test"))).toBe(
      "ana@acme.test made bo@acme.test an admin (was a member)",
    );
    expect(describeActivity(entry("team.member_role", { role: "member" }, "bo@acme.test"))).toBe(
      "ana@acme.test made bo@acme.test a member",
    );
    expect(describeActivity(entry("team.seats", { seats: { before: 3, after: 5 } }))).toBe(
      "ana@acme.test changed the seats from 3 to 5",
    );
    expect(describeActivity(entry("team.seats", { seats: { before: 3, after: 2 }, reclaim: true }))).toBe(
      "ana@acme.test reclaimed idle seats: from 3 to 2",
    );
    expect(describeActivity(entry("team.interval", { interval: { before: "month", after: "year" } }))).toBe(
      "ana@acme.test switched billing from monthly to yearly",
    );
    expect(describeActivity(entry("team.invite", { role: "member" }, "cy@acme.test"))).toBe(
      "ana@acme.test invited cy@acme.test as a member",
    );
    expect(describeActivity(entry("team.member_remove", {}, "bo@acme.test"))).toBe("ana@acme.test removed bo@acme.test");
    expect(describeActivity(entry("team.mfa_policy", { required: true }))).toBe(
      "ana@acme.test turned on “Require a second factor”",
    );
    expect(describeActivity(entry("team.rename", { name: "Acme Sales" }))).toBe("ana@acme.test renamed the team “Acme Sales”");
    expect(describeActivity(entry("team.transfer", { to: "bo@acme.test" }, "bo@acme.test"))).toBe(
      "ana@acme.test made bo@acme.test the owner",
    );
  });

  it("words an action it does not know without its code", () => {
    const said = describeActivity(entry("team.sso.save"));
    expect(said).toBe("ana@acme.test: single sign-on saved");
    const job = { ...entry("team.sso.metadata_refresh"), actor: "closewise" };
    expect(describeActivity(job)).toBe("closewise: SAML metadata read again, certificates changed");
    expect(describeActivity({ ...job, action: "team.sso.metadata_failed" })).toBe(
      "closewise: SAML metadata could not be read again (the connection was kept)",
    );
    expect(describeActivity(entry("team.something_new", {}, "bo@acme.test"))).toBe("ana@acme.test: something new (bo@acme.test)");
  });
});
