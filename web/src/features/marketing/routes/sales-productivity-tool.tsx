import { LandingPage } from "../components/LandingPage";
import { salesProductivityTool as page } from "../content/sales-productivity-tool";
import { landingPageMeta } from "../meta";

export const meta = () => landingPageMeta(page, "/sales-productivity-tool");

export default function SalesProductivityToolRoute() {
  return <LandingPage page={page} />;
}
