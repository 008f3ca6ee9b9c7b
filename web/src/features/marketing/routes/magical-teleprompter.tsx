import { LandingPage } from "../components/LandingPage";
import { aiTeleprompter as page } from "../content/ai-teleprompter";
import { landingPageMeta } from "../meta";

export const meta = () => landingPageMeta(page, "/magical-teleprompter");

export default function MagicalTeleprompterRoute() {
  return <LandingPage page={page} />;
}
