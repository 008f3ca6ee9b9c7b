import { screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { db } from "../../testing/db";
import { refuse } from "../../testing/handlers";
import { renderApp } from "../../testing/render";
import { server } from "../../testing/server";

describe("Verification link page", () => {
  it("verifies the e-mail and says so", async () => {
    db.createUser({ email: "ana@example.com", verified: false });
    const token = db.oneTimeToken("ana@example.com", "verify");
    renderApp(`/verify?token=${token}`);
    expect(await screen.findByRole("heading", { name: "Email verified" })).toBeInTheDocument();
    expect(screen.getByText(/You can now sign in\./)).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Go to Sign In" })).toHaveAttribute("href", "/signin");
    expect(db.findUser("ana@example.com")?.user.email_confirmed_at).not.toBeNull();
  });

  it.each([
    ["used", "This verification link has already been used."],
    ["expired", "This verification link has expired. Request a new one."],
    ["unknown", "This verification link is invalid."],
  ])("says why the link failed when it is %s, and offers to resend", async (kind, message) => {
    db.createUser({ email: "ana@example.com", verified: false });
    let token = "vt_unknown";
    if (kind !== "unknown") {
      token = db.oneTimeToken("ana@example.com", "verify", kind === "expired" ? -1000 : 60_000);
      if (kind === "used") db.tokens.get(token)!.used = true;
    }
    const { user } = renderApp(`/verify?token=${token}`);
    expect(await screen.findByRole("heading", { name: "Verification failed" })).toBeInTheDocument();
    expect(screen.getByText(message)).toBeInTheDocument();
    await user.type(screen.getByLabelText("Email"), "ana@example.com");
    await user.click(screen.getByRole("button", { name: "Resend verification email" }));
    expect(await screen.findByText("Verification email sent! Check your inbox.")).toBeInTheDocument();
  });

  it("sends the user on to sign in with the link's next, and ignores a next off this site", async () => {
    db.createUser({ email: "ana@example.com", verified: false });
    const token = db.oneTimeToken("ana@example.com", "verify");
    const next = encodeURIComponent("/pricing?checkout=price_closewise_monthly");
    renderApp(`/verify?token=${token}&next=${next}`);
    expect(await screen.findByRole("link", { name: "Go to Sign In" })).toHaveAttribute("href", `/signin?next=${next}`);
  });

  it("ignores a next that is not a path of this site", async () => {
    db.createUser({ email: "ana@example.com", verified: false });
    const token = db.oneTimeToken("ana@example.com", "verify");
    renderApp(`/verify?token=${token}&next=${encodeURIComponent("https://evil.example/")}`);
    expect(await screen.findByRole("link", { name: "Go to Sign In" })).toHaveAttribute("href", "/signin");
  });

  it("calls a link without a token invalid", async () => {
    renderApp("/verify");
    expect(await screen.findByText("This verification link is invalid.")).toBeInTheDocument();
  });

  it("unlocks a signed-in user's dashboard at once", async () => {
    db.createUser({ email: "ana@example.com", verified: false });
    const token = db.oneTimeToken("ana@example.com", "verify");
    const { user } = renderApp(`/verify?token=${token}`, { signedInAs: "ana@example.com" });
    await user.click(await screen.findByRole("link", { name: "Go to Dashboard" }));
    expect(await screen.findByRole("heading", { name: "Dashboard", level: 1 })).toBeInTheDocument();
    expect(screen.queryByText(/Account Access Limited/)).not.toBeInTheDocument();
  });

  describe("when the address was signed up for more than once", () => {
    function twoSignups() {
      db.createUser({ email: "ana@example.com", password: "attacker-pass", verified: false });
      db.findUser("ana@example.com")!.signups = 2;
      return db.oneTimeToken("ana@example.com", "verify");
    }

    it("asks for a password when the sign-ups disagreed, then sends to sign-in", async () => {
      const { user } = renderApp(`/verify?token=${twoSignups()}`);
      expect(await screen.findByRole("heading", { name: "Choose your password" })).toBeInTheDocument();
      expect(screen.getByText("ana@example.com")).toBeInTheDocument();
      expect(db.findUser("ana@example.com")!.password).not.toBe("attacker-pass");
      await user.type(screen.getByLabelText("Password"), "chosen-on-the-page");
      await user.type(screen.getByLabelText("Confirm password"), "chosen-on-the-page");
      await user.click(screen.getByRole("button", { name: "Set password" }));
      expect(await screen.findByRole("heading", { name: "Email verified" })).toBeInTheDocument();
      expect(screen.getByRole("link", { name: "Go to Sign In" })).toHaveAttribute("href", "/signin");
      expect(db.findUser("ana@example.com")!.password).toBe("chosen-on-the-page");
    });

    it("shows the password rules' message for a common password and keeps the form", async () => {
      const common = "This password is too common. Please choose another one";
      server.use(refuse("post", "/api/auth/verify/password", 422, "weak_password", common));
      const { user } = renderApp(`/verify?token=${twoSignups()}`);
      await user.type(await screen.findByLabelText("Password"), "password1");
      await user.type(screen.getByLabelText("Confirm password"), "password1");
      await user.click(screen.getByRole("button", { name: "Set password" }));
      expect(await screen.findByText("This password is too common. Please choose another one")).toBeInTheDocument();
      expect(screen.getByRole("heading", { name: "Choose your password" })).toBeInTheDocument();
    });

    it("offers a reset link when the password step's token is spent", async () => {
      const { user } = renderApp(`/verify?token=${twoSignups()}`);
      await user.type(await screen.findByLabelText("Password"), "chosen-on-the-page");
      await user.type(screen.getByLabelText("Confirm password"), "chosen-on-the-page");
      for (const row of db.tokens.values()) if (row.kind === "reset") row.used = true;
      await user.click(screen.getByRole("button", { name: "Set password" }));
      expect(await screen.findByText("This password link has already been used.")).toBeInTheDocument();
      expect(screen.getByRole("link", { name: "Forgot password?" })).toHaveAttribute("href", "/forgot-password");
    });
  });
});
