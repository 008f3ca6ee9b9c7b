import { LandingPage } from "../components/LandingPage";
import { realTimeAiSalesGuidance as page } from "../content/real-time-ai-sales-guidance";
import { landingPageMeta } from "../meta";

export const meta = () => landingPageMeta(page, "/real-time-ai-sales-guidance");

export default function RealTimeAiSalesGuidanceRoute() {
  return <LandingPage page={page} />;
}
