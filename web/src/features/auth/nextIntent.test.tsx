//! The desktop app's ways in (/download, /activate?user_code=…) survive sign-up, the verification mail
//! and sign-in, as checkout's intent does.

import { screen, waitFor, within } from "@testing-library/react";
import type { UserEvent } from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import type { createMemoryRouter } from "react-router";
import { db } from "../../testing/db";
import { renderApp } from "../../testing/render";

type Router = ReturnType<typeof createMemoryRouter>;
const here = (router: Router) => `${router.state.location.pathname}${router.state.location.search}`;

/** From a sign-up form carrying `next`: sign up, open the mail's link, go to sign in and sign in. */
async function signUpVerifyAndSignIn(user: UserEvent, router: Router, email: string) {
  await user.type(await screen.findByLabelText("Email", { exact: true }), email);
  await user.type(screen.getByLabelText("Password", { exact: true }), "secret123");
  await user.type(screen.getByLabelText("Confirm password", { exact: true }), "secret123");
  await user.click(screen.getByRole("button", { name: "Create Account" }));
  await screen.findByRole("heading", { name: "Check Your Email" });
  const link = new URL(db.lastMailTo(email)!.link!);
  await router.navigate(`${link.pathname}${link.search}`);
  // The verification page at rest (verified), so the link clicked is the one that stays.
  await screen.findByRole("heading", { name: "Email verified", level: 1 });
  await user.click(screen.getByRole("link", { name: "Go to Sign In" }));
  await waitFor(() => expect(router.state.location.pathname).toBe("/signin"));
  await user.type(await screen.findByLabelText("Email", { exact: true }), email);
  await user.type(screen.getByLabelText("Password", { exact: true }), "secret123");
  await user.click(screen.getByRole("button", { name: "Sign In" }));
}

describe("next for the desktop app", () => {
  it("/activate?user_code=…: sign in → Sign up → the mail → sign in → back at the code, looked up", async () => {
    const code = db.deviceCode({ deviceName: "Ana's MacBook Pro" });
    const { user, router } = renderApp(`/activate?user_code=${code}`);
    await waitFor(() => expect(router.state.location.pathname).toBe("/signin"));
    await user.click(await screen.findByRole("link", { name: "Sign up" }));
    expect(new URLSearchParams(router.state.location.search).get("next")).toBe(`/activate?user_code=${code}`);
    await signUpVerifyAndSignIn(user, router, "ana@example.com");
    await waitFor(() => expect(here(router)).toBe(`/activate?user_code=${code}`));
    expect(await screen.findByText("Ana's MacBook Pro")).toBeInTheDocument();
  });

  it("/download: the chooser's Create a free account → the mail → sign in → back at the download page", async () => {
    const { user, router } = renderApp("/download");
    await user.click((await screen.findAllByRole("button", { name: "Download for Mac" }))[0]!);
    const dialog = await screen.findByRole("dialog", { name: "Choose Your Mac Version" });
    await user.click(await within(dialog).findByRole("link", { name: "Create a free account" }));
    expect(here(router)).toBe("/signup?next=%2Fdownload");
    await signUpVerifyAndSignIn(user, router, "ana@example.com");
    await waitFor(() => expect(router.state.location.pathname).toBe("/download"));
    expect(screen.queryByRole("dialog")).not.toBeInTheDocument();
  });

  it("the failed verification page resends with next and signs in towards it", async () => {
    db.createUser({ email: "ana@example.com", verified: false });
    const next = "/activate?user_code=WDJB-MJHT";
    const { user } = renderApp(`/verify?token=vt_unknown&next=${encodeURIComponent(next)}`);
    expect(await screen.findByRole("heading", { name: "Verification failed" })).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Go to Sign In" })).toHaveAttribute(
      "href",
      `/signin?next=${encodeURIComponent(next)}`,
    );
    await user.type(screen.getByLabelText("Email"), "ana@example.com");
    await user.click(screen.getByRole("button", { name: "Resend verification email" }));
    expect(await screen.findByText("Verification email sent! Check your inbox.")).toBeInTheDocument();
    expect(db.lastMailTo("ana@example.com")!.link).toMatch(/&next=%2Factivate%3Fuser_code%3DWDJB-MJHT$/);
  });

  it("sign-in's resend for an unconfirmed e-mail carries next too", async () => {
    db.createUser({ email: "ana@example.com", verified: false });
    const { user } = renderApp(`/signin?next=${encodeURIComponent("/download")}`);
    await user.type(await screen.findByLabelText("Email"), "ana@example.com");
    await user.type(screen.getByLabelText("Password"), "secret123");
    await user.click(screen.getByRole("button", { name: "Sign In" }));
    await user.click(await screen.findByRole("button", { name: "Resend verification email" }));
    expect(await screen.findByText("Verification email sent! Check your inbox.")).toBeInTheDocument();
    expect(db.lastMailTo("ana@example.com")!.link).toMatch(/&next=%2Fdownload$/);
  });
});
