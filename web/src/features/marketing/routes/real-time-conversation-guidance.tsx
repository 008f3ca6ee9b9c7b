import { LandingPage } from "../components/LandingPage";
import { realTimeConversationGuidance as page } from "../content/real-time-conversation-guidance";
import { landingPageMeta } from "../meta";

export const meta = () => landingPageMeta(page, "/real-time-conversation-guidance");

export default function RealTimeConversationGuidanceRoute() {
  return <LandingPage page={page} />;
}
