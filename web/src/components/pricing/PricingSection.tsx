import { Check, Sparkles } from "lucide-react";
import { useState, useSyncExternalStore } from "react";
import { Link, useSearchParams } from "react-router";
import { useProducts } from "../../lib/api/queries";
import type { BillingInterval, Catalogue } from "../../lib/api/types";
import { useAuth } from "../../lib/auth/AuthProvider";
import {
  checkoutIntent,
  formatPrice,
  freeTrial,
  initialInterval,
  INTERVAL_NAMES,
  intervalSearch,
  priceSuffix,
  productFor,
  signUpHref,
} from "../../lib/billing/rules";
import { Button, buttonStyles } from "../ui/Button";
import { cn } from "../ui/cn";
import { Island } from "../ui/Island";
import { CheckoutButton } from "./CheckoutButton";
import { PRICING_URL_SCRIPT } from "./pricingUrl";

/**
 * The paid card's Monthly / Yearly switch. Each option is a link to this page with `interval` set (the
 * other parameters kept), so it works before and without the island's script; rendered live, a click
 * changes the card in place. Each option carries its price for the prerendered page's script
 * (pricingUrl.ts).
 */
function IntervalSwitch({
  value,
  onChange,
  catalogue,
  anchor,
}: {
  value: BillingInterval;
  onChange: (value: BillingInterval) => void;
  catalogue: Catalogue | undefined;
  anchor: string;
}) {
  const [params] = useSearchParams();
  return (
    <div
      role="radiogroup"
      aria-label="Billing interval"
      className="mt-4 inline-flex rounded-full bg-slate-100 p-1 noscript:hidden"
    >
      {(["month", "year"] as const).map((interval) => {
        const product = productFor(catalogue, interval);
        return (
          <a
            key={interval}
            role="radio"
            aria-checked={value === interval}
            href={`${intervalSearch(params, interval)}#${anchor}`}
            data-interval={interval}
            data-price-id={product.priceId}
            data-amount={formatPrice(product.price, product.currency)}
            data-suffix={priceSuffix(product)}
            onClick={(event) => {
              // A new tab or window is the link's to open.
              if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
              event.preventDefault();
              onChange(interval);
            }}
            className={cn(
              "rounded-full px-4 py-1.5 text-sm font-medium text-slate-600 hover:text-slate-900",
              "aria-checked:bg-white aria-checked:text-slate-900 aria-checked:shadow-sm",
            )}
          >
            {INTERVAL_NAMES[interval]}
          </a>
        );
      })}
    </div>
  );
}

function Features({ items }: { items: string[] }) {
  return (
    <ul className="mt-6 space-y-3">
      {items.map((item) => (
        <li key={item} className="flex items-start gap-3 text-slate-700">
          <Check aria-hidden className="mt-0.5 h-5 w-5 shrink-0 text-green-600" />
          {item}
        </li>
      ))}
    </ul>
  );
}

export interface PricingSectionProps {
  id?: string;
  title?: string;
  subtitle?: string;
  headingLevel?: 1 | 2;
  className?: string;
  /** Embedded in the dashboard, which shows it to free users: the Free Trial is their current plan. */
  onDashboard?: boolean;
}

const noSubscription = () => () => {};

/**
 * True when rendering HTML (and while React hydrates it), false in a browser's own render: for what
 * belongs to the HTML only, the cards' inline script (pricingUrl.ts; a script React renders in the
 * browser does not run) and their offer for a browser without JavaScript.
 */
function useServerRendered(): boolean {
  return useSyncExternalStore(
    noSubscription,
    () => false,
    () => true,
  );
}

/**
 * The Free Trial and paid cards with the checkout button; used on /pricing, the landing pages and the
 * dashboard. On prerendered public pages an island: the buttons show the signed-in state once on sight.
 */
export function PricingSection(props: PricingSectionProps = {}) {
  const prerendering = useServerRendered();
  return (
    <Island name="pricing" props={props}>
      <PricingSectionContent {...props} />
      {prerendering && <script data-island-script="pricing" dangerouslySetInnerHTML={{ __html: PRICING_URL_SCRIPT }} />}
    </Island>
  );
}

export function PricingSectionContent({
  id = "pricing",
  title = "Simple, Transparent Pricing",
  subtitle = "Start free. Upgrade when live hints start closing deals.",
  headingLevel = 2,
  className,
  onDashboard = false,
}: PricingSectionProps = {}) {
  const auth = useAuth();
  const catalogue = useProducts();
  const [params, setParams] = useSearchParams();
  // `?interval=year`, or a checkout intent for the yearly price kept through sign-up, opens on Yearly.
  const [interval, chooseInterval] = useState<BillingInterval>(() => initialInterval(params, catalogue.data));
  // The address says the choice (to share, reload or come back to); not the dashboard's.
  const choose = (next: BillingInterval) => {
    chooseInterval(next);
    if (onDashboard) return;
    setParams(
      (current) => {
        const query = new URLSearchParams(current);
        query.set("interval", next);
        return query;
      },
      { replace: true, preventScrollReset: true },
    );
  };
  const product = productFor(catalogue.data, interval);
  const yearly = productFor(catalogue.data, "year");
  const prerendering = useServerRendered();
  const trial = freeTrial(catalogue.data);
  const Heading = headingLevel === 1 ? "h1" : "h2";
  const titleId = `${id}-title`;

  return (
    <section id={id} aria-labelledby={titleId} className={cn("scroll-mt-20 px-4 py-16 sm:px-6 lg:px-8", className)}>
      <div className="mx-auto max-w-5xl text-center">
        <Heading id={titleId} className="text-3xl font-bold tracking-tight text-slate-900 sm:text-4xl">
          {title}
        </Heading>
        <p className="mt-3 text-lg text-slate-600">{subtitle}</p>
      </div>
      <div className="mx-auto mt-10 grid max-w-5xl gap-6 md:grid-cols-2">
        <article
          aria-labelledby={`${id}-free`}
          className="flex flex-col rounded-2xl border border-slate-200 bg-white p-8 shadow-sm"
        >
          <h3 id={`${id}-free`} className="text-xl font-semibold text-slate-900">
            {trial.name}
          </h3>
          <p className="mt-4">
            <span className="text-4xl font-bold text-slate-900">$0</span>
          </p>
          <p className="mt-2 text-slate-600">Try live hints on real calls.</p>
          <Features items={trial.features} />
          <div className="mt-auto pt-8">
            {onDashboard ? (
              <Button variant="secondary" className="w-full" disabled>
                Current Plan
              </Button>
            ) : auth.status === "signedIn" ? (
              <Link to="/dashboard" className={buttonStyles("secondary", "w-full")}>
                Go to Dashboard
              </Link>
            ) : (
              <Link to="/signup" className={buttonStyles("secondary", "w-full")}>
                Start Free Trial
              </Link>
            )}
          </div>
        </article>
        <article
          aria-labelledby={`${id}-paid`}
          className="relative flex flex-col rounded-2xl border-2 border-blue-600 bg-white p-8 shadow-md"
        >
          <span className="absolute -top-3 left-8 inline-flex items-center gap-1 rounded-full bg-blue-600 px-3 py-1 text-xs font-semibold text-white">
            <Sparkles aria-hidden className="h-3.5 w-3.5" /> Most popular
          </span>
          <h3 id={`${id}-paid`} className="text-xl font-semibold text-slate-900">
            {product.name}
          </h3>
          <IntervalSwitch value={interval} onChange={choose} catalogue={catalogue.data} anchor={id} />
          <p className="mt-4" aria-live="polite">
            <span data-pricing="amount" className="text-4xl font-bold text-slate-900">
              {formatPrice(product.price, product.currency)}
            </span>
            <span data-pricing="suffix" className="text-slate-600">
              {priceSuffix(product)}
            </span>
          </p>
          <p className="mt-2 text-slate-600">Everything you need to close more deals.</p>
          <Features items={product.features} />
          <div className="mt-auto pt-8">
            <CheckoutButton product={product} className="w-full" />
            {prerendering && yearly.priceId !== product.priceId && (
              // Without JavaScript the switch cannot change the card (the page is the same file for every
              // address): the card offers the yearly price with its own link instead.
              <noscript>
                <p className="mt-3 text-center text-sm text-slate-600">
                  Or yearly: {formatPrice(yearly.price, yearly.currency)}
                  {priceSuffix(yearly)}.{" "}
                  <a
                    href={signUpHref(checkoutIntent(yearly.priceId, null))}
                    className="font-medium text-blue-700 underline hover:text-blue-900"
                  >
                    Sign up for yearly billing
                  </a>
                </p>
              </noscript>
            )}
          </div>
        </article>
      </div>
    </section>
  );
}
