import { LandingPage } from "../components/LandingPage";
import { aiForOutboundSales as page } from "../content/ai-for-outbound-sales";
import { landingPageMeta } from "../meta";

export const meta = () => landingPageMeta(page, "/ai-for-outbound-sales");

export default function AiForOutboundSalesRoute() {
  return <LandingPage page={page} />;
}
