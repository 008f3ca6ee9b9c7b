import { LandingPage } from "../components/LandingPage";
import { bestAiForSalesTeams as page } from "../content/best-ai-for-sales-teams";
import { landingPageMeta } from "../meta";

export const meta = () => landingPageMeta(page, "/best-ai-for-sales-teams");

export default function BestAiForSalesTeamsRoute() {
  return <LandingPage page={page} />;
}
