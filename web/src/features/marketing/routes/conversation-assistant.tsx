import { LandingPage } from "../components/LandingPage";
import { conversationAssistant as page } from "../content/conversation-assistant";
import { landingPageMeta } from "../meta";

export const meta = () => landingPageMeta(page, "/conversation-assistant");

export default function ConversationAssistantRoute() {
  return <LandingPage page={page} />;
}
