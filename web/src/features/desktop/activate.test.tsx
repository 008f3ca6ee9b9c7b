import { act, screen, waitFor, within } from "@testing-library/react";
import { http } from "msw";
import { describe, expect, it } from "vitest";
import { db } from "../../testing/db";
import { refuse } from "../../testing/handlers";
import { renderApp } from "../../testing/render";
import { server } from "../../testing/server";
import { APPROVED_TEXT, DENIED_TEXT } from "./components/Activate";

function signedIn(email = "ana@example.com", verified = true) {
  db.createUser({ email, verified });
  return email;
}

describe("/activate", () => {
  it("sends a signed-out visitor to sign in and back, keeping the code, and looks it up at once", async () => {
    signedIn();
    const code = db.deviceCode({ deviceName: "Ana's MacBook Pro" });
    const { user, router } = renderApp(`/activate?user_code=${code}`);
    await waitFor(() => expect(router.state.location.pathname).toBe("/signin"));
    expect(new URLSearchParams(router.state.location.search).get("next")).toBe(`/activate?user_code=${code}`);
    await user.type(await screen.findByLabelText("Email"), "ana@example.com");
    await user.type(screen.getByLabelText("Password"), "secret123");
    await user.click(screen.getByRole("button", { name: "Sign In" }));
    expect(await screen.findByText("Ana's MacBook Pro")).toBeInTheDocument();
    expect(router.state.location.search).toBe(`?user_code=${code}`);
  });

  it("accepts the code typed loosely, shows it formatted, and shows the device with when it asked", async () => {
    const email = signedIn();
    db.deviceCode({ code: "WDJBMJHT", deviceName: "Work laptop", platform: "windows", requestedAt: Date.now() - 120_000 });
    const { user } = renderApp("/activate", { signedInAs: email });
    const field = await screen.findByLabelText("Code");
    await user.type(field, "wdjb mjht");
    expect(field).toHaveValue("WDJB-MJHT");
    await user.click(screen.getByRole("button", { name: "Look up" }));
    expect(await screen.findByText("Work laptop")).toBeInTheDocument();
    expect(screen.getByText("Windows")).toBeInTheDocument();
    expect(screen.getByText("WDJB-MJHT")).toBeInTheDocument();
    const requested = screen.getByText(/2 minutes ago/);
    expect(requested.tagName).toBe("TIME");
    expect(requested).toHaveTextContent(/\(\w{3} \d{1,2}, \d{4}, \d{1,2}:\d{2}\s?[AP]M\)/);
  });

  it("shows where the request came from and labels the name as the device's own choice", async () => {
    const email = signedIn();
    const code = db.deviceCode({ deviceName: "Your MacBook (IT)", requestedFrom: "198.51.100.7", sameNetwork: true });
    renderApp(`/activate?user_code=${code}`, { signedInAs: email });
    const name = await screen.findByText("Your MacBook (IT)");
    expect(name.previousElementSibling).toHaveTextContent("Name (chosen by the device)");
    const from = screen.getByText("198.51.100.7");
    expect(from.previousElementSibling).toHaveTextContent("Requested from");
    expect(screen.queryByText(/different network/i)).not.toBeInTheDocument();
  });

  it("warns in words when the API says the request came from another network", async () => {
    const email = signedIn();
    const code = db.deviceCode({ requestedFrom: "203.0.113.9", sameNetwork: false });
    renderApp(`/activate?user_code=${code}`, { signedInAs: email });
    const warning = await screen.findByRole("alert");
    expect(warning).toHaveTextContent("Different network (203.0.113.9).");
    expect(warning).toHaveTextContent(/someone may be trying to get into your account/);
    expect(screen.getByRole("button", { name: "Approve" })).toBeEnabled();
  });

  it("says the address is unknown for a request older than the record of addresses", async () => {
    const email = signedIn();
    const code = db.deviceCode({ requestedFrom: null, sameNetwork: false });
    renderApp(`/activate?user_code=${code}`, { signedInAs: email });
    expect(await screen.findByText("Unknown address")).toBeInTheDocument();
    expect(screen.getByRole("alert")).toHaveTextContent(/different network than yours/);
  });

  it("says it is looking up, then approves: the device is signed in", async () => {
    const email = signedIn();
    const code = db.deviceCode();
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    server.use(
      http.post("*/api/auth/device/lookup", async () => {
        await gate;
        return undefined; // on to the real handler
      }),
    );
    const { user } = renderApp(`/activate?user_code=${code}`, { signedInAs: email });
    expect(await screen.findByRole("button", { name: "Looking up..." })).toBeDisabled();
    expect(screen.getByLabelText("Code")).toHaveValue(code);
    release();
    await user.click(await screen.findByRole("button", { name: "Approve" }));
    expect(await screen.findByRole("status")).toHaveTextContent(APPROVED_TEXT);
    expect(APPROVED_TEXT).toBe("Your device is signed in. You can return to the Closewise app.");
    expect(db.deviceCodes.get(code.replace("-", ""))!.status).toBe("approved");
  });

  it("shows the approved device in Settings → Devices at once, not the list read before", async () => {
    const email = signedIn();
    const me = db.findUser(email)!.user;
    db.startDeviceSession(me.id, "Work iMac", "macos", Date.now() - 86_400_000);
    const code = db.deviceCode({ deviceName: "Ana's MacBook Air" });
    const { user, router } = renderApp("/settings", { signedInAs: email });
    const before = await screen.findByRole("region", { name: "Devices" });
    expect(await within(before).findByText("Work iMac")).toBeInTheDocument();
    await act(() => router.navigate(`/activate?user_code=${code}`));
    await user.click(await screen.findByRole("button", { name: "Approve" }));
    expect(await screen.findByText(APPROVED_TEXT)).toBeInTheDocument();
    // No network wait here: what Settings shows first must already include the new device.
    server.use(http.get("*/api/auth/devices", () => new Promise<never>(() => {})));
    await act(() => router.navigate("/settings"));
    const after = screen.getByRole("region", { name: "Devices" });
    expect(within(after).getByText("Ana's MacBook Air")).toBeInTheDocument();
  });

  it("denies", async () => {
    const email = signedIn();
    const code = db.deviceCode();
    const { user } = renderApp(`/activate?user_code=${code.toLowerCase().replace("-", " ")}`, { signedInAs: email });
    await user.click(await screen.findByRole("button", { name: "Deny" }));
    expect(await screen.findByRole("status")).toHaveTextContent(DENIED_TEXT);
    expect(db.deviceCodes.get(code.replace("-", ""))!.status).toBe("denied");
  });

  it.each([
    ["an unknown code", () => "BCDF-GHJK", "That code is not valid. Check the code shown in the app and try again."],
    ["an expired code", () => db.deviceCode({ ttlMs: -1 }), "That code has expired. Start the sign-in again in the app."],
    [
      "a used code",
      () => {
        const code = db.deviceCode();
        db.deviceCodes.get(code.replace("-", ""))!.status = "approved";
        return code;
      },
      "That code has already been used.",
    ],
  ])("shows the server's message for %s", async (_name, makeCode, text) => {
    const email = signedIn();
    const code = makeCode();
    const { user } = renderApp("/activate", { signedInAs: email });
    await user.type(await screen.findByLabelText("Code"), code);
    await user.click(screen.getByRole("button", { name: "Look up" }));
    expect(await screen.findByRole("alert")).toHaveTextContent(text);
    expect(screen.queryByRole("button", { name: "Approve" })).not.toBeInTheDocument();
  });

  it("shows the wait when too many codes were tried", async () => {
    const email = signedIn();
    const { user } = renderApp("/activate", { signedInAs: email });
    const wait = "Too many requests. Please try again in 540 seconds.";
    server.use(refuse("post", "/api/auth/device/lookup", 429, "rate_limited", wait, { headers: { "Retry-After": "540" } }));
    await user.type(await screen.findByLabelText("Code"), "BCDFGHJK");
    await user.click(screen.getByRole("button", { name: "Look up" }));
    expect(await screen.findByRole("alert")).toHaveTextContent(/^Too many requests\. Please try again in \d+ seconds\.$/);
  });

  it("asks for the whole code before looking it up", async () => {
    const email = signedIn();
    const { user } = renderApp("/activate", { signedInAs: email });
    await user.type(await screen.findByLabelText("Code"), "WDJB");
    await user.click(screen.getByRole("button", { name: "Look up" }));
    expect(await screen.findByRole("alert")).toHaveTextContent("Enter the 8-character code shown in the app.");
  });

  it("goes back to the code with the reason when the code went bad before Approve", async () => {
    const email = signedIn();
    const code = db.deviceCode();
    const { user } = renderApp(`/activate?user_code=${code}`, { signedInAs: email });
    const approve = await screen.findByRole("button", { name: "Approve" });
    db.deviceCodes.get(code.replace("-", ""))!.expiresAt = Date.now() - 1;
    await user.click(approve);
    expect(await screen.findByRole("alert")).toHaveTextContent("That code has expired. Start the sign-in again in the app.");
    expect(screen.getByLabelText("Code")).toHaveValue(code);
  });

  it("shows an unverified account the API's message", async () => {
    const email = signedIn("new@example.com", false);
    const code = db.deviceCode();
    renderApp(`/activate?user_code=${code}`, { signedInAs: email });
    const main = await screen.findByRole("main");
    expect(await within(main).findByRole("alert")).toHaveTextContent(
      "Please verify your email address before signing in to the app.",
    );
  });
});
