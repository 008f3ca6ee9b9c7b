import { LandingPage } from "../components/LandingPage";
import { salesConversationAnalysis as page } from "../content/sales-conversation-analysis";
import { landingPageMeta } from "../meta";

export const meta = () => landingPageMeta(page, "/sales-conversation-analysis");

export default function SalesConversationAnalysisRoute() {
  return <LandingPage page={page} />;
}
