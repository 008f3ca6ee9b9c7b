// @vitest-environment node
import { describe, expect, it } from "vitest";
import { createDb } from "./db";

describe("mock db", () => {
  it("survives a snapshot and restore (dev:mock keeps its data across page loads)", () => {
    const a = createDb();
    const user = a.createUser({ email: "pro@example.com", plan: "monthly" });
    a.signInBrowser("pro@example.com");
    const b = createDb();
    b.restore(a.snapshot());
    expect(b.findUser("pro@example.com")?.user.id).toBe(user.id);
    expect(b.plans.get(user.id)?.plan_type).toBe("monthly");
    expect(b.subscriptions.get(user.id)?.payment_method_last4).toBe("4242");
    expect(b.refreshCookie).toBe(a.refreshCookie);
    expect(b.sessions).toHaveLength(1);
  });
});
