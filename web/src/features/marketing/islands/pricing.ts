//! The pricing island. Signed out (no session hint: the session would say the same without asking), the
//! prerendered cards are already right (their inline script read the address, see pricingUrl.ts): the
//! Monthly / Yearly switch changes them in place and rewrites the address instead of loading the page,
//! and the paid plan's link reports its click. Signed in, the cards come alive with the plan and the
//! checkout (pricingLive.tsx, with React Query).

import { applyPricingUrl } from "../../../components/pricing/pricingUrl";
import { track } from "../../../lib/analytics";
import { localStorageHint } from "../../../lib/auth/session";
import { featuredProduct, SIGNED_OUT_LABEL } from "../../../lib/billing/rules";
import type { IslandProps } from "./mount";

export function mount(element: Element, props: IslandProps): void {
  if (localStorageHint.get()) {
    void import("./pricingLive").then((live) => live.mount(element, props));
    return;
  }
  const product = featuredProduct(undefined);
  applyPricingUrl(element, window.location.search);
  element.addEventListener("click", (event) => {
    if (!(event.target instanceof Element)) return;
    const option = event.target.closest<HTMLAnchorElement>("a[data-interval]");
    if (option) {
      // A new tab or window is the link's to open.
      if (
        !(event instanceof MouseEvent) ||
        event.button !== 0 ||
        event.metaKey ||
        event.ctrlKey ||
        event.shiftKey ||
        event.altKey
      )
        return;
      event.preventDefault();
      const query = new URLSearchParams(window.location.search);
      query.set("interval", option.dataset.interval ?? "month");
      const search = `?${query.toString()}`;
      window.history.replaceState(window.history.state, "", `${window.location.pathname}${search}${window.location.hash}`);
      applyPricingUrl(element, search);
      return;
    }
    if (!event.target.closest('a[href^="/signup?next="]')) return;
    track("pricing_interaction", { action: "checkout_click", product: product.id, label: SIGNED_OUT_LABEL });
  });
}
