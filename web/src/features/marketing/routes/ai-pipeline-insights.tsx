import { LandingPage } from "../components/LandingPage";
import { aiPipelineInsights as page } from "../content/ai-pipeline-insights";
import { landingPageMeta } from "../meta";

export const meta = () => landingPageMeta(page, "/ai-pipeline-insights");

export default function AiPipelineInsightsRoute() {
  return <LandingPage page={page} />;
}
