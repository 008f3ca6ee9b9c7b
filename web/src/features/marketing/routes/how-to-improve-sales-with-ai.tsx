import { LandingPage } from "../components/LandingPage";
import { howToImproveSalesWithAi as page } from "../content/how-to-improve-sales-with-ai";
import { landingPageMeta } from "../meta";

export const meta = () => landingPageMeta(page, "/how-to-improve-sales-with-ai");

export default function HowToImproveSalesWithAiRoute() {
  return <LandingPage page={page} />;
}
