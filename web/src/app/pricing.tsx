import { AppLayout } from "../components/layout/AppLayout";
import { PricingSection } from "../components/pricing/PricingSection";
import { seoMeta } from "../lib/seo";

export const meta = () =>
  seoMeta({
    title: "Pricing | Closewise",
    description:
      "Closewise pricing: a Free Trial with 5 calls of 5 minutes, or Unlimited Sales Copilot for $20/month with unlimited usage, advanced AI insights, priority support and CRM integrations.",
    canonicalPath: "/pricing",
  });

export default function PricingRoute() {
  return (
    <AppLayout>
      <PricingSection headingLevel={1} className="pt-12" />
    </AppLayout>
  );
}
