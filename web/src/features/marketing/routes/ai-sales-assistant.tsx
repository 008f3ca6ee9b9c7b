import { LandingPage } from "../components/LandingPage";
import { aiSalesAssistant as page } from "../content/ai-sales-assistant";
import { landingPageMeta } from "../meta";

export const meta = () => landingPageMeta(page, "/ai-sales-assistant");

export default function AiSalesAssistantRoute() {
  return <LandingPage page={page} />;
}
