import { LandingPage } from "../components/LandingPage";
import { aiSalesCopilot as page } from "../content/ai-sales-copilot";
import { landingPageMeta } from "../meta";

export const meta = () => landingPageMeta(page, "/ai-sales-copilot");

export default function AiSalesCopilotRoute() {
  return <LandingPage page={page} />;
}
