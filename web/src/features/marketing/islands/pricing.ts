//! The pricing island. Signed out (no session hint: the session would say the same without asking), the
//! prerendered cards are already right and only the paid plan's link reports its click; signed in, the
//! cards come alive with the plan and the checkout (pricingLive.tsx, with React Query).

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
  element.addEventListener("click", (event) => {
    if (!(event.target instanceof Element) || !event.target.closest('a[href^="/signup?next="]')) return;
    track("pricing_interaction", { action: "checkout_click", product: product.id, label: SIGNED_OUT_LABEL });
  });
}
