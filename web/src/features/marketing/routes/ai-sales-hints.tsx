import { LandingPage } from "../components/LandingPage";
import { aiSalesHints as page } from "../content/ai-sales-hints";
import { landingPageMeta } from "../meta";

export const meta = () => landingPageMeta(page, "/ai-sales-hints");

export default function AiSalesHintsRoute() {
  return <LandingPage page={page} />;
}
