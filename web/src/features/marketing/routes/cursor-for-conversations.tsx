import { LandingPage } from "../components/LandingPage";
import { conversationAssistant as page } from "../content/conversation-assistant";
import { landingPageMeta } from "../meta";

export const meta = () => landingPageMeta(page, "/cursor-for-conversations");

export default function CursorForConversationsRoute() {
  return <LandingPage page={page} />;
}
