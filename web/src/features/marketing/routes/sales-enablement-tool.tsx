import { LandingPage } from "../components/LandingPage";
import { salesEnablementTool as page } from "../content/sales-enablement-tool";
import { landingPageMeta } from "../meta";

export const meta = () => landingPageMeta(page, "/sales-enablement-tool");

export default function SalesEnablementToolRoute() {
  return <LandingPage page={page} />;
}
