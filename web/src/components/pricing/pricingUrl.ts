//! The pricing cards as the address asks, on the prerendered HTML before any island: `?interval=year`
//! (or a checkout intent for the yearly price) checks Yearly and shows its price, and `?promo=CODE`
//! travels in the sign-up link's intent. PricingSection puts it in the page as a small inline script
//! right after the cards, so the first paint is already right; the signed-out island calls it again when
//! a switch option is clicked. The live component (PricingSectionContent) renders the same result itself.
//!
//! The markup it reads is the cards' own: the switch's options (`a[data-interval]`, each with its price
//! as `data-price-id`, `data-amount` and `data-suffix`), the price line (`[data-pricing=amount]`,
//! `[data-pricing=suffix]`) and the sign-up link (`a[data-pricing=signup]`).

/**
 * Makes the cards under `root` say what `search` asks. Self-contained (no imports, no outer names):
 * its source is the inline script.
 */
export function applyPricingUrl(root: ParentNode, search: string): void {
  const params = new URLSearchParams(search);
  const options = Array.from(root.querySelectorAll<HTMLAnchorElement>("a[data-interval]"));
  if (options.length === 0) return;
  const asked = params.get("interval");
  const intent = params.get("checkout");
  const chosen =
    options.find((option) => option.dataset.interval === asked) ??
    options.find((option) => option.dataset.priceId === intent) ??
    options[0]!;
  for (const option of options) {
    option.setAttribute("aria-checked", String(option === chosen));
    const query = new URLSearchParams(search);
    query.set("interval", option.dataset.interval ?? "");
    option.setAttribute("href", `?${query.toString()}${option.hash}`);
  }
  const amount = root.querySelector("[data-pricing=amount]");
  const suffix = root.querySelector("[data-pricing=suffix]");
  if (amount) amount.textContent = chosen.dataset.amount ?? "";
  if (suffix) suffix.textContent = chosen.dataset.suffix ?? "";
  const signUp = root.querySelector("a[data-pricing=signup]");
  const promo = (params.get("promo") ?? "").trim();
  const next =
    `/pricing?checkout=${encodeURIComponent(chosen.dataset.priceId ?? "")}` +
    (promo ? `&promo=${encodeURIComponent(promo)}` : "");
  if (signUp) signUp.setAttribute("href", `/signup?next=${encodeURIComponent(next)}`);
}

/** The inline script's text: `applyPricingUrl` over the island it sits in, with the page's address. */
export const PRICING_URL_SCRIPT = `(${applyPricingUrl.toString()})(document.currentScript.parentElement,location.search)`;
