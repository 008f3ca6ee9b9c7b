import { AppLayout } from "../components/layout/AppLayout";
import { PricingSection } from "../components/pricing/PricingSection";
import { DEFAULT_PRODUCT as paid, formatPrice, freeTrial } from "../lib/billing/rules";
import { seoMeta } from "../lib/seo";

const trial = freeTrial(undefined);

/** Written from the catalogue's snapshot, as the prerendered cards are. */
export const meta = () =>
  seoMeta({
    title: "Pricing | Closewise",
    description:
      `Closewise pricing: the ${trial.name} (${trial.features[0]}), or ${paid.name} for ` +
      `${formatPrice(paid.price, paid.currency)}/${paid.interval}: ${paid.features.join(", ")}.`,
    canonicalPath: "/pricing",
  });

export default function PricingRoute() {
  return (
    <AppLayout>
      <PricingSection headingLevel={1} className="pt-12" />
    </AppLayout>
  );
}
