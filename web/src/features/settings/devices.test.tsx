import { screen, waitFor, within } from "@testing-library/react";
import { http, HttpResponse } from "msw";
import { describe, expect, it } from "vitest";
import { db } from "../../testing/db";
import { renderApp } from "../../testing/render";
import { server } from "../../testing/server";

function seed() {
  const user = db.createUser({ email: "ana@example.com" });
  const older = db.startDeviceSession(user.id, "Work iMac", "macos", Date.now() - 3 * 86_400_000);
  const newer = db.startDeviceSession(user.id, "Ana's MacBook Pro", "macos", Date.now() - 3_600_000);
  return { user, older, newer };
}

const devices = () => screen.findByRole("region", { name: "Devices" });

describe("Settings: Devices", () => {
  it("lists the signed-in desktop apps, newest first, with platform, sign-in time and last seen", async () => {
    seed();
    renderApp("/settings", { signedInAs: "ana@example.com" });
    const section = await devices();
    const items = await within(section).findAllByRole("listitem");
    expect(items.map((item) => within(item).getByText(/MacBook|iMac/).textContent)).toEqual(["Ana's MacBook Pro", "Work iMac"]);
    expect(items[0]).toHaveTextContent("macOS");
    expect(items[0]).toHaveTextContent("Signed in");
    expect(items[0]).toHaveTextContent("Last seen 1 hour ago");
    expect(items[1]).toHaveTextContent("Last seen 3 days ago");
    // The web's own session is never a desktop app.
    expect(within(section).queryByText("This device")).not.toBeInTheDocument();
  });

  it("marks the session asking as This device only when the API says current", async () => {
    seed();
    server.use(
      http.get("*/api/auth/devices", () =>
        HttpResponse.json({
          devices: [
            {
              id: "d1",
              name: "Ana's MacBook Pro",
              platform: "macos",
              created_at: "2026-11-20T10:00:00Z",
              last_seen_at: "2026-11-23T10:00:00Z",
              current: true,
            },
          ],
        }),
      ),
    );
    renderApp("/settings", { signedInAs: "ana@example.com" });
    const item = await within(await devices()).findByRole("listitem");
    expect(item).toHaveTextContent("Ana's MacBook ProThis device");
  });

  it("signs one device out after confirmation; Cancel keeps it", async () => {
    const { newer, older } = seed();
    const { user } = renderApp("/settings", { signedInAs: "ana@example.com" });
    const section = await devices();
    await user.click(await within(section).findByRole("button", { name: "Sign out Ana's MacBook Pro" }));
    let dialog = screen.getByRole("dialog", { name: "Sign out this device?" });
    await user.click(within(dialog).getByRole("button", { name: "Cancel" }));
    expect(newer.revoked).toBe(false);

    await user.click(within(section).getByRole("button", { name: "Sign out Ana's MacBook Pro" }));
    dialog = screen.getByRole("dialog", { name: "Sign out this device?" });
    expect(dialog).toHaveTextContent("Ana's MacBook Pro is signed out at once");
    await user.click(within(dialog).getByRole("button", { name: "Sign out" }));
    expect(await screen.findByText("Ana's MacBook Pro is signed out")).toBeInTheDocument();
    await waitFor(() => expect(within(section).queryByText("Ana's MacBook Pro")).not.toBeInTheDocument());
    expect(newer.revoked).toBe(true);
    expect(older.revoked).toBe(false);
  });

  it("keeps focus in the list after signing a device out: on the next device, then on the heading", async () => {
    seed();
    const { user } = renderApp("/settings", { signedInAs: "ana@example.com" });
    const section = await devices();
    await user.click(await within(section).findByRole("button", { name: "Sign out Ana's MacBook Pro" }));
    await user.click(within(screen.getByRole("dialog")).getByRole("button", { name: "Sign out" }));
    await waitFor(() => expect(within(section).getByRole("button", { name: "Sign out Work iMac" })).toHaveFocus());
    await user.click(within(section).getByRole("button", { name: "Sign out Work iMac" }));
    await user.click(within(screen.getByRole("dialog")).getByRole("button", { name: "Sign out" }));
    await waitFor(() => expect(within(section).getByRole("heading", { name: "Devices" })).toHaveFocus());
    expect(within(section).getByText(/No desktop apps are signed in\./)).toBeInTheDocument();
  });

  it("says when a device was already gone and reads the list again", async () => {
    const { newer } = seed();
    const { user } = renderApp("/settings", { signedInAs: "ana@example.com" });
    const section = await devices();
    await user.click(await within(section).findByRole("button", { name: "Sign out Ana's MacBook Pro" }));
    newer.revoked = true;
    await user.click(within(screen.getByRole("dialog")).getByRole("button", { name: "Sign out" }));
    expect(await screen.findByText("That device is not signed in.")).toBeInTheDocument();
    await waitFor(() => expect(within(section).queryByText("Ana's MacBook Pro")).not.toBeInTheDocument());
  });

  it("with none signed in, says so and links to the download page", async () => {
    db.createUser({ email: "ana@example.com" });
    renderApp("/settings", { signedInAs: "ana@example.com" });
    const section = await devices();
    expect(await within(section).findByText(/No desktop apps are signed in\./)).toHaveTextContent(
      "No desktop apps are signed in. Download the app to get live hints during calls.",
    );
    expect(within(section).getByRole("link", { name: "Download the app" })).toHaveAttribute("href", "/download");
  });

  it("says it is loading, and when the list cannot be read offers to try again; the rest of settings stays", async () => {
    seed();
    let fail = true;
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    server.use(
      http.get("*/api/auth/devices", async () => {
        await gate;
        if (fail)
          return HttpResponse.json(
            { error: { code: "internal", message: "Something went wrong. Please try again." } },
            { status: 500 },
          );
        return undefined;
      }),
    );
    const { user } = renderApp("/settings", { signedInAs: "ana@example.com" });
    const section = await devices();
    expect(within(section).getByRole("status")).toHaveTextContent("Loading your devices...");
    release();
    expect(await within(section).findByRole("alert")).toHaveTextContent("Could not load your devices.");
    expect(screen.getByRole("button", { name: "Update password" })).toBeInTheDocument();
    fail = false;
    await user.click(within(section).getByRole("button", { name: "Try again" }));
    expect(await within(section).findByText("Ana's MacBook Pro")).toBeInTheDocument();
  });
});
