import { LandingPage } from "../components/LandingPage";
import { aiTeleprompter as page } from "../content/ai-teleprompter";
import { landingPageMeta } from "../meta";

export const meta = () => landingPageMeta(page, "/ai-teleprompter");

export default function AiTeleprompterRoute() {
  return <LandingPage page={page} />;
}
