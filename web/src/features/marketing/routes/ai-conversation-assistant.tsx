import { LandingPage } from "../components/LandingPage";
import { conversationAssistant as page } from "../content/conversation-assistant";
import { landingPageMeta } from "../meta";

export const meta = () => landingPageMeta(page, "/ai-conversation-assistant");

export default function AiConversationAssistantRoute() {
  return <LandingPage page={page} />;
}
