//! Settings → Security: the authenticator app (set up with a QR code and the secret, recovery codes
//! shown once, new codes, turning it off) and passkeys (add, list, remove); step-up asks the code.

import { screen, waitFor, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { db } from "../../testing/db";
import { MOCK_TOTP_CODE, mfaOf, mockRecoveryCodes, seedTotp } from "../../testing/handlers/mfa";
import { renderApp } from "../../testing/render";
import { installWebAuthn, removeWebAuthn } from "../../testing/webauthn";

const EMAIL = "ana@example.com";
const userId = () => db.findUser(EMAIL)!.user.id;

function passwordEntryIsOld() {
  for (const s of db.sessions) s.passwordAt = db.now() - 16 * 60_000;
}

afterEach(() => {
  removeWebAuthn();
  vi.restoreAllMocks();
});

describe("Settings → Security: authenticator app", () => {
  it("offers the key as a link the phone's authenticator opens and a button that copies it, not only the QR code", async () => {
    db.createUser({ email: EMAIL });
    const { user } = renderApp("/settings", { signedInAs: EMAIL });
    const writeText = vi.fn().mockResolvedValue(undefined);
    Object.defineProperty(navigator, "clipboard", { value: { writeText }, configurable: true });
    await user.click(await screen.findByRole("button", { name: "Set up an authenticator app" }));
    const open = await screen.findByRole("link", { name: "Open in your authenticator app" });
    expect(open.getAttribute("href")).toMatch(/^otpauth:\/\/totp\/.*secret=JBSWY3DPEHPK3PXP/);
    await user.click(screen.getByRole("button", { name: "Copy key" }));
    expect(writeText).toHaveBeenCalledWith("JBSWY3DPEHPK3PXP");
    expect(await screen.findByText("Key copied")).toBeInTheDocument();
  });

  it("sets up the app with a QR code and the secret, then shows the 10 recovery codes once", async () => {
    db.createUser({ email: EMAIL });
    const { user } = renderApp("/settings", { signedInAs: EMAIL });
    await user.click(await screen.findByRole("button", { name: "Set up an authenticator app" }));
    expect(await screen.findByRole("img", { name: "QR code for your authenticator app" })).toBeInTheDocument();
    expect(screen.getByTestId("totp-secret")).toHaveTextContent("JBSW Y3DP EHPK 3PXP");
    await user.type(screen.getByLabelText("Authentication code"), "12345");
    await user.click(screen.getByRole("button", { name: "Turn on" }));
    expect(screen.getByText("Enter the 6 digits your app shows")).toBeInTheDocument();
    await user.clear(screen.getByLabelText("Authentication code"));
    await user.type(screen.getByLabelText("Authentication code"), "654321");
    await user.click(screen.getByRole("button", { name: "Turn on" }));
    expect(await screen.findByText("That code is not valid. Try again.")).toBeInTheDocument();
    expect(mfaOf(userId()).totp).toBe(false);
    await user.clear(screen.getByLabelText("Authentication code"));
    await user.type(screen.getByLabelText("Authentication code"), MOCK_TOTP_CODE);
    await user.click(screen.getByRole("button", { name: "Turn on" }));
    const list = await screen.findByRole("list", { name: "Recovery codes" });
    expect(
      within(list)
        .getAllByRole("listitem")
        .map((li) => li.textContent),
    ).toEqual(mockRecoveryCodes());
    expect(mfaOf(userId()).totp).toBe(true);

    const createObjectURL = vi.fn((_blob: Blob) => "blob:codes");
    URL.createObjectURL = createObjectURL;
    URL.revokeObjectURL = vi.fn();
    const click = vi.spyOn(HTMLAnchorElement.prototype, "click").mockImplementation(() => {});
    await user.click(screen.getByRole("button", { name: "Download" }));
    expect(click).toHaveBeenCalled();
    const text = await new Promise<string>((resolve) => {
      const reader = new FileReader();
      reader.onload = () => resolve(reader.result as string);
      reader.readAsText(createObjectURL.mock.calls[0]![0]);
    });
    for (const code of mockRecoveryCodes()) expect(text).toContain(code);

    const writeText = vi.fn(() => Promise.resolve());
    Object.defineProperty(navigator, "clipboard", { value: { writeText }, configurable: true });
    await user.click(screen.getByRole("button", { name: "Copy" }));
    expect(writeText).toHaveBeenCalledWith(mockRecoveryCodes().join("\n"));

    await user.click(screen.getByRole("button", { name: "I have saved my codes" }));
    expect(screen.queryByRole("list", { name: "Recovery codes" })).not.toBeInTheDocument();
    expect(await screen.findByText("On. 10 of 10 recovery codes left.")).toBeInTheDocument();
  });

  it("asks for the password before setting up the app once the window is over", async () => {
    db.createUser({ email: EMAIL });
    const { user } = renderApp("/settings", { signedInAs: EMAIL });
    const setUp = await screen.findByRole("button", { name: "Set up an authenticator app" });
    passwordEntryIsOld();
    await user.click(setUp);
    const dialog = await screen.findByRole("dialog", { name: "Confirm your password" });
    expect(mfaOf(userId()).pendingSecret).toBeFalsy();
    await user.type(within(dialog).getByLabelText("Password"), "secret123");
    await user.click(within(dialog).getByRole("button", { name: "Confirm" }));
    expect(await screen.findByRole("img", { name: "QR code for your authenticator app" })).toBeInTheDocument();
  });

  it("generates new codes for a current code; the old ones stop working", async () => {
    db.createUser({ email: EMAIL });
    seedTotp(EMAIL);
    const { user } = renderApp("/settings", { signedInAs: EMAIL });
    await user.click(await screen.findByRole("button", { name: "Generate new codes" }));
    const dialog = screen.getByRole("dialog", { name: "Generate new recovery codes" });
    await user.type(within(dialog).getByLabelText("Authentication code"), "111111");
    await user.click(within(dialog).getByRole("button", { name: "Generate new codes" }));
    expect(await within(dialog).findByText("That code is not valid. Try again.")).toBeInTheDocument();
    await user.clear(within(dialog).getByLabelText("Authentication code"));
    await user.type(within(dialog).getByLabelText("Authentication code"), MOCK_TOTP_CODE);
    await user.click(within(dialog).getByRole("button", { name: "Generate new codes" }));
    const list = await screen.findByRole("list", { name: "Recovery codes" });
    expect(
      within(list)
        .getAllByRole("listitem")
        .map((li) => li.textContent),
    ).toEqual(mockRecoveryCodes(2));
    expect(mfaOf(userId()).recoveryCodes).not.toContain(mockRecoveryCodes()[0]);
  });

  it("turns the app off with a recovery code, asking the password and the code first when the window is over", async () => {
    db.createUser({ email: EMAIL });
    seedTotp(EMAIL);
    const { user } = renderApp("/settings", { signedInAs: EMAIL });
    await user.click(await screen.findByRole("button", { name: "Turn off" }));
    passwordEntryIsOld();
    const dialog = screen.getByRole("dialog", { name: "Turn off the authenticator app?" });
    await user.type(within(dialog).getByLabelText("Code or recovery code"), mockRecoveryCodes()[0]!);
    await user.click(within(dialog).getByRole("button", { name: "Turn off" }));
    const confirm = await within(dialog).findByRole("region", { name: "Confirm your password" });
    await user.type(within(confirm).getByLabelText("Password"), "secret123");
    await user.click(within(confirm).getByRole("button", { name: "Confirm" }));
    // The account has an app: the password alone is not enough (`mfa_required`).
    await user.type(await within(confirm).findByLabelText("Authentication code"), MOCK_TOTP_CODE);
    await user.click(within(confirm).getByRole("button", { name: "Confirm" }));
    expect(await screen.findByRole("button", { name: "Set up an authenticator app" })).toBeInTheDocument();
    expect(mfaOf(userId()).totp).toBe(false);
  });

  it("tells a member whose team requires a factor to set one up", async () => {
    db.createUser({ email: EMAIL });
    mfaOf(userId()).required = true;
    renderApp("/settings", { signedInAs: EMAIL });
    expect(await screen.findByText(/Your team requires two-step verification/)).toBeInTheDocument();
  });
});

describe("Settings → Security: passkeys", () => {
  it("adds a named passkey with the browser's WebAuthn, lists it and removes it", async () => {
    db.createUser({ email: EMAIL });
    const { create } = installWebAuthn({ credentialId: "cred-new" });
    const { user } = renderApp("/settings", { signedInAs: EMAIL });
    await user.click(await screen.findByRole("button", { name: "Add a passkey" }));
    const dialog = screen.getByRole("dialog", { name: "Add a passkey" });
    await user.click(within(dialog).getByRole("button", { name: "Continue" }));
    expect(within(dialog).getByText("Name is required")).toBeInTheDocument();
    await user.type(within(dialog).getByLabelText("Passkey name"), "Work laptop");
    await user.click(within(dialog).getByRole("button", { name: "Continue" }));
    const list = await screen.findByRole("list", { name: "Passkeys" });
    expect(within(list).getByText("Work laptop")).toBeInTheDocument();
    expect(within(list).getByText(/Never used/)).toBeInTheDocument();
    const publicKey = create.mock.calls[0]![0].publicKey!;
    expect(publicKey.user.name).toBe(EMAIL);
    expect(publicKey.challenge).toBeInstanceOf(ArrayBuffer);
    expect(mfaOf(userId()).passkeys.map((p) => p.credentialId)).toEqual(["cred-new"]);

    await user.click(within(list).getByRole("button", { name: "Remove Work laptop" }));
    const confirm = screen.getByRole("dialog", { name: "Remove this passkey?" });
    await user.click(within(confirm).getByRole("button", { name: "Remove" }));
    await waitFor(() => expect(screen.queryByRole("list", { name: "Passkeys" })).not.toBeInTheDocument());
    expect(mfaOf(userId()).passkeys).toEqual([]);
  });

  it("asks for the password before adding a passkey once the window is over, then adds it", async () => {
    db.createUser({ email: EMAIL });
    const { create } = installWebAuthn({ credentialId: "cred-late" });
    const { user } = renderApp("/settings", { signedInAs: EMAIL });
    await user.click(await screen.findByRole("button", { name: "Add a passkey" }));
    passwordEntryIsOld();
    const dialog = screen.getByRole("dialog", { name: "Add a passkey" });
    await user.type(within(dialog).getByLabelText("Passkey name"), "Phone");
    await user.click(within(dialog).getByRole("button", { name: "Continue" }));
    const confirm = await within(dialog).findByRole("region", { name: "Confirm your password" });
    expect(create).not.toHaveBeenCalled();
    await user.type(within(confirm).getByLabelText("Password"), "secret123");
    await user.click(within(confirm).getByRole("button", { name: "Confirm" }));
    const list = await screen.findByRole("list", { name: "Passkeys" });
    expect(within(list).getByText("Phone")).toBeInTheDocument();
    expect(mfaOf(userId()).passkeys.map((p) => p.credentialId)).toEqual(["cred-late"]);
  });

  it("says so when the browser's prompt is closed", async () => {
    db.createUser({ email: EMAIL });
    const { create } = installWebAuthn();
    create.mockRejectedValueOnce(new DOMException("closed", "NotAllowedError"));
    const { user } = renderApp("/settings", { signedInAs: EMAIL });
    await user.click(await screen.findByRole("button", { name: "Add a passkey" }));
    const dialog = screen.getByRole("dialog", { name: "Add a passkey" });
    await user.type(within(dialog).getByLabelText("Passkey name"), "Phone");
    await user.click(within(dialog).getByRole("button", { name: "Continue" }));
    expect(await within(dialog).findByText("The passkey was not created.")).toBeInTheDocument();
    expect(mfaOf(userId()).passkeys).toEqual([]);
  });

  it("shows the browser's reason when it refuses to create a passkey", async () => {
    db.createUser({ email: EMAIL });
    const { create } = installWebAuthn();
    create.mockRejectedValueOnce(new DOMException("This is an invalid domain.", "SecurityError"));
    const { user } = renderApp("/settings", { signedInAs: EMAIL });
    await user.click(await screen.findByRole("button", { name: "Add a passkey" }));
    const dialog = screen.getByRole("dialog", { name: "Add a passkey" });
    await user.type(within(dialog).getByLabelText("Passkey name"), "Phone");
    await user.click(within(dialog).getByRole("button", { name: "Continue" }));
    expect(await within(dialog).findByText("This is an invalid domain.")).toBeInTheDocument();
  });
});

describe("Settings → Security: what a change reads again", () => {
  it("lists a passkey as soon as it is added and lifts the team's notice with it; removing it brings the notice back", async () => {
    db.createUser({ email: EMAIL });
    mfaOf(userId()).required = true;
    installWebAuthn({ credentialId: "cred-new" });
    const { user } = renderApp("/settings", { signedInAs: EMAIL });
    expect(await screen.findByText(/Your team requires two-step verification/)).toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: "Add a passkey" }));
    const dialog = screen.getByRole("dialog", { name: "Add a passkey" });
    await user.type(within(dialog).getByLabelText("Passkey name"), "Work laptop");
    await user.click(within(dialog).getByRole("button", { name: "Continue" }));
    const list = await screen.findByRole("list", { name: "Passkeys" });
    expect(within(list).getByText("Work laptop")).toBeInTheDocument();
    // The status (`passkeys: 1`) was read again with the list: the requirement is met.
    await waitFor(() => expect(screen.queryByText(/Your team requires two-step verification/)).not.toBeInTheDocument());

    await user.click(within(list).getByRole("button", { name: "Remove Work laptop" }));
    await user.click(
      within(screen.getByRole("dialog", { name: "Remove this passkey?" })).getByRole("button", { name: "Remove" }),
    );
    expect(await screen.findByText(/Your team requires two-step verification/)).toBeInTheDocument();
    expect(screen.queryByRole("list", { name: "Passkeys" })).not.toBeInTheDocument();
  });

  it("shows the new recovery-code count at once, without a reload", async () => {
    db.createUser({ email: EMAIL });
    seedTotp(EMAIL);
    mfaOf(userId()).recoveryCodes.splice(3);
    const { user } = renderApp("/settings", { signedInAs: EMAIL });
    expect(await screen.findByText("On. 3 of 10 recovery codes left.")).toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: "Generate new codes" }));
    const dialog = screen.getByRole("dialog", { name: "Generate new recovery codes" });
    await user.type(within(dialog).getByLabelText("Authentication code"), MOCK_TOTP_CODE);
    await user.click(within(dialog).getByRole("button", { name: "Generate new codes" }));
    await user.click(await screen.findByRole("button", { name: "I have saved my codes" }));
    expect(await screen.findByText("On. 10 of 10 recovery codes left.")).toBeInTheDocument();
  });
});
