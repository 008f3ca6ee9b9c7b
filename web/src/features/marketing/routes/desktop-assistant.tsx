import { LandingPage } from "../components/LandingPage";
import { desktopAssistant as page } from "../content/desktop-assistant";
import { landingPageMeta } from "../meta";

export const meta = () => landingPageMeta(page, "/desktop-assistant");

export default function DesktopAssistantRoute() {
  return <LandingPage page={page} />;
}
