//! Event streams on /team: the owner adds an https destination and sees its signing secret once
//! (with a copy button), finds it listed without the secret; sends a test event and sees the
//! delivery, rotates the secret (shown once, the old one signing for 24 hours); replays from a date
//! and deletes a stream after confirming; a refused URL is said at the URL field; a Splunk HEC destination
//! asks for its token; the password is asked for once the step-up window is over; a paused stream
//! says so; admins see no section.

import { screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { db } from "../../testing/db";
import { renderApp } from "../../testing/render";

const OWNER = "ana@northwind.example";
const ADMIN = "bo@northwind.example";
const TITLE = "Event streams";

function seedNorthwind() {
  db.createUser({ email: OWNER });
  return db.seedTeam({ owner: OWNER, seats: 3, members: [{ email: ADMIN, role: "admin" }] }).team;
}

/** A stream as the mock keeps it on the team's row, with `delivered` past deliveries of one event. */
function seedStream(
  team: ReturnType<typeof seedNorthwind>,
  {
    kind,
    url,
    status,
    pending = 0,
    delivered = 0,
  }: { kind: string; url: string; status: string; pending?: number; delivered?: number },
) {
  const deliveries = Array.from({ length: delivered }, (_, i) => ({
    id: `0190d6f2-0000-7000-8000-0000000001${String(i).padStart(2, "0")}`,
    attempted_at: "2026-02-02T00:00:00Z",
    status: "delivered",
    events: 1,
    latency_ms: 42,
    response_code: 200,
    error: null,
    next_retry_at: null,
  }));
  (team as { streams?: unknown[] }).streams = [
    {
      id: "0190d6f2-0000-7000-8000-000000000001",
      kind,
      url,
      events: ["audit"],
      status,
      pending,
      failures: status === "active" ? 0 : 40,
      next_attempt_at: null,
      paused_at: status === "paused" ? "2026-03-04T05:06:07Z" : null,
      previous_secret_expires_at: null,
      created_at: "2026-02-01T00:00:00Z",
      deliveries,
    },
  ];
}

/** Typing a URL a key at a time is slow on a busy machine: the field is cleared and pasted into. */
async function fill(user: ReturnType<typeof renderApp>["user"], field: HTMLElement, text: string) {
  await user.clear(field);
  await user.click(field);
  await user.paste(text);
}

async function openSection() {
  const rendered = renderApp("/team/security", { signedInAs: OWNER });
  // The first render of a run loads the whole page cold: more than the default wait on a busy machine.
  const section = await screen.findByRole("region", { name: TITLE }, { timeout: 10_000 });
  return { ...rendered, section };
}

describe("/team event streams", () => {
  it("adds an https stream whose signing secret is shown once, with copy, and lists it without the secret", async () => {
    seedNorthwind();
    const { user, section } = await openSection();
    const writeText = vi.fn().mockResolvedValue(undefined);
    Object.defineProperty(navigator, "clipboard", { value: { writeText }, configurable: true });
    expect(await within(section).findByText("No event streams yet.")).toBeInTheDocument();
    await fill(user, within(section).getByLabelText("URL"), "https://hooks.example.com/closewise");
    await user.click(within(section).getByLabelText("seats.changed"));
    await user.click(within(section).getByRole("button", { name: "Add stream" }));
    const shown = await within(section).findByText(/^whsec_/);
    const secret = shown.textContent ?? "";
    expect(within(section).getByText("Copy this signing secret now: it is not shown again.")).toBeInTheDocument();
    await user.click(within(section).getByRole("button", { name: "Copy secret" }));
    expect(writeText).toHaveBeenCalledWith(secret);
    const list = await within(section).findByRole("list", { name: "Event streams" });
    const row = within(list).getAllByRole("listitem")[0]!;
    expect(row.textContent).toContain("https://hooks.example.com/closewise");
    expect(row.textContent).toContain("seats.changed");
    expect(row.textContent).toContain("Active");
    expect(list.textContent).not.toContain(secret);
  }, 30_000); // the first test of a run also loads the page cold

  it("sends a test event and shows its delivery, and rotates the secret (shown once, the old one signing for 24 hours)", async () => {
    const team = seedNorthwind();
    seedStream(team, { kind: "https", url: "https://hooks.example.com/in", status: "active" });
    const { user, section } = await openSection();
    const row = within(await within(section).findByRole("list", { name: "Event streams" })).getAllByRole("listitem")[0]!;
    await user.click(within(row).getByRole("button", { name: "Send test event" }));
    await user.click(within(row).getByRole("button", { name: "Show deliveries" }));
    const deliveries = await within(row).findByRole("table", { name: "Deliveries" });
    expect(within(deliveries).getAllByRole("row")).toHaveLength(2);
    expect(deliveries.textContent).toContain("Delivered");
    expect(deliveries.textContent).toContain("200");
    expect(deliveries.textContent).toContain("42 ms");
    await user.click(within(row).getByRole("button", { name: "Rotate secret" }));
    expect(await within(section).findByText(/^whsec_/)).toBeInTheDocument();
    expect(within(section).getByText("The old secret keeps signing beside it for 24 hours.")).toBeInTheDocument();
    expect(await within(row).findByText(/the previous secret signs until/)).toBeInTheDocument();
  });

  it("replays from a date and deletes a stream after confirming", async () => {
    const team = seedNorthwind();
    seedStream(team, { kind: "https", url: "https://hooks.example.com/in", status: "active", delivered: 3 });
    const { user, section } = await openSection();
    const row = within(await within(section).findByRole("list", { name: "Event streams" })).getAllByRole("listitem")[0]!;
    await fill(user, within(row).getByLabelText("Replay from"), "2026-01-01");
    await user.click(within(row).getByRole("button", { name: "Replay" }));
    expect(await within(row).findByText("3 events queued again.")).toBeInTheDocument();
    await user.click(within(row).getByRole("button", { name: "Delete" }));
    const dialog = await screen.findByRole("dialog", { name: "Delete this event stream?" });
    await user.click(within(dialog).getByRole("button", { name: "Delete stream" }));
    expect(await within(section).findByText("No event streams yet.")).toBeInTheDocument();
  });

  it("says a refused URL at the URL field, and asks a Splunk HEC stream for its token", async () => {
    seedNorthwind();
    const { user, section } = await openSection();
    const url = await within(section).findByLabelText("URL");
    await fill(user, url, "http://hooks.example.com/in");
    await user.click(within(section).getByRole("button", { name: "Add stream" }));
    expect(await within(section).findByText("The destination must be an https URL at a public address.")).toBeInTheDocument();
    expect(url).toHaveAttribute("aria-invalid", "true");

    await user.selectOptions(within(section).getByLabelText("Kind"), "splunk_hec");
    await fill(user, url, "https://splunk.example.com:8088/services/collector/event");
    await user.click(within(section).getByRole("button", { name: "Add stream" }));
    expect(await within(section).findByText("Splunk HEC and Datadog destinations need their token.")).toBeInTheDocument();
    await fill(user, within(section).getByLabelText("Token"), "hec-token");
    await user.click(within(section).getByRole("button", { name: "Add stream" }));
    const list = await within(section).findByRole("list", { name: "Event streams" });
    expect(list.textContent).toContain("Splunk HEC");
    expect(within(section).queryByText(/^whsec_/)).not.toBeInTheDocument();
    expect(within(list).queryByRole("button", { name: "Rotate secret" })).not.toBeInTheDocument();
  });

  it("asks for the password before adding a stream once the window is over", async () => {
    const team = seedNorthwind();
    const { user, section } = await openSection();
    for (const s of db.sessions) s.passwordAt = db.now() - 16 * 60_000;
    await fill(user, await within(section).findByLabelText("URL"), "https://hooks.example.com/in");
    await user.click(within(section).getByRole("button", { name: "Add stream" }));
    const dialog = await screen.findByRole("dialog", { name: "Confirm your password" });
    expect((team as { streams?: unknown[] }).streams ?? []).toHaveLength(0);
    await fill(user, within(dialog).getByLabelText("Password"), "secret123");
    await user.click(within(dialog).getByRole("button", { name: "Confirm" }));
    expect(await within(section).findByText(/^whsec_/)).toBeInTheDocument();
  });

  it("says a paused stream is paused, and Retry now resumes it", async () => {
    const team = seedNorthwind();
    seedStream(team, {
      kind: "datadog",
      url: "https://http-intake.logs.datadoghq.com/api/v2/logs",
      status: "paused",
      pending: 12,
    });
    const { user, section } = await openSection();
    const list = await within(section).findByRole("list", { name: "Event streams" });
    expect(list.textContent).toContain("Paused");
    expect(list.textContent).toContain("12 events waiting");
    await user.click(within(list).getByRole("button", { name: "Retry now" }));
    await waitFor(() => expect(list.textContent).toContain("Active"));
  });

  it("is the owner's only", async () => {
    seedNorthwind();
    renderApp("/team", { signedInAs: ADMIN });
    await screen.findByRole("region", { name: "Members" });
    expect(screen.queryByRole("region", { name: TITLE })).not.toBeInTheDocument();
  });
});
