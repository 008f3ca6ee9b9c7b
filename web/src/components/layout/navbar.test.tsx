import { act, cleanup, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { http, HttpResponse } from "msw";
import { describe, expect, it, vi } from "vitest";
import * as analytics from "../../lib/analytics";
import { db } from "../../testing/db";
import { renderApp } from "../../testing/render";
import { server } from "../../testing/server";

function scrollTo(y: number) {
  act(() => {
    Object.defineProperty(window, "scrollY", { value: y, configurable: true });
    fireEvent.scroll(window);
  });
}

describe("Navigation bar", () => {
  it("links to Pricing whether signed in or not", async () => {
    renderApp("/signin");
    let nav = screen.getByRole("navigation", { name: "Main" });
    expect(await within(nav).findByRole("link", { name: "Pricing" })).toHaveAttribute("href", "/pricing");
    cleanup();
    db.createUser({ email: "ana@example.com" });
    renderApp("/settings", { signedInAs: "ana@example.com" });
    nav = screen.getByRole("navigation", { name: "Main" });
    await within(nav).findByRole("link", { name: "Dashboard" });
    expect(within(nav).getByRole("link", { name: "Pricing" })).toHaveAttribute("href", "/pricing");
  });

  it("shows Sign In and Get Started when signed out", async () => {
    renderApp("/pricing");
    const nav = screen.getByRole("navigation", { name: "Main" });
    expect(await within(nav).findByRole("link", { name: "Sign In" })).toHaveAttribute("href", "/signin");
    expect(within(nav).getByRole("link", { name: "Get Started" })).toHaveAttribute("href", "/signup");
    expect(within(nav).queryByRole("link", { name: "Dashboard" })).not.toBeInTheDocument();
  });

  it("turns white with a shadow after 10 px of scrolling", async () => {
    renderApp("/pricing");
    const header = screen.getByRole("banner");
    expect(header).toHaveClass("bg-transparent");
    scrollTo(10);
    expect(header).toHaveClass("bg-transparent");
    scrollTo(11);
    expect(header).toHaveClass("bg-white", "shadow-md");
    scrollTo(0);
    expect(header).not.toHaveClass("shadow-md");
  });

  it("shows Dashboard and a user menu (e-mail, Signed in, Settings, Sign Out) when signed in; Escape closes it", async () => {
    db.createUser({ email: "ana@example.com" });
    const { user } = renderApp("/pricing", { signedInAs: "ana@example.com" });
    const nav = screen.getByRole("navigation", { name: "Main" });
    expect(await within(nav).findByRole("link", { name: "Dashboard" })).toHaveAttribute("href", "/dashboard");
    const toggle = within(nav).getByRole("button", { name: /^User menu/ });
    await user.click(toggle);
    const menu = screen.getByRole("menu", { name: /^User menu/ });
    expect(within(menu).getByText("ana@example.com")).toBeInTheDocument();
    expect(within(menu).getByText("Signed in")).toBeInTheDocument();
    expect(within(menu).getByRole("menuitem", { name: "Settings" })).toHaveAttribute("href", "/settings");
    expect(within(menu).getByRole("menuitem", { name: "Settings" })).toHaveFocus();
    await user.keyboard("{Escape}");
    expect(screen.queryByRole("menu")).not.toBeInTheDocument();
    expect(toggle).toHaveFocus();
  });

  it("signs out from the user menu", async () => {
    db.createUser({ email: "ana@example.com" });
    const { user, router } = renderApp("/dashboard", { signedInAs: "ana@example.com" });
    await user.click(await screen.findByRole("button", { name: /^User menu/ }));
    await user.click(screen.getByRole("menuitem", { name: "Sign Out" }));
    expect(await screen.findByText("Signed out successfully")).toBeInTheDocument();
    await waitFor(() => expect(router.state.location.pathname).toBe("/"));
    expect(db.sessions.every((s) => s.revoked)).toBe(true);
  });

  it("carries 'Signed out successfully' to the next page when signing out loads a page (a public page's menu)", async () => {
    db.createUser({ email: "ana@example.com" });
    const { user } = renderApp("/pricing", { signedInAs: "ana@example.com" });
    await user.click(await screen.findByRole("button", { name: /^User menu/ }));
    await user.click(screen.getByRole("menuitem", { name: "Sign Out" }));
    expect(await screen.findByText("Signed out successfully")).toBeInTheDocument();
    window.dispatchEvent(new Event("pagehide"));
    expect(sessionStorage.getItem("closewise.toast")).toBe("Signed out successfully");
    sessionStorage.clear();
  });

  it("says 'Error signing out' when the service fails", async () => {
    db.createUser({ email: "ana@example.com" });
    server.use(http.post("*/api/auth/logout", () => HttpResponse.error()));
    const { user } = renderApp("/pricing", { signedInAs: "ana@example.com" });
    await user.click(await screen.findByRole("button", { name: /^User menu/ }));
    await user.click(screen.getByRole("menuitem", { name: "Sign Out" }));
    expect(await screen.findByText("Error signing out")).toBeInTheDocument();
  });

  it("opens and closes the mobile menu, a disclosure with its own close button", async () => {
    const { user } = renderApp("/pricing");
    const nav = screen.getByRole("navigation", { name: "Main" });
    const toggle = within(nav).getByRole("button", { name: "Open menu" });
    await user.click(toggle);
    const panel = document.getElementById("mobile-menu")!;
    expect(await within(panel).findByRole("link", { name: "Get Started" })).toBeInTheDocument();
    expect(within(nav).getByRole("button", { name: "Close menu" })).toHaveAttribute("aria-expanded", "true");
    // A disclosure, not a dialog: focus stays on the toggle and Tab goes on into the panel.
    expect(toggle).toHaveFocus();
    await user.tab();
    expect(within(panel).getByRole("link", { name: "Pricing" })).toHaveFocus();
    await user.click(within(panel).getByRole("button", { name: "Close menu" }));
    expect(document.getElementById("mobile-menu")).toBeNull();
    expect(within(nav).getByRole("button", { name: "Open menu" })).toHaveFocus();
    await user.click(within(nav).getByRole("button", { name: "Open menu" }));
    await user.keyboard("{Escape}");
    expect(document.getElementById("mobile-menu")).toBeNull();
    expect(within(nav).getByRole("button", { name: "Open menu" })).toHaveFocus();
  });

  it("shows no account links in the mobile menu while the session is loading", async () => {
    db.createUser({ email: "ana@example.com" });
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    server.use(http.post("*/api/auth/token", async () => void (await gate)));
    const { user } = renderApp("/pricing", { signedInAs: "ana@example.com" });
    await user.click(screen.getByRole("button", { name: "Open menu" }));
    const panel = document.getElementById("mobile-menu")!;
    expect(within(panel).getByRole("link", { name: "Pricing" })).toBeInTheDocument();
    for (const name of ["Sign In", "Get Started", "Dashboard", "Settings"])
      expect(within(panel).queryByRole("link", { name })).not.toBeInTheDocument();
    release();
    expect(await within(panel).findByRole("link", { name: "Dashboard" })).toBeInTheDocument();
    expect(within(panel).queryByRole("link", { name: "Sign In" })).not.toBeInTheDocument();
  });

  it("moves through the user menu with the arrow keys, Home and End", async () => {
    db.createUser({ email: "ana@example.com" });
    const { user } = renderApp("/pricing", { signedInAs: "ana@example.com" });
    await user.click(await screen.findByRole("button", { name: /^User menu/ }));
    const menu = screen.getByRole("menu", { name: /^User menu/ });
    const item = (name: string) => within(menu).getByRole("menuitem", { name });
    expect(item("Settings")).toHaveFocus();
    await user.keyboard("{ArrowDown}");
    expect(item("Team")).toHaveFocus();
    await user.keyboard("{ArrowDown}");
    expect(item("Sign Out")).toHaveFocus();
    await user.keyboard("{ArrowDown}");
    expect(item("Settings")).toHaveFocus();
    await user.keyboard("{ArrowUp}");
    expect(item("Sign Out")).toHaveFocus();
    await user.keyboard("{Home}");
    expect(item("Settings")).toHaveFocus();
    await user.keyboard("{End}");
    expect(item("Sign Out")).toHaveFocus();
  });
});

describe("Routing", () => {
  it("shows the not-found page for unknown paths", async () => {
    renderApp("/no-such-page");
    expect(screen.getByRole("heading", { name: "Page not found" })).toBeInTheDocument();
    expect(screen.getAllByRole("link", { name: "Back to Home" })[0]).toHaveAttribute("href", "/");
  });

  it("records a page view on every path change", async () => {
    const pageView = vi.spyOn(analytics, "trackPageView");
    const { user } = renderApp("/pricing");
    await waitFor(() => expect(pageView).toHaveBeenCalledWith("/pricing"));
    const nav = screen.getByRole("navigation", { name: "Main" });
    await user.click(await within(nav).findByRole("link", { name: "Sign In" }));
    await waitFor(() => expect(pageView).toHaveBeenCalledWith("/signin"));
  });
});
