//! Single sign-on on /team (the owner's) and on the sign-in page: the redirect URI to register,
//! saving without ever showing the secret, the server's refusal, "Continue with SSO" asking the
//! e-mail first and going where the server says, and the seats message after a refused callback.

import { screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { db } from "../../testing/db";
import { apiError } from "../../testing/handlers";
import { publishedRecords } from "../../testing/handlers/teamDomains";
import { renderApp } from "../../testing/render";
import { server } from "../../testing/server";
import { http, HttpResponse } from "msw";

const OWNER = "ana@northwind.example";

function seed(ssoDomains: string[] = ["northwind.example"]) {
  db.createUser({ email: OWNER });
  const { team } = db.seedTeam({ owner: OWNER, seats: 4, members: [{ email: "bo@northwind.example", role: "admin" }] });
  Object.assign(team, { ssoDomains });
  return team as typeof team & { sso?: Record<string, unknown> };
}

describe("/team single sign-on", () => {
  it("shows the redirect URI, saves the connection and never shows the secret again", async () => {
    const team = seed();
    const { user } = renderApp("/team/security", { signedInAs: OWNER });
    const section = await screen.findByRole("region", { name: "Single sign-on" });
    expect(await within(section).findByText("http://localhost:8080/api/auth/sso/callback")).toBeInTheDocument();
    await user.type(within(section).getByLabelText("Issuer URL"), "http://idp.example");
    await user.type(within(section).getByLabelText("Client ID"), "closewise");
    await user.type(within(section).getByLabelText("Client secret"), "s3cret");
    await user.click(within(section).getByRole("button", { name: "Save single sign-on" }));
    expect(await within(section).findByRole("alert")).toHaveTextContent("The issuer must be an https URL");
    await user.clear(within(section).getByLabelText("Issuer URL"));
    await user.type(within(section).getByLabelText("Issuer URL"), "https://idp.example");
    expect(within(section).getByLabelText("E-mail claim")).toHaveValue("email");
    await user.selectOptions(within(section).getByLabelText("E-mail claim"), "upn");
    const saved = { protocol: "oidc", issuer: "https://idp.example", client_id: "closewise", email_claim: "upn" };
    await user.click(within(section).getByRole("button", { name: "Save single sign-on" }));
    await waitFor(() => expect(team.sso).toEqual({ ...saved, required: false }));
    expect(await within(section).findByRole("button", { name: "Test connection" })).toBeInTheDocument();
    await user.click(within(section).getByLabelText(/Require SSO for northwind.example/));
    await user.click(within(section).getByRole("button", { name: "Save single sign-on" }));
    await waitFor(() => expect(team.sso).toEqual({ ...saved, required: true }));
    expect(within(section).getByLabelText("Client secret")).toHaveValue("");
    expect(section).not.toHaveTextContent("s3cret");
  }, 30_000);

  it("offers Require SSO only once a domain is verified and the connection saved, saying why not before", async () => {
    seed([]);
    const { unmount } = renderApp("/team/security", { signedInAs: OWNER });
    const none = await screen.findByRole("region", { name: "Single sign-on" });
    const noDomain = await within(none).findByRole("checkbox", { name: /Require SSO/ });
    expect(noDomain).toBeDisabled();
    expect(noDomain).toHaveAccessibleDescription(/Verify a company domain first/);
    unmount();

    seed();
    const { user } = renderApp("/team/security", { signedInAs: OWNER });
    const section = await screen.findByRole("region", { name: "Single sign-on" });
    const require = await within(section).findByRole("checkbox", { name: /Require SSO for northwind.example/ });
    expect(require).toBeDisabled();
    expect(require).toHaveAccessibleDescription(/Save the connection first/);
    await user.type(within(section).getByLabelText("Issuer URL"), "https://idp.example");
    await user.type(within(section).getByLabelText("Client ID"), "closewise");
    await user.type(within(section).getByLabelText("Client secret"), "s3cret");
    await user.click(within(section).getByRole("button", { name: "Save single sign-on" }));
    await waitFor(() => expect(within(section).getByRole("checkbox", { name: /Require SSO for/ })).toBeEnabled());
  });

  it("connects a SAML identity provider from its metadata URL and shows what to give it and what it said", async () => {
    const team = seed();
    const { user } = renderApp("/team/security", { signedInAs: OWNER });
    const section = await screen.findByRole("region", { name: "Single sign-on" });
    await user.click(await within(section).findByLabelText("SAML 2.0"));
    expect(within(section).getByText(`http://localhost:8080/api/auth/saml/${team.id}/acs`)).toBeInTheDocument();
    expect(within(section).getByText(`http://localhost:8080/api/auth/saml/${team.id}/metadata`)).toBeInTheDocument();
    await user.click(within(section).getByRole("button", { name: "Save single sign-on" }));
    expect(await within(section).findByRole("alert")).toHaveTextContent("its URL or the XML, one of the two");
    await user.type(within(section).getByLabelText("Metadata URL"), "https://idp.example/saml/metadata");
    await user.type(within(section).getByLabelText("E-mail attribute (empty: the NameID)"), "mail");
    await user.click(within(section).getByRole("button", { name: "Save single sign-on" }));
    expect(await within(section).findByText("https://idp.example/saml")).toBeInTheDocument();
    expect(within(section).getByText("CN=idp.example, expires 2027-06-30")).toBeInTheDocument();
    expect(team.sso).toMatchObject({
      protocol: "saml",
      saml: { metadata_url: "https://idp.example/saml/metadata", email_attribute: "mail" },
    });
  });

  it("asks for a verified domain first, and is the owner's alone", async () => {
    seed([]);
    renderApp("/team/security", { signedInAs: OWNER });
    const section = await screen.findByRole("region", { name: "Single sign-on" });
    expect(await within(section).findByText(/Verify a company domain first/)).toBeInTheDocument();
  });

  it("offers the form as soon as a domain is verified on the same page, without a reload", async () => {
    seed([]);
    publishedRecords.clear();
    const { user } = renderApp("/team/security", { signedInAs: OWNER });
    const section = await screen.findByRole("region", { name: "Single sign-on" });
    expect(await within(section).findByText(/Verify a company domain first/)).toBeInTheDocument();
    const security = screen.getByRole("region", { name: "Security" });
    await user.type(within(security).getByLabelText("Company domain"), "northwind.example");
    await user.click(within(security).getByRole("button", { name: "Add domain" }));
    const row = await within(security).findByRole("listitem", { name: "northwind.example" });
    publishedRecords.add(within(row).getByText(/^closewise-domain-verification=/).textContent);
    await user.click(within(row).getByRole("button", { name: "Verify" }));
    expect(await within(section).findByLabelText("Issuer URL")).toBeInTheDocument();
    expect(within(section).getByLabelText(/Require SSO for northwind.example/)).toBeInTheDocument();
    expect(within(section).queryByText(/Verify a company domain first/)).not.toBeInTheDocument();
  });

  it("is not shown to an admin", async () => {
    seed();
    renderApp("/team/security", { signedInAs: "bo@northwind.example" });
    await screen.findByRole("region", { name: "Second factor" });
    expect(screen.queryByRole("region", { name: "Single sign-on" })).not.toBeInTheDocument();
  });
});

describe("Sign in with SSO", () => {
  it("asks for the e-mail first and goes to the start URL the server answers", async () => {
    const team = seed();
    team.sso = { issuer: "https://idp.example", client_id: "c", email_claim: "email", required: false };
    const assign = vi.fn();
    vi.stubGlobal("location", { ...window.location, assign });
    const { user } = renderApp("/signin?sso=1&next=/team");
    await user.type(await screen.findByLabelText("Work email"), "cy@elsewhere.example");
    await user.click(screen.getByRole("button", { name: "Continue with SSO" }));
    expect(await screen.findByText("Single sign-on is not set up for this e-mail address.")).toBeInTheDocument();
    await user.clear(screen.getByLabelText("Work email"));
    await user.type(screen.getByLabelText("Work email"), "cy@northwind.example");
    await user.click(screen.getByRole("button", { name: "Continue with SSO" }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith("/api/auth/sso/start?email=cy%40northwind.example&next=%2Fteam"));
    vi.unstubAllGlobals();
  });

  it("says at once, in words, that the address it was opened with has no single sign-on", async () => {
    renderApp(`/signin?sso=1&email=${encodeURIComponent("cy@elsewhere.example")}`);
    expect(await screen.findByText("Single sign-on is not set up for this e-mail address.")).toBeInTheDocument();
    expect(screen.getByLabelText("Work email")).toHaveAccessibleDescription(
      "Single sign-on is not set up for this e-mail address.",
    );
    expect(screen.queryByText("An unexpected error occurred")).not.toBeInTheDocument();
  });

  it("says the server's message for a refused address, and that Closewise cannot be reached when it does not answer", async () => {
    server.use(
      http.post("*/api/auth/sso/discover", () => apiError(400, "invalid_email", "Please enter a valid e-mail address."), {
        once: true,
      }),
    );
    const { user } = renderApp("/signin?sso=1");
    await user.type(await screen.findByLabelText("Work email"), "cy@");
    await user.click(screen.getByRole("button", { name: "Continue with SSO" }));
    expect(await screen.findByText("Please enter a valid e-mail address.")).toBeInTheDocument();
    server.use(http.post("*/api/auth/sso/discover", () => HttpResponse.error()));
    await user.click(screen.getByRole("button", { name: "Continue with SSO" }));
    expect(await screen.findByText("Can't reach Closewise — check your connection")).toBeInTheDocument();
    expect(screen.queryByText("An unexpected error occurred")).not.toBeInTheDocument();
  });

  it("says all seats are taken when the callback found none free", async () => {
    renderApp("/signin?sso=1&sso_error=seats_taken&seats=3");
    expect(await screen.findByRole("alert")).toHaveTextContent("All 3 seats are taken. Ask your team's owner to add seats.");
  });

  it("says why a SAML answer was refused", async () => {
    const cases: [string, string][] = [
      ["saml_assertion_expired", "Your identity provider's answer has expired. Please sign in again."],
      ["saml_assertion_replayed", "This answer from your identity provider was already used. Please sign in again."],
      ["invalid_saml_response", "Your identity provider's answer could not be verified."],
      ["saml_idp_initiated_off", "Sign-ins started at your identity provider are turned off for this team."],
    ];
    for (const [code, text] of cases) {
      const { unmount } = renderApp(`/signin?sso=1&sso_error=${code}`);
      expect(await screen.findByRole("alert")).toHaveTextContent(text);
      unmount();
    }
  });

  it("says the company's directory deactivated the account when the callback refused it", async () => {
    renderApp("/signin?sso=1&sso_error=deactivated_by_directory");
    expect(await screen.findByRole("alert")).toHaveTextContent(
      "Your company's directory has deactivated your account for this team. Ask your IT department or your team's owner.",
    );
  });

  it("switches to SSO when the password is refused with sso_required", async () => {
    server.use(
      http.post("*/api/auth/token", () =>
        apiError(403, "sso_required", "Your company signs in with single sign-on. Continue with SSO to sign in."),
      ),
    );
    const { user, router } = renderApp("/signin");
    await user.type(await screen.findByLabelText("Email"), "cy@northwind.example");
    await user.type(screen.getByLabelText("Password"), "whatever1");
    await user.click(screen.getByRole("button", { name: "Sign In" }));
    await waitFor(() => expect(router.state.location.search).toBe("?email=cy%40northwind.example&sso=1"));
    expect(await screen.findByLabelText("Work email")).toHaveValue("cy@northwind.example");
  });
});
