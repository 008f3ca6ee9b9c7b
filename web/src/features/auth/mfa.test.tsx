//! Sign-in with a second factor: the code step after the password (`mfa_required`), a recovery code,
//! a passkey as the second factor, and "Sign in with a passkey" with no password.

import { screen, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import * as analytics from "../../lib/analytics";
import type { AuthEvent } from "../../lib/auth/session";
import { db } from "../../testing/db";
import { MOCK_TOTP_CODE, mfaOf, mockRecoveryCodes, seedTotp } from "../../testing/handlers/mfa";
import { renderApp } from "../../testing/render";
import { installWebAuthn, removeWebAuthn } from "../../testing/webauthn";

const EMAIL = "ana@example.com";
const CODE_PROMPT = "Enter the 6-digit code from your authenticator app";

async function password(user: ReturnType<typeof renderApp>["user"]) {
  await user.type(await screen.findByLabelText("Email"), EMAIL);
  await user.type(screen.getByLabelText("Password"), "secret123");
  await user.click(screen.getByRole("button", { name: "Sign In" }));
}

function seedPasskey(credentialId = "cred-1") {
  mfaOf(db.findUser(EMAIL)!.user.id).passkeys.push({
    id: "6f1c2a8e-0d4b-4c1e-9a51-3b7e2f0c9d10",
    credentialId,
    name: "MacBook Touch ID",
    created_at: db.iso(db.now()),
    last_used_at: null,
  });
}

afterEach(() => {
  removeWebAuthn();
  vi.restoreAllMocks();
});

describe("sign-in with a second factor", () => {
  it("asks the app's code after the password, says a wrong one, then signs in (MFA verified)", async () => {
    db.createUser({ email: EMAIL });
    seedTotp(EMAIL);
    const track = vi.spyOn(analytics, "track");
    const { user, router, authManager } = renderApp("/signin");
    const events: AuthEvent[] = [];
    authManager.onEvent((e) => events.push(e));
    await password(user);
    expect(await screen.findByText(CODE_PROMPT)).toBeInTheDocument();
    expect(screen.queryByLabelText("Password")).not.toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Use a passkey" })).not.toBeInTheDocument();
    // The second step starts in its code field, and a wrong code leaves focus there.
    expect(screen.getByLabelText("Authentication code")).toHaveFocus();
    await user.type(screen.getByLabelText("Authentication code"), "000000");
    await user.click(screen.getByRole("button", { name: "Verify" }));
    expect(await screen.findByRole("alert")).toHaveTextContent("That code is not valid. Try again.");
    await waitFor(() => expect(screen.getByLabelText("Authentication code")).toHaveFocus());
    expect(authManager.getSnapshot().status).toBe("signedOut");
    await user.clear(screen.getByLabelText("Authentication code"));
    await user.type(screen.getByLabelText("Authentication code"), MOCK_TOTP_CODE);
    await user.click(screen.getByRole("button", { name: "Verify" }));
    await waitFor(() => expect(router.state.location.pathname).toBe("/dashboard"));
    expect(events).toEqual(["MFA_VERIFIED", "SIGNED_IN"]);
    expect(track).toHaveBeenCalledWith("mfa_verified", { method: "totp" });
  });

  it("takes a recovery code instead, once", async () => {
    db.createUser({ email: EMAIL });
    seedTotp(EMAIL);
    const [first] = mockRecoveryCodes();
    const { user, router } = renderApp("/signin");
    await password(user);
    await user.click(await screen.findByRole("button", { name: "Use a recovery code instead" }));
    await user.type(screen.getByLabelText("Recovery code"), first!.toUpperCase());
    await user.click(screen.getByRole("button", { name: "Verify" }));
    await waitFor(() => expect(router.state.location.pathname).toBe("/dashboard"));
    expect(mfaOf(db.findUser(EMAIL)!.user.id).recoveryCodes).not.toContain(first);
  });

  it("goes back to the password when the sign-in's token is spent", async () => {
    db.createUser({ email: EMAIL });
    seedTotp(EMAIL);
    const { user } = renderApp("/signin");
    await password(user);
    await screen.findByText(CODE_PROMPT);
    for (const row of db.mfaTokens.values()) row.used = true;
    await user.type(screen.getByLabelText("Authentication code"), MOCK_TOTP_CODE);
    await user.click(screen.getByRole("button", { name: "Verify" }));
    expect(await screen.findByText("This sign-in has expired. Please sign in again.")).toBeInTheDocument();
    expect(screen.getByLabelText("Password")).toBeInTheDocument();
  });

  it("offers a passkey as the second factor when the account has one", async () => {
    db.createUser({ email: EMAIL });
    seedTotp(EMAIL);
    seedPasskey();
    const { get } = installWebAuthn();
    const { user, router } = renderApp("/signin");
    await password(user);
    await user.click(await screen.findByRole("button", { name: "Use a passkey" }));
    await waitFor(() => expect(router.state.location.pathname).toBe("/dashboard"));
    expect(get).toHaveBeenCalled();
  });

  it("signs in with a passkey and no password", async () => {
    db.createUser({ email: EMAIL });
    seedPasskey();
    installWebAuthn();
    const track = vi.spyOn(analytics, "track");
    const { user, router } = renderApp("/signin");
    await user.click(await screen.findByRole("button", { name: "Sign in with a passkey" }));
    await waitFor(() => expect(router.state.location.pathname).toBe("/dashboard"));
    expect(track).toHaveBeenCalledWith("user_signed_in", { method: "passkey" });
    expect(mfaOf(db.findUser(EMAIL)!.user.id).passkeys[0]!.last_used_at).not.toBeNull();
  });

  it("offers passkeys in the e-mail field's autofill, and stops that request for the button", async () => {
    db.createUser({ email: EMAIL });
    seedPasskey();
    const { get } = installWebAuthn({ conditional: true });
    const { user, router } = renderApp("/signin");
    expect(await screen.findByLabelText("Email")).toHaveAttribute("autocomplete", "username webauthn");
    await waitFor(() => expect(get).toHaveBeenCalledWith(expect.objectContaining({ mediation: "conditional" })));
    const conditional = get.mock.calls[0]![0];
    await user.click(screen.getByRole("button", { name: "Sign in with a passkey" }));
    expect(conditional.signal?.aborted).toBe(true);
    await waitFor(() => expect(router.state.location.pathname).toBe("/dashboard"));
  });

  it("says an unknown passkey", async () => {
    db.createUser({ email: EMAIL });
    installWebAuthn({ credentialId: "someone-elses" });
    const { user } = renderApp("/signin");
    await user.click(await screen.findByRole("button", { name: "Sign in with a passkey" }));
    expect(await screen.findByText("This passkey is not registered.")).toBeInTheDocument();
  });

  it("signs in at once when the account has no second factor", async () => {
    db.createUser({ email: EMAIL });
    const { user, router } = renderApp("/signin");
    await password(user);
    await waitFor(() => expect(router.state.location.pathname).toBe("/dashboard"));
    expect(screen.queryByText(CODE_PROMPT)).not.toBeInTheDocument();
  });

  it("sends a member whose team requires a factor, and who has none, to set one up after signing in", async () => {
    db.createUser({ email: EMAIL });
    mfaOf(db.findUser(EMAIL)!.user.id).required = true;
    const { user, router } = renderApp("/signin");
    await password(user);
    await waitFor(() => expect(router.state.location.pathname).toBe("/settings"));
    expect(router.state.location.hash).toBe("#security");
    expect(await screen.findByText(/Your team requires two-step verification/)).toBeInTheDocument();
  });

  it("lets a member whose team requires a factor, and who has one, go where they were going", async () => {
    db.createUser({ email: EMAIL });
    seedTotp(EMAIL).required = true;
    const { user, router } = renderApp("/signin");
    await password(user);
    await user.type(await screen.findByLabelText("Authentication code"), MOCK_TOTP_CODE);
    await user.click(screen.getByRole("button", { name: "Verify" }));
    await waitFor(() => expect(router.state.location.pathname).toBe("/dashboard"));
  });
});
