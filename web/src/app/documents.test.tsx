import { render, screen, within } from "@testing-library/react";
import type { ComponentType } from "react";
import { RouterProvider } from "react-router";
import { describe, expect, it, vi } from "vitest";
import DownloadRoute from "./download";
import PrivacyRoute, { meta as privacyMeta } from "./privacy";
import SupportRoute from "./support";
import TermsRoute from "./terms";
import { routerWithProviders } from "../testing/router";
import { sitemapPaths } from "../features/marketing/build/seoFiles";

vi.mock("../lib/analytics", async (original) => ({ ...(await original()), track: vi.fn() }));

function renderRoute(path: string, Component: ComponentType) {
  return render(<RouterProvider router={routerWithProviders([{ path, Component }], path)} />);
}

describe("/privacy", () => {
  it("says what the app hears, what the web keeps, payments, analytics, cookies, retention, deletion and whom to ask", async () => {
    const { container } = renderRoute("/privacy", PrivacyRoute);
    expect(await screen.findByRole("heading", { level: 1, name: "Privacy Policy" })).toBeInTheDocument();
    for (const heading of [
      "What the desktop app hears",
      "What the website keeps about your account",
      "Payments",
      "Analytics and consent",
      "Cookies and local storage",
      "How long we keep it",
      "Deleting your account",
      "Contact",
    ]) {
      expect(screen.getByRole("heading", { level: 2, name: heading })).toBeInTheDocument();
    }
    for (const fact of ["argon2id", "user agent", "audit trail", "Stripe", "card data never touches our servers", "PostHog"]) {
      expect(container).toHaveTextContent(fact);
    }
    expect(container).toHaveTextContent("without query strings");
    expect(container).toHaveTextContent("cw_refresh");
    expect(container).toHaveTextContent("30 days");
    expect(container).toHaveTextContent("removes your account and cancels your subscription");
    expect(container).toHaveTextContent("as described in the desktop app's own notice");
    const contact = screen.getByRole("region", { name: "Contact" });
    expect(within(contact).getByRole("link", { name: "support@closewise.app" })).toHaveAttribute(
      "href",
      "mailto:support@closewise.app",
    );
  });

  it("has its own title and canonical link", () => {
    const meta = privacyMeta();
    expect(meta).toContainEqual({ title: "Privacy Policy | Closewise" });
    expect(meta).toContainEqual({ tagName: "link", rel: "canonical", href: "https://closewise.app/privacy" });
  });
});

describe("/terms", () => {
  it("covers the plans, Stripe billing, cancelling, deletion and contact", async () => {
    const { container } = renderRoute("/terms", TermsRoute);
    expect(await screen.findByRole("heading", { level: 1, name: "Terms of Service" })).toBeInTheDocument();
    expect(container).toHaveTextContent("$20 per month");
    expect(container).toHaveTextContent("Stripe");
    expect(container).toHaveTextContent("removes your account and cancels your subscription");
    expect(screen.getAllByRole("link", { name: "support@closewise.app" }).length).toBeGreaterThan(0);
  });
});

describe("/support", () => {
  it("gives the support address", async () => {
    renderRoute("/support", SupportRoute);
    expect(await screen.findByRole("heading", { level: 1, name: "Contact and Support" })).toBeInTheDocument();
    expect(screen.getAllByRole("link", { name: "support@closewise.app" })[0]).toHaveAttribute(
      "href",
      "mailto:support@closewise.app",
    );
  });
});

describe("/download", () => {
  it("has the requirements, install steps, first run, how the app signs in and the chooser", async () => {
    const { container } = renderRoute("/download", DownloadRoute);
    expect(await screen.findByRole("heading", { level: 1, name: "Download Closewise for Mac" })).toBeInTheDocument();
    for (const heading of ["System requirements", "Install", "First run", "Signing in from the app"]) {
      expect(screen.getByRole("heading", { level: 2, name: heading })).toBeInTheDocument();
    }
    const signingIn = screen.getByRole("region", { name: "Signing in from the app" });
    expect(signingIn).toHaveTextContent("In your browser");
    expect(signingIn).toHaveTextContent("device code");
    expect(within(signingIn).getByRole("link", { name: "closewise.app/activate" })).toHaveAttribute("href", "/activate");
    expect(within(signingIn).getByRole("link", { name: "create a free account" })).toHaveAttribute(
      "href",
      "/signup?next=%2Fdownload",
    );
    expect(container).toHaveTextContent("Choose Download for Mac and pick Apple Silicon or Intel.");
    expect(screen.getByRole("main")).toContainElement(screen.getAllByRole("button", { name: "Download for Mac" })[0]!);
  });
});

describe("the legal, download and support pages", () => {
  it("are in the sitemap", () => {
    for (const path of ["/privacy", "/terms", "/download", "/support"]) expect(sitemapPaths).toContain(path);
  });

  it("are linked from the footer", async () => {
    renderRoute("/terms", TermsRoute);
    const footer = await screen.findByRole("contentinfo");
    expect(within(footer).getByRole("link", { name: "Privacy Policy" })).toHaveAttribute("href", "/privacy");
    expect(within(footer).getByRole("link", { name: "Terms of Service" })).toHaveAttribute("href", "/terms");
    expect(within(footer).getByRole("link", { name: "Contact and Support" })).toHaveAttribute("href", "/support");
    expect(within(footer).getByRole("link", { name: "Download" })).toHaveAttribute("href", "/download");
  });
});
