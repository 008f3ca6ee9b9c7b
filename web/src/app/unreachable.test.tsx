//! The account pages when the API does not answer: within 5 s they say so with Try again (instead of
//! loading on while the session's restore retries), and come back by themselves when the browser is
//! online again.

import { screen } from "@testing-library/react";
import { http, HttpResponse } from "msw";
import { describe, expect, it } from "vitest";
import { db } from "../testing/db";
import { renderApp } from "../testing/render";
import { server } from "../testing/server";

const UNREACHABLE = "Can't reach Closewise — check your connection";

function apiDown() {
  let down = true;
  server.use(http.all("*/api/*", () => (down ? HttpResponse.error() : undefined)));
  return () => void (down = false);
}

describe("account pages with the API unreachable", () => {
  for (const path of ["/dashboard", "/settings", "/team"])
    it(`${path} says it cannot reach Closewise within 5 s, and Try again loads the page once it answers`, async () => {
      db.createUser({ email: "ana@example.com" });
      const up = apiDown();
      const { user } = renderApp(path, { signedInAs: "ana@example.com" });
      expect(await screen.findByText(UNREACHABLE, {}, { timeout: 5000 })).toBeInTheDocument();
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
    expect(await screen.findByText(UNREACHABLE, {}, { timeout: 5000 })).toBeInTheDocument();
    up();
    window.dispatchEvent(new Event("online"));
    expect(await screen.findByRole("heading", { name: "Dashboard", level: 1 }, { timeout: 5000 })).toBeInTheDocument();
  });
});
