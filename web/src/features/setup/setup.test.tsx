//! `/setup/:token`, the setup link's page, with no account: the steps the link allows, in order; the
//! domain with its TXT record (copy buttons) and "Check now"; each provider's own names for our values;
//! "Save and test" then a real test sign-in (the token kept for the way back through `/setup`); the
//! test's pass or its failure in words; a SCIM token shown once; "Finish"; a gone or unknown link.

import { screen, waitFor, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { db } from "../../testing/db";
import { completeSetupTest, type LinkRow } from "../../testing/handlers/setupLinks";
import { domainsOf, publishedRecords } from "../../testing/handlers/teamDomains";
import { renderApp } from "../../testing/render";
import { FINISHED, GONE, UNKNOWN } from "./components/SetupPage";

const OWNER = "ana@northwind.example";
const TOKEN = "tok123";
const ACS = /\/api\/auth\/saml\/[0-9a-f-]+\/acs$/;
const ENTITY = /\/api\/auth\/saml\/[0-9a-f-]+\/metadata$/;

function seedLink(patch: Partial<LinkRow> = {}) {
  db.createUser({ email: OWNER });
  const { team } = db.seedTeam({ name: "Northwind", owner: OWNER, seats: 3 });
  const link: LinkRow = {
    ...{ id: "00000000-0000-4000-8000-0000000000aa", token: TOKEN, steps: ["domain", "sso", "scim"], createdBy: OWNER },
    ...{ createdAt: db.now(), expiresAt: db.now() + 86_400_000, finishedAt: null, revokedAt: null, done: [] },
    ...{ draft: null, test: null, scim: [] },
    ...patch,
  };
  (team as { setupLinks?: LinkRow[] }).setupLinks = [link];
  return { team, link };
}

function clipboard() {
  const writeText = vi.fn().mockResolvedValue(undefined);
  Object.defineProperty(navigator, "clipboard", { value: { writeText }, configurable: true });
  return writeText;
}

const step = (name: RegExp) => screen.findByRole("region", { name });

afterEach(() => {
  vi.unstubAllGlobals();
  publishedRecords.clear();
});

describe("/setup/:token", () => {
  it("shows the steps the link allows, in order, without an account", async () => {
    seedLink({ steps: ["domain", "scim"] });
    renderApp(`/setup/${TOKEN}`);
    expect(await screen.findByRole("heading", { level: 1, name: "Set up Northwind on Closewise" })).toBeInTheDocument();
    const steps = screen.getAllByRole("heading", { level: 2, name: /^\d\. / }).map((h) => h.textContent);
    expect(steps).toEqual(["1. Verify the company domain", "2. Create a SCIM token"]);
    expect(screen.queryByRole("region", { name: /Connect single sign-on/ })).not.toBeInTheDocument();
  });

  it("adds the domain, shows its TXT record with copy buttons and verifies it with Check now", async () => {
    seedLink();
    const { user } = renderApp(`/setup/${TOKEN}`);
    const writeText = clipboard();
    const domain = await step(/Verify the company domain/);
    await user.type(within(domain).getByLabelText("Company domain"), "northwind.example");
    await user.click(within(domain).getByRole("button", { name: "Add domain" }));
    const row = await within(domain).findByRole("listitem", { name: "northwind.example" });
    expect(within(row).getByText("_closewise-challenge.northwind.example")).toBeInTheDocument();
    const value = within(row).getByText(/^closewise-domain-verification=/).textContent;
    await user.click(within(row).getByRole("button", { name: "Copy Record name" }));
    expect(writeText).toHaveBeenCalledWith("_closewise-challenge.northwind.example");
    await user.click(within(row).getByRole("button", { name: "Copy Record value" }));
    expect(writeText).toHaveBeenCalledWith(value);
    await user.click(within(row).getByRole("button", { name: "Check now" }));
    expect(await within(row).findByRole("alert")).toHaveTextContent("We did not find _closewise-challenge.northwind.example.");
    publishedRecords.add(value);
    await user.click(within(row).getByRole("button", { name: "Check now" }));
    expect(await within(row).findByText("Verified")).toBeInTheDocument();
    expect(within(domain).getByText("Done")).toBeInTheDocument();
  });

  const NAMES: [string, [string, RegExp][]][] = [
    [
      "Okta",
      [
        ["Single sign-on URL", ACS],
        ["Audience URI (SP Entity ID)", ENTITY],
      ],
    ],
    [
      "Microsoft Entra ID",
      [
        ["Identifier (Entity ID)", ENTITY],
        ["Reply URL (Assertion Consumer Service URL)", ACS],
      ],
    ],
    [
      "Google Workspace",
      [
        ["ACS URL", ACS],
        ["Entity ID", ENTITY],
      ],
    ],
    [
      "OneLogin",
      [
        ["ACS (Consumer) URL", ACS],
        ["Audience (EntityID)", ENTITY],
      ],
    ],
    [
      "Other SAML",
      [
        ["ACS URL (Assertion Consumer Service, HTTP-POST)", ACS],
        ["Entity ID (Audience)", ENTITY],
      ],
    ],
  ];
  it.each(NAMES)("names our values as %s's console does", async (provider, fields) => {
    seedLink();
    const { user } = renderApp(`/setup/${TOKEN}`);
    const sso = await step(/Connect single sign-on/);
    await user.click(within(sso).getByRole("radio", { name: provider }));
    const values = within(sso).getByLabelText(`Values for ${provider}`);
    for (const [label, value] of fields) {
      const term = within(values).getByText(label, { selector: "dt" });
      expect(term.nextElementSibling!.textContent).toMatch(value);
      expect(within(values).getByRole("button", { name: `Copy ${label}` })).toBeInTheDocument();
    }
    expect(within(sso).getByLabelText("Metadata URL")).toBeInTheDocument();
    expect(within(sso).getByLabelText("Or upload the metadata XML")).toBeInTheDocument();
    expect(within(sso).queryByLabelText("Client secret")).not.toBeInTheDocument();
  });

  it("asks an OpenID Connect provider for the redirect URI, issuer, client ID and secret", async () => {
    seedLink();
    const { user } = renderApp(`/setup/${TOKEN}`);
    const sso = await step(/Connect single sign-on/);
    await user.click(within(sso).getByRole("radio", { name: "Other OpenID Connect" }));
    expect(within(sso).getByText("Redirect URI", { selector: "dt" }).nextElementSibling!.textContent).toMatch(
      /\/api\/auth\/sso\/callback$/,
    );
    for (const label of ["Issuer URL", "Client ID", "Client secret", "E-mail claim"])
      expect(within(sso).getByLabelText(label)).toBeInTheDocument();
    expect(within(sso).queryByLabelText("Metadata URL")).not.toBeInTheDocument();
  });

  it("saves the settings as a draft, then starts a real test sign-in, keeping the token for the way back", async () => {
    const { link } = seedLink({ steps: ["sso"] });
    const team = [...db.team.teams.values()][0]!;
    domainsOf(team).push({
      ...{ id: "00000000-0000-4000-8000-0000000000d1", domain: "northwind.example", status: "verified" },
      ...{ txt_name: "_closewise-challenge.northwind.example", txt_value: "closewise-domain-verification=x" },
      ...{ created_at: db.iso(db.now()), verified_at: db.iso(db.now()), last_checked_at: null, last_seen_at: null },
    });
    const assign = vi.fn();
    vi.stubGlobal("location", { ...window.location, assign });
    const { user } = renderApp(`/setup/${TOKEN}`);
    const sso = await step(/Connect single sign-on/);
    await user.click(within(sso).getByRole("radio", { name: "Okta" }));
    await user.click(within(sso).getByRole("button", { name: "Save and test" }));
    expect(await within(sso).findByRole("alert")).toHaveTextContent("Give your identity provider's SAML metadata");
    await user.type(within(sso).getByLabelText("Metadata URL"), "https://northwind.okta.example/app/metadata");
    await user.click(within(sso).getByRole("button", { name: "Save and test" }));
    const test = await within(sso).findByRole("form", { name: "Test sign-in" });
    expect(link.draft).toMatchObject({ protocol: "saml" });
    expect((team as { sso?: unknown }).sso).toBeUndefined();
    expect(test).toHaveTextContent("at northwind.example");
    await user.type(within(test).getByLabelText("Work e-mail"), "it@elsewhere.example");
    await user.click(within(test).getByRole("button", { name: "Test sign-in" }));
    expect(await within(test).findByRole("alert")).toHaveTextContent("Use an address at one of the team's verified domains.");
    await user.clear(within(test).getByLabelText("Work e-mail"));
    await user.type(within(test).getByLabelText("Work e-mail"), "it@northwind.example");
    await user.click(within(test).getByRole("button", { name: "Test sign-in" }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith(expect.stringMatching(/^https:\/\/idp\.example\/saml\/sso\?/)));
    expect(window.sessionStorage.getItem("cw_setup_token")).toBe(TOKEN);
  });

  it("comes back through /setup to the link's page and says the test passed and single sign-on is saved", async () => {
    const { team } = seedLink({ draft: { protocol: "saml", idp_entity_id: "https://idp.example/saml" } });
    completeSetupTest(TOKEN, "passed");
    window.sessionStorage.setItem("cw_setup_token", TOKEN);
    renderApp("/setup?sso_test=passed");
    const sso = await step(/Connect single sign-on/);
    expect(within(sso).getByRole("status")).toHaveTextContent("The test sign-in passed. Single sign-on is saved.");
    expect(within(sso).getByText("Done")).toBeInTheDocument();
    expect((team as { sso?: unknown }).sso).toBeDefined();
  });

  it("says a failed test in words with its error, nothing saved", async () => {
    const { team } = seedLink({ draft: { protocol: "saml", idp_entity_id: "https://idp.example/saml" } });
    completeSetupTest(TOKEN, "failed", "invalid_saml_response");
    window.sessionStorage.setItem("cw_setup_token", TOKEN);
    renderApp("/setup?sso_test=failed&sso_error=invalid_saml_response");
    const sso = await step(/Connect single sign-on/);
    expect(within(sso).getByRole("alert")).toHaveTextContent(
      "The test sign-in failed: the identity provider's answer did not pass our checks (its signature, certificate, audience or destination) (invalid_saml_response). Nothing was saved",
    );
    expect(within(sso).queryByText("Done")).not.toBeInTheDocument();
    expect(within(sso).getByRole("form", { name: "Test sign-in" })).toBeInTheDocument();
    expect((team as { sso?: unknown }).sso).toBeUndefined();
  });

  it("says so at /setup when this browser lost the link", async () => {
    renderApp("/setup?sso_test=passed");
    expect(await screen.findByText(/This browser no longer knows which setup link you came from/)).toBeInTheDocument();
  });

  it("creates a SCIM token shown once with copy, beside the SCIM base URL", async () => {
    const { team } = seedLink({ steps: ["scim"] });
    const { user } = renderApp(`/setup/${TOKEN}`);
    const writeText = clipboard();
    const scim = await step(/Create a SCIM token/);
    expect(within(scim).getByText("http://localhost:8080/scim/v2")).toBeInTheDocument();
    await user.type(within(scim).getByLabelText("Token name"), "Okta production");
    await user.click(within(scim).getByRole("button", { name: "Create SCIM token" }));
    const shown = await within(scim).findByText(/^cws_scim_/);
    expect(within(scim).getByText("Copy this token now: it is not shown again.")).toBeInTheDocument();
    await user.click(within(scim).getByRole("button", { name: "Copy token" }));
    expect(writeText).toHaveBeenCalledWith(shown.textContent);
    expect(await within(scim).findByText(/^Okta production, created/)).toBeInTheDocument();
    expect(within(scim).getByText("Done")).toBeInTheDocument();
    expect((team as { scim?: unknown[] }).scim).toHaveLength(1);
  });

  it("finishes after confirming, then says it is done", async () => {
    const { link } = seedLink({ done: ["domain"] });
    const { user } = renderApp(`/setup/${TOKEN}`);
    await step(/Verify the company domain/);
    await user.click(screen.getByRole("button", { name: "Finish" }));
    const dialog = await screen.findByRole("dialog", { name: "Finish setup?" });
    await user.click(within(dialog).getByRole("button", { name: "Finish setup" }));
    expect(await screen.findByRole("heading", { level: 1, name: "Setup is finished" })).toBeInTheDocument();
    expect(screen.getByRole("status")).toHaveTextContent("the company domain verified");
    expect(link.finishedAt).not.toBeNull();
  });

  it.each([
    ["revoked", { revokedAt: 1 }, GONE],
    ["expired", { expiresAt: 1 }, GONE],
    ["finished", { finishedAt: 1 }, FINISHED],
  ] as const)("says a %s link no longer works and whom to ask", async (_, patch, message) => {
    seedLink(patch);
    renderApp(`/setup/${TOKEN}`);
    expect(await screen.findByRole("heading", { level: 1, name: "This setup link no longer works" })).toBeInTheDocument();
    expect(screen.getByText(message)).toBeInTheDocument();
  });

  it("turns into the gone page when the link is revoked while it is open", async () => {
    const { link } = seedLink();
    const { user } = renderApp(`/setup/${TOKEN}`);
    const domain = await step(/Verify the company domain/);
    link.revokedAt = db.now();
    await user.type(within(domain).getByLabelText("Company domain"), "northwind.example");
    await user.click(within(domain).getByRole("button", { name: "Add domain" }));
    expect(await screen.findByText(GONE)).toBeInTheDocument();
  });

  it("says an unknown link does not exist", async () => {
    seedLink();
    renderApp("/setup/nope");
    expect(await screen.findByText(UNKNOWN)).toBeInTheDocument();
  });
});
