import { LandingPage } from "../components/LandingPage";
import { desktopAssistant as page } from "../content/desktop-assistant";
import { landingPageMeta } from "../meta";

export const meta = () => landingPageMeta(page, "/desktop-assistant-ai");

export default function DesktopAssistantAiRoute() {
  return <LandingPage page={page} />;
}
