import { screen, waitFor, within } from "@testing-library/react";
import { http, HttpResponse } from "msw";
import { afterEach, describe, expect, it, vi } from "vitest";
import { redirect } from "../../lib/redirect";
import { db } from "../../testing/db";
import { refuse } from "../../testing/handlers";
import { renderApp } from "../../testing/render";
import { server } from "../../testing/server";

const request = {
  response_type: "code",
  client_id: "closewise-desktop",
  redirect_uri: "http://127.0.0.1:53682/callback",
  code_challenge: "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM",
  code_challenge_method: "S256",
  state: "st4te",
  device_name: "Ana's MacBook Pro",
  platform: "macos",
};
const path = (overrides: Record<string, string> = {}) => `/authorize?${new URLSearchParams({ ...request, ...overrides })}`;

afterEach(() => vi.restoreAllMocks());

function leaving() {
  return vi.spyOn(redirect, "to").mockImplementation(() => {});
}

describe("/authorize", () => {
  it("sends a signed-out visitor to sign in with the whole request as next, and comes back to it", async () => {
    db.createUser({ email: "ana@example.com" });
    const target = path();
    const { user, router } = renderApp(target);
    await waitFor(() => expect(router.state.location.pathname).toBe("/signin"));
    expect(new URLSearchParams(router.state.location.search).get("next")).toBe(target);
    await user.type(await screen.findByLabelText("Email"), "ana@example.com");
    await user.type(screen.getByLabelText("Password"), "secret123");
    await user.click(screen.getByRole("button", { name: "Sign In" }));
    expect(await screen.findByRole("heading", { name: "Closewise for desktop wants to sign in to your account" })).toBeVisible();
    expect(`${router.state.location.pathname}${router.state.location.search}`).toBe(target);
  });

  it("says it is checking the request while the API answers", async () => {
    db.createUser({ email: "ana@example.com" });
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    server.use(
      http.get("*/api/auth/authorize", async () => {
        await gate;
        return HttpResponse.json({
          client_id: "closewise-desktop",
          client_name: "Closewise for desktop",
          redirect_uri: request.redirect_uri,
          device_name: null,
          platform: null,
          requested_from: "127.0.0.1",
        });
      }),
    );
    renderApp(path(), { signedInAs: "ana@example.com" });
    expect(await screen.findByText("Checking the sign-in request...")).toBeInTheDocument();
    release();
    expect(await screen.findByRole("heading", { name: "Closewise for desktop wants to sign in to your account" })).toBeVisible();
    expect(screen.getByText("Not named")).toBeInTheDocument();
    expect(screen.getByText("Unknown platform")).toBeInTheDocument();
  });

  it("labels the name as the device's own choice and shows the address the page was opened from", async () => {
    db.createUser({ email: "ana@example.com" });
    renderApp(path(), { signedInAs: "ana@example.com" });
    const name = await screen.findByText("Ana's MacBook Pro");
    expect(name.previousElementSibling).toHaveTextContent("Name (chosen by the device)");
    expect(screen.getByText("127.0.0.1 (this browser)").previousElementSibling).toHaveTextContent("Requested from");
  });

  it("shows the API's refusal of a name with a hidden character", async () => {
    db.createUser({ email: "ana@example.com" });
    const hidden = "The device name and platform cannot contain invisible or text-direction characters.";
    server.use(refuse("get", "/api/auth/authorize", 400, "invalid_device_name", hidden));
    renderApp(path({ device_name: "Your MacBook \u202E(TI)" }), { signedInAs: "ana@example.com" });
    expect(await screen.findByText(/cannot contain invisible or text-direction characters/)).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Continue" })).not.toBeInTheDocument();
  });

  it("shows the device, and Continue allows and goes back to the app with the code", async () => {
    db.createUser({ email: "ana@example.com" });
    const to = leaving();
    const { user } = renderApp(path(), { signedInAs: "ana@example.com" });
    expect(await screen.findByRole("heading", { name: "Closewise for desktop wants to sign in to your account" })).toBeVisible();
    expect(screen.getByText("Ana's MacBook Pro")).toBeInTheDocument();
    expect(screen.getByText("macOS")).toBeInTheDocument();
    expect(within(screen.getByRole("main")).getByText("ana@example.com")).toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: "Continue" }));
    await waitFor(() => expect(to).toHaveBeenCalledTimes(1));
    expect(to.mock.calls[0]![0]).toMatch(/^http:\/\/127\.0\.0\.1:53682\/callback\?code=[^&]+&state=st4te$/);
    expect(await screen.findByRole("status")).toHaveTextContent("Returning you to the Closewise app");
  });

  it("Cancel denies and goes back to the app with access_denied", async () => {
    db.createUser({ email: "ana@example.com" });
    const to = leaving();
    const { user } = renderApp(path(), { signedInAs: "ana@example.com" });
    await user.click(await screen.findByRole("button", { name: "Cancel" }));
    await waitFor(() => expect(to).toHaveBeenCalledWith("http://127.0.0.1:53682/callback?error=access_denied&state=st4te"));
    expect(await screen.findByText("Sign-in cancelled. You can close this tab.")).toBeInTheDocument();
  });

  it.each([
    [{ client_id: "someone-else" }, "invalid_client", "This sign-in link is not from the Closewise app."],
    [
      { redirect_uri: "https://evil.example/callback" },
      "invalid_redirect_uri",
      "This sign-in link cannot send you back to the app. Start the sign-in again from the app.",
    ],
    [{ code_challenge_method: "plain" }, "invalid_request", "code_challenge_method must be S256"],
  ])(
    "shows the server's message for an invalid request %j, with no Continue, and never leaves",
    async (overrides, code, text) => {
      db.createUser({ email: "ana@example.com" });
      server.use(refuse("get", "/api/auth/authorize", 400, code, text));
      const to = leaving();
      renderApp(path(overrides), { signedInAs: "ana@example.com" });
      expect(await screen.findByRole("heading", { name: "This sign-in link cannot be used" })).toBeVisible();
      expect(screen.getByRole("alert")).toHaveTextContent(text);
      expect(screen.queryByRole("button", { name: "Continue" })).not.toBeInTheDocument();
      expect(to).not.toHaveBeenCalled();
    },
  );

  it("shows the API's message to an unverified account and offers no way on", async () => {
    db.createUser({ email: "new@example.com", verified: false });
    const to = leaving();
    const { user } = renderApp(path(), { signedInAs: "new@example.com" });
    await user.click(await screen.findByRole("button", { name: "Continue" }));
    expect(await screen.findByRole("alert")).toHaveTextContent("Please verify your email address before signing in to the app.");
    expect(screen.queryByRole("button", { name: "Continue" })).not.toBeInTheDocument();
    expect(to).not.toHaveBeenCalled();
  });

  it("keeps the buttons after a failure that may pass, and never follows an answer that leaves the app's callback", async () => {
    db.createUser({ email: "ana@example.com" });
    const to = leaving();
    server.use(
      http.post("*/api/auth/authorize", () =>
        HttpResponse.json({ error: { code: "internal", message: "Something went wrong. Please try again." } }, { status: 500 }),
      ),
    );
    const { user } = renderApp(path(), { signedInAs: "ana@example.com" });
    await user.click(await screen.findByRole("button", { name: "Continue" }));
    expect(await screen.findByRole("alert")).toHaveTextContent("Something went wrong. Please try again.");
    expect(screen.getByRole("button", { name: "Continue" })).toBeEnabled();

    server.use(http.post("*/api/auth/authorize", () => HttpResponse.json({ redirect_to: "https://evil.example/?code=x" })));
    await user.click(screen.getByRole("button", { name: "Continue" }));
    expect(await screen.findByText("An unexpected error occurred")).toBeInTheDocument();
    expect(to).not.toHaveBeenCalled();
  });
});
