import { LandingPage } from "../components/LandingPage";
import { crmSalesIntelligence as page } from "../content/crm-sales-intelligence";
import { landingPageMeta } from "../meta";

export const meta = () => landingPageMeta(page, "/crm-sales-intelligence");

export default function CrmSalesIntelligenceRoute() {
  return <LandingPage page={page} />;
}
