import { LandingPage } from "../components/LandingPage";
import { desktopAssistant as page } from "../content/desktop-assistant";
import { landingPageMeta } from "../meta";

export const meta = () => landingPageMeta(page, "/ai-desktop-assistant");

export default function AiDesktopAssistantRoute() {
  return <LandingPage page={page} />;
}
