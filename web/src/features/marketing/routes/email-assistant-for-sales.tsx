import { LandingPage } from "../components/LandingPage";
import { emailAssistantForSales as page } from "../content/email-assistant-for-sales";
import { landingPageMeta } from "../meta";

export const meta = () => landingPageMeta(page, "/email-assistant-for-sales");

export default function EmailAssistantForSalesRoute() {
  return <LandingPage page={page} />;
}
