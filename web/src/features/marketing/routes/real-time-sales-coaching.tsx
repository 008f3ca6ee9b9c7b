import { LandingPage } from "../components/LandingPage";
import { realTimeSalesCoaching as page } from "../content/real-time-sales-coaching";
import { landingPageMeta } from "../meta";

export const meta = () => landingPageMeta(page, "/real-time-sales-coaching");

export default function RealTimeSalesCoachingRoute() {
  return <LandingPage page={page} />;
}
