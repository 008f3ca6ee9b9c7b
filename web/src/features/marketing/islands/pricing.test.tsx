import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { screen, within } from "@testing-library/react";
import { renderToString } from "react-dom/server";
import { createMemoryRouter, RouterProvider } from "react-router";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { AuthProvider } from "../../../lib/auth/AuthProvider";
import { AuthManager } from "../../../lib/auth/session";
import * as analytics from "../../../lib/analytics";
import { renderApp } from "../../../testing/render";
import { mount } from "./pricing";
import { useSearchParams } from "./router";
import { PricingSection } from "../../../components/pricing/PricingSection";
import { applyPricingUrl, PRICING_URL_SCRIPT } from "../../../components/pricing/pricingUrl";

/** /pricing's cards as the build prerenders them: server-rendered, with no address parameters. */
function prerendered(): HTMLElement {
  const router = createMemoryRouter([{ path: "/pricing", element: <PricingSection headingLevel={1} /> }], {
    initialEntries: ["/pricing"],
  });
  const html = renderToString(
    <QueryClientProvider client={new QueryClient()}>
      <AuthProvider manager={new AuthManager({ channelName: `prerender-${Math.random()}` })}>
        <RouterProvider router={router} />
      </AuthProvider>
    </QueryClientProvider>,
  );
  const host = document.createElement("div");
  host.innerHTML = html;
  document.body.append(host);
  return host.querySelector<HTMLElement>('[data-island="pricing"]')!;
}

/** What a visitor reads and follows on the paid card. */
function cardState(root: ParentNode) {
  const card = within(root as HTMLElement).getByRole("article", { name: "Unlimited Sales Copilot" });
  return {
    switch: within(card)
      .getAllByRole("radio")
      .map((radio) => [radio.textContent, radio.getAttribute("aria-checked"), radio.getAttribute("href")]),
    price: card.querySelector('[aria-live="polite"]')!.textContent,
    signUp: within(card).getByRole("link", { name: "Sign In Required" }).getAttribute("href"),
  };
}

afterEach(() => {
  document.body.innerHTML = "";
  window.history.replaceState(null, "", "/");
});

describe("the prerendered pricing cards before any island", () => {
  it("carry an inline script that runs on its own (its source is the whole function)", () => {
    const island = prerendered();
    const script = island.querySelector("script[data-island-script=pricing]")!;
    expect(script.textContent).toBe(PRICING_URL_SCRIPT);
    // Run as the browser runs it: in place of the prerendered one, which innerHTML left inert.
    window.history.replaceState(null, "", "/pricing?interval=year&promo=LAUNCH20");
    const running = document.createElement("script");
    running.textContent = script.textContent;
    script.replaceWith(running);
    expect(cardState(island)).toMatchObject({
      price: "$200/year — 2 months free",
      signUp: `/signup?next=${encodeURIComponent("/pricing?checkout=price_closewise_yearly&promo=LAUNCH20")}`,
    });
  });

  it("say Monthly, $20 and the monthly intent for a bare /pricing, switch options being links", () => {
    const island = prerendered();
    applyPricingUrl(island, "");
    expect(cardState(island)).toEqual({
      switch: [
        ["Monthly", "true", "?interval=month#pricing"],
        ["Yearly", "false", "?interval=year#pricing"],
      ],
      price: "$20/month",
      signUp: `/signup?next=${encodeURIComponent("/pricing?checkout=price_closewise_monthly")}`,
    });
  });

  it.each([
    "?interval=year",
    "?promo=LAUNCH20",
    "?interval=year&promo=LAUNCH20&utm_source=partner",
    "?promo=SPRING%2025&interval=month",
    "?checkout=price_closewise_yearly",
    "?interval=weekly",
  ])("say for %s exactly what the live cards render for it", async (search) => {
    const island = prerendered();
    applyPricingUrl(island, search);
    const before = cardState(island);
    document.body.innerHTML = "";

    renderApp(`/pricing${search}`);
    await screen.findByRole("article", { name: "Unlimited Sales Copilot" });
    expect(cardState(document.body)).toEqual(before);
  });
});

describe("the pricing island, signed out", () => {
  beforeEach(() => window.localStorage.removeItem("closewise.session"));

  it("switches the interval in place, without loading the page, and keeps the address's other parameters", () => {
    window.history.replaceState(null, "", "/pricing?promo=LAUNCH20");
    const island = prerendered();
    applyPricingUrl(island, window.location.search); // what the inline script did
    mount(island, {});
    const yearly = within(island).getByRole("radio", { name: "Yearly" });
    const click = new MouseEvent("click", { bubbles: true, cancelable: true, button: 0 });
    yearly.dispatchEvent(click);
    expect(click.defaultPrevented).toBe(true);
    expect(window.location.pathname + window.location.search).toBe("/pricing?promo=LAUNCH20&interval=year");
    expect(cardState(island)).toEqual({
      switch: [
        ["Monthly", "false", "?promo=LAUNCH20&interval=month#pricing"],
        ["Yearly", "true", "?promo=LAUNCH20&interval=year#pricing"],
      ],
      price: "$200/year — 2 months free",
      signUp: `/signup?next=${encodeURIComponent("/pricing?checkout=price_closewise_yearly&promo=LAUNCH20")}`,
    });

    within(island).getByRole("radio", { name: "Monthly" }).click();
    expect(window.location.search).toBe("?promo=LAUNCH20&interval=month");
    expect(cardState(island).price).toBe("$20/month");
  });

  it("leaves a click with a modifier (a new tab) to the link, and reports the sign-up link's click", () => {
    const island = prerendered();
    mount(island, {});
    // Whether the island took the click, seen after it; then no navigation, which jsdom cannot do.
    let taken: boolean | undefined;
    document.addEventListener(
      "click",
      (event) => {
        taken = event.defaultPrevented;
        event.preventDefault();
      },
      { once: true },
    );
    within(island)
      .getByRole("radio", { name: "Yearly" })
      .dispatchEvent(new MouseEvent("click", { bubbles: true, cancelable: true, button: 0, metaKey: true }));
    expect(taken).toBe(false);
    expect(window.location.search).toBe("");

    const track = vi.spyOn(analytics, "track").mockImplementation(() => {});
    const signUp = within(island).getByRole("link", { name: "Sign In Required" });
    signUp.addEventListener("click", (event) => event.preventDefault()); // no navigation in jsdom
    signUp.click();
    expect(track).toHaveBeenCalledWith("pricing_interaction", expect.objectContaining({ action: "checkout_click" }));
  });
});

describe("the islands' react-router", () => {
  it("sets the address's parameters in place: replaced, not pushed, the path and fragment kept", () => {
    window.history.replaceState(null, "", "/pricing?promo=LAUNCH20#pricing");
    const entries = window.history.length;
    const [params, setParams] = useSearchParams();
    expect(params.get("promo")).toBe("LAUNCH20");
    setParams(
      (current) => {
        current.set("interval", "year");
        return current;
      },
      { replace: true },
    );
    expect(window.location.href).toBe("http://localhost:3000/pricing?promo=LAUNCH20&interval=year#pricing");
    expect(window.history.length).toBe(entries);
    expect(useSearchParams()[0].get("interval")).toBe("year");
  });
});
