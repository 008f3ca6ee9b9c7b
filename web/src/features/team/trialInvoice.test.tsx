//! The team's free trial and paying by invoice on /team: the offers the server allows, what they
//! send, "Trial — ends on …", and seats active at once when paid by invoice.

import { screen, waitFor } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { redirect } from "../../lib/redirect";
import { db } from "../../testing/db";
import { renderApp } from "../../testing/render";
import { server } from "../../testing/server";

const OWNER = "ana@northwind.example";

function capture() {
  let sent: Record<string, unknown> | undefined;
  server.events.on("request:start", ({ request }) => {
    if (request.url.endsWith("/api/team/checkout"))
      void request
        .clone()
        .json()
        .then((body) => (sent = body as Record<string, unknown>));
  });
  return () => sent;
}

describe("/team trial and invoice", () => {
  it("offers the free trial and opens a checkout with trial: true", async () => {
    db.createUser({ email: OWNER });
    db.seedTeam({ owner: OWNER });
    const go = vi.spyOn(redirect, "to").mockImplementation(() => {});
    const sent = capture();
    const { user } = renderApp("/team/billing", { signedInAs: OWNER });
    await user.click(await screen.findByRole("button", { name: "Try it with your team free for 14 days" }));
    await waitFor(() => expect(go).toHaveBeenCalled());
    expect(sent()).toMatchObject({ seats: 1, interval: "month", trial: true });
    server.events.removeAllListeners();
  });

  it("says when the trial ends and offers no second one", async () => {
    db.createUser({ email: OWNER });
    const { team } = db.seedTeam({ owner: OWNER, seats: 3, status: "trialing" });
    const end = new Date(team.subscription!.trial_end! * 1000).toLocaleDateString("en-US", {
      year: "numeric",
      month: "long",
      day: "numeric",
    });
    renderApp("/team/billing", { signedInAs: OWNER });
    expect(await screen.findByText(`Trial — ends on ${end}`)).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Try it with your team free for 14 days" })).not.toBeInTheDocument();
  });

  it("offers Pay by invoice from 10 yearly seats, and the seats are active at once", async () => {
    db.createUser({ email: OWNER });
    db.seedTeam({ owner: OWNER });
    const sent = capture();
    const { user } = renderApp("/team/billing", { signedInAs: OWNER });
    const seats = await screen.findByLabelText("Seats");
    expect(screen.queryByRole("button", { name: "Pay by invoice" })).not.toBeInTheDocument();
    expect(screen.getByText("Paying by invoice is offered for 10 seats or more, billed yearly.")).toBeInTheDocument();
    await user.click(screen.getByLabelText("Yearly"));
    await user.clear(seats);
    await user.type(seats, "9");
    expect(screen.queryByRole("button", { name: "Pay by invoice" })).not.toBeInTheDocument();
    await user.clear(seats);
    await user.type(seats, "12");
    await user.click(screen.getByRole("button", { name: "Pay by invoice" }));
    expect(await screen.findByText(/^12 seats are active\. The invoice was sent; it is due on /)).toBeInTheDocument();
    expect(sent()).toEqual({ seats: 12, interval: "year", collection: "invoice" });
    expect(await screen.findByText("1 of 12 used")).toBeInTheDocument();
    expect(screen.getByText("Active")).toBeInTheDocument();
    server.events.removeAllListeners();
  });
});
