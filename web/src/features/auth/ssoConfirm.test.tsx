//! `/sso/confirm`: single sign-on signed in another account than the one this browser holds (a page
//! may have sent it through an approve-at-once provider). The page names both accounts and changes
//! nothing until the person chooses: Cancel keeps the session and drops the new one, Continue
//! switches; with no session of its own left there is nothing to ask.

import { screen, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { redirect } from "../../lib/redirect";
import { db } from "../../testing/db";
import { ssoSwitch } from "../../testing/handlers/sso";
import { renderApp } from "../../testing/render";

const VICTIM = "vic@elsewhere.example";
const MALLORY = "mallory@acme.example";

function seed() {
  db.createUser({ email: VICTIM });
  const mallory = db.createUser({ email: MALLORY });
  const victimSession = db.signInBrowser(VICTIM);
  ssoSwitch.pending = { userId: mallory.id, next: "/team" };
  return { mallory, victimSession };
}

const sessionOfCookie = () => db.sessions.find((s) => s.refreshToken === db.refreshCookie && !s.revoked);

describe("/sso/confirm", () => {
  afterEach(() => vi.restoreAllMocks());

  it("names both accounts and, on Cancel, keeps this browser's session", async () => {
    const { victimSession } = seed();
    const to = vi.spyOn(redirect, "to").mockImplementation(() => {});
    const { user } = renderApp("/sso/confirm");
    expect(await screen.findByText(/You are signed in as/)).toHaveTextContent(
      `You are signed in as ${VICTIM}. Continue as ${MALLORY}?`,
    );
    expect(sessionOfCookie()?.id).toBe(victimSession.id);
    await user.click(screen.getByRole("button", { name: "Cancel" }));
    await waitFor(() => expect(to).toHaveBeenCalledWith("/dashboard"));
    expect(ssoSwitch.pending).toBeNull();
    expect(sessionOfCookie()?.id).toBe(victimSession.id);
  });

  it("switches only when the person continues, then lands on next", async () => {
    const { mallory } = seed();
    const to = vi.spyOn(redirect, "to").mockImplementation(() => {});
    const { user } = renderApp("/sso/confirm");
    await user.click(await screen.findByRole("button", { name: `Continue as ${MALLORY}` }));
    await waitFor(() => expect(to).toHaveBeenCalledWith("/team"));
    expect(sessionOfCookie()?.userId).toBe(mallory.id);
  });

  it("continues at once when this browser holds no session of its own", async () => {
    const { mallory, victimSession } = seed();
    victimSession.revoked = true;
    const to = vi.spyOn(redirect, "to").mockImplementation(() => {});
    renderApp("/sso/confirm");
    await waitFor(() => expect(to).toHaveBeenCalledWith("/team"));
    expect(sessionOfCookie()?.userId).toBe(mallory.id);
    expect(screen.queryByRole("button", { name: "Cancel" })).not.toBeInTheDocument();
  });

  it("says so when nothing waits", async () => {
    db.createUser({ email: VICTIM });
    db.signInBrowser(VICTIM);
    renderApp("/sso/confirm");
    expect(await screen.findByRole("alert")).toHaveTextContent("This sign-in has expired or was already used.");
  });
});
