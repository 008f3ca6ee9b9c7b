//! The account pages when the API does not answer: within 5 s they say so with Try again (instead of
//! loading on while the session's restore retries), and come back by themselves when the browser is
//! online again.

import { screen } from "@testing-library/react";
import { http, HttpResponse } from "msw";
import { describe, expect, it } from "vitest";
import { UNREACHABLE_AFTER_MS } from "../lib/auth/accountLoader";
import { db } from "../testing/db";
import { renderApp } from "../testing/render";
import { server } from "../testing/server";

const UNREACHABLE = "Can't reach Closewise — check your connection";
/** The loader gives up waiting after 5 s at most (sooner once a try got no answer); jsdom on a busy machine
 * renders a little later than a browser, so the test waits a little longer for the words. */
const SAYS_SO_WITHIN = UNREACHABLE_AFTER_MS + 3000;

function apiDown() {
  let down = true;
  server.use(http.all("*/api/*", () => (down ? HttpResponse.error() : undefined)));
  return () => void (down = false);
}

describe("account pages with the API unreachable", () => {
  it("give up waiting for the session within 5 s", () => {
    expect(UNREACHABLE_AFTER_MS).toBeLessThanOrEqual(5000);
  });

  for (const path of ["/dashboard", "/settings", "/team"])
    it(`${path} says it cannot reach Closewise within 5 s, and Try again loads the page once it answers`, async () => {
      db.createUser({ email: "ana@example.com" });
      const up = apiDown();
      const { user } = renderApp(path, { signedInAs: "ana@example.com" });
      expect(await screen.findByText(UNREACHABLE, {}, { timeout: SAYS_SO_WITHIN })).toBeInTheDocument();
      expect(screen.queryByText(/Loading/)).not.toBeInTheDocument();
      up();
      await user.click(screen.getByRole("button", { name: "Try again" }));
      expect(await screen.findByRole("heading", { level: 1 }, { timeout: 5000 })).not.toHaveTextContent(/Can't reach/);
      expect(screen.queryByText(UNREACHABLE)).not.toBeInTheDocument();
    });

  it("tries again by itself when the browser is back online", async () => {
    db.createUser({ email: "ana@example.com" });
    const up = apiDown();
    renderApp("/dashboard", { signedInAs: "ana@example.com" });
    expect(await screen.findByText(UNREACHABLE, {}, { timeout: SAYS_SO_WITHIN })).toBeInTheDocument();
    up();
    window.dispatchEvent(new Event("online"));
    expect(await screen.findByRole("heading", { name: "Dashboard", level: 1 }, { timeout: 5000 })).toBeInTheDocument();
  });
});
