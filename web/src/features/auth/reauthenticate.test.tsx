//! Sudo mode (docs/api.md "Re-authentication"): approving a device, allowing the app and handing over
//! a team ask for the password in place when the session's last password entry is over 15 minutes old,
//! then retry the action.

import { screen, waitFor, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { redirect } from "../../lib/redirect";
import { db } from "../../testing/db";
import { mfaOf, seedTotp } from "../../testing/handlers/mfa";
import { renderApp } from "../../testing/render";
import { installWebAuthn, removeWebAuthn } from "../../testing/webauthn";

const EMAIL = "ana@example.com";
const APPROVED_TEXT = "Your device is signed in.";
const authorizePath = `/authorize?${new URLSearchParams({
  response_type: "code",
  client_id: "closewise-desktop",
  redirect_uri: "http://127.0.0.1:53682/callback",
  code_challenge: "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM",
  code_challenge_method: "S256",
  state: "st4te",
  device_name: "Ana's MacBook Pro",
  platform: "macos",
})}`;

/** The password was entered on every session 16 minutes ago: past the window. */
function passwordEntryIsOld() {
  for (const s of db.sessions) s.passwordAt = db.now() - 16 * 60_000;
}

afterEach(() => {
  vi.restoreAllMocks();
  removeWebAuthn();
});

/** `email`'s passkey, known to the mock by `credentialId`. */
function seedPasskey(email: string, credentialId = "cred-1") {
  const at = db.iso(db.now());
  mfaOf(db.findUser(email)!.user.id).passkeys.push({
    // The passkey's id is a UUID as the API's (the list's contract says so); the credential's is WebAuthn's.
    id: crypto.randomUUID(),
    credentialId,
    name: "MacBook",
    created_at: at,
    last_used_at: null,
  });
}

describe("confirm your password", () => {
  it("asks for the password before approving a device, says a wrong one, then approves", async () => {
    db.createUser({ email: EMAIL });
    const code = db.deviceCode({ deviceName: "Work laptop" });
    const { user } = renderApp(`/activate?user_code=${code}`, { signedInAs: EMAIL });
    const approve = await screen.findByRole("button", { name: "Approve" });
    passwordEntryIsOld();
    await user.click(approve);
    const dialog = await screen.findByRole("dialog", { name: "Confirm your password" });
    expect(db.deviceCodes.get(code.replace("-", ""))?.status).toBe("pending");
    await user.type(within(dialog).getByLabelText("Password"), "wrong-pass");
    await user.click(within(dialog).getByRole("button", { name: "Confirm" }));
    expect(await within(dialog).findByRole("alert")).toHaveTextContent("Invalid login credentials");
    await user.clear(within(dialog).getByLabelText("Password"));
    await user.type(within(dialog).getByLabelText("Password"), "secret123");
    await user.click(within(dialog).getByRole("button", { name: "Confirm" }));
    expect(await screen.findByRole("status")).toHaveTextContent(APPROVED_TEXT);
    expect(screen.queryByRole("dialog")).not.toBeInTheDocument();
    expect(db.deviceCodes.get(code.replace("-", ""))?.status).toBe("approved");
  });

  it("keeps the request when the dialog is cancelled, saying why nothing happened", async () => {
    db.createUser({ email: EMAIL });
    const code = db.deviceCode();
    const { user } = renderApp(`/activate?user_code=${code}`, { signedInAs: EMAIL });
    const approve = await screen.findByRole("button", { name: "Approve" });
    passwordEntryIsOld();
    await user.click(approve);
    const dialog = await screen.findByRole("dialog", { name: "Confirm your password" });
    await user.click(within(dialog).getByRole("button", { name: "Cancel" }));
    expect(await screen.findByText("Please confirm your password to continue.")).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Approve" })).toBeEnabled();
    expect(db.deviceCodes.get(code.replace("-", ""))?.status).toBe("pending");
  });

  it("approves at once when the password was entered lately (the sign-in counts)", async () => {
    db.createUser({ email: EMAIL });
    const code = db.deviceCode();
    const { user } = renderApp(`/activate?user_code=${code}`, { signedInAs: EMAIL });
    await user.click(await screen.findByRole("button", { name: "Approve" }));
    expect(await screen.findByRole("status")).toHaveTextContent(APPROVED_TEXT);
    expect(screen.queryByRole("dialog")).not.toBeInTheDocument();
  });

  it("asks for the password before allowing the app, then goes back to it with the code", async () => {
    db.createUser({ email: EMAIL });
    const to = vi.spyOn(redirect, "to").mockImplementation(() => {});
    const { user } = renderApp(authorizePath, { signedInAs: EMAIL });
    const allow = await screen.findByRole("button", { name: "Continue" });
    passwordEntryIsOld();
    await user.click(allow);
    const dialog = await screen.findByRole("dialog", { name: "Confirm your password" });
    expect(to).not.toHaveBeenCalled();
    await user.type(within(dialog).getByLabelText("Password"), "secret123");
    await user.click(within(dialog).getByRole("button", { name: "Confirm" }));
    await waitFor(() => expect(to).toHaveBeenCalledTimes(1));
    expect(to.mock.calls[0]![0]).toMatch(/^http:\/\/127\.0\.0\.1:53682\/callback\?code=[^&]+&state=st4te$/);
  });

  it("asks for the password inside the transfer dialog, then hands the team over", async () => {
    db.createUser({ email: EMAIL });
    db.seedTeam({ owner: EMAIL, seats: 3, members: [{ email: "bo@example.com", role: "admin" }], invites: [] });
    const { user } = renderApp("/team", { signedInAs: EMAIL });
    await user.click(await screen.findByRole("button", { name: "Transfer ownership" }));
    passwordEntryIsOld();
    const dialog = screen.getByRole("dialog", { name: "Transfer ownership" });
    await user.click(within(dialog).getByRole("button", { name: "Transfer ownership" }));
    const confirm = await within(dialog).findByRole("region", { name: "Confirm your password" });
    await user.type(within(confirm).getByLabelText("Password"), "secret123");
    await user.click(within(confirm).getByRole("button", { name: "Confirm" }));
    expect(await screen.findByText("Your role: Admin")).toBeInTheDocument();
    expect(db.team.membershipOf(db.findUser("bo@example.com")!.user.id)?.role).toBe("owner");
  });

  it("has the place the new-sign-in mail links to: Settings → Devices (/settings#devices)", async () => {
    db.createUser({ email: EMAIL });
    renderApp("/settings", { signedInAs: EMAIL });
    await screen.findByRole("heading", { name: "Devices" });
    expect(document.getElementById("devices")).toHaveAccessibleName("Devices");
  });

  it("confirms with a passkey when the account's factor is a passkey", async () => {
    db.createUser({ email: EMAIL });
    seedPasskey(EMAIL);
    const { get } = installWebAuthn();
    const code = db.deviceCode();
    const { user } = renderApp(`/activate?user_code=${code}`, { signedInAs: EMAIL });
    const approve = await screen.findByRole("button", { name: "Approve" });
    passwordEntryIsOld();
    await user.click(approve);
    const dialog = await screen.findByRole("dialog", { name: "Confirm your password" });
    await user.type(within(dialog).getByLabelText("Password"), "secret123");
    await user.click(within(dialog).getByRole("button", { name: "Confirm" }));
    // The password alone is not enough: the passkey is offered, and no code field.
    const passkey = await within(dialog).findByRole("button", { name: "Use a passkey" });
    expect(within(dialog).queryByLabelText("Authentication code")).not.toBeInTheDocument();
    expect(db.deviceCodes.get(code.replace("-", ""))?.status).toBe("pending");
    await user.click(passkey);
    expect(await screen.findByRole("status")).toHaveTextContent(APPROVED_TEXT);
    expect(get).toHaveBeenCalledTimes(1);
    expect(db.deviceCodes.get(code.replace("-", ""))?.status).toBe("approved");
  });

  it("offers both the code and a passkey to an account with an app and a passkey, and says a passkey it does not know", async () => {
    db.createUser({ email: EMAIL });
    seedTotp(EMAIL);
    seedPasskey(EMAIL);
    installWebAuthn({ credentialId: "someone-elses" });
    const code = db.deviceCode();
    const { user } = renderApp(`/activate?user_code=${code}`, { signedInAs: EMAIL });
    const approve = await screen.findByRole("button", { name: "Approve" });
    passwordEntryIsOld();
    await user.click(approve);
    const dialog = await screen.findByRole("dialog", { name: "Confirm your password" });
    await user.type(within(dialog).getByLabelText("Password"), "secret123");
    await user.click(within(dialog).getByRole("button", { name: "Confirm" }));
    expect(await within(dialog).findByLabelText("Authentication code")).toBeInTheDocument();
    await user.click(within(dialog).getByRole("button", { name: "Use a passkey" }));
    expect(await within(dialog).findByText("This passkey could not be verified. Try again.")).toBeInTheDocument();
    expect(db.deviceCodes.get(code.replace("-", ""))?.status).toBe("pending");
  });

  it("says so when the account's only factor is a passkey and this browser cannot use one", async () => {
    db.createUser({ email: EMAIL });
    seedPasskey(EMAIL);
    const code = db.deviceCode();
    const { user } = renderApp(`/activate?user_code=${code}`, { signedInAs: EMAIL });
    const approve = await screen.findByRole("button", { name: "Approve" });
    passwordEntryIsOld();
    await user.click(approve);
    const dialog = await screen.findByRole("dialog", { name: "Confirm your password" });
    await user.type(within(dialog).getByLabelText("Password"), "secret123");
    await user.click(within(dialog).getByRole("button", { name: "Confirm" }));
    expect(await within(dialog).findByText(/this browser cannot use passkeys/)).toBeInTheDocument();
    expect(within(dialog).queryByRole("button", { name: "Use a passkey" })).not.toBeInTheDocument();
    expect(db.deviceCodes.get(code.replace("-", ""))?.status).toBe("pending");
  });
});
