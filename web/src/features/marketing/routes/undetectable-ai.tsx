import { LandingPage } from "../components/LandingPage";
import { aiTeleprompter as page } from "../content/ai-teleprompter";
import { landingPageMeta } from "../meta";

export const meta = () => landingPageMeta(page, "/undetectable-ai");

export default function UndetectableAiRoute() {
  return <LandingPage page={page} />;
}
