import { LandingPage } from "../components/LandingPage";
import { boostSdrPerformance as page } from "../content/boost-sdr-performance";
import { landingPageMeta } from "../meta";

export const meta = () => landingPageMeta(page, "/boost-sdr-performance");

export default function BoostSdrPerformanceRoute() {
  return <LandingPage page={page} />;
}
