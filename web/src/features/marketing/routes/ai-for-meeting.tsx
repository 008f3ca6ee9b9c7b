import { LandingPage } from "../components/LandingPage";
import { liveAiTranscription as page } from "../content/live-ai-transcription";
import { landingPageMeta } from "../meta";

export const meta = () => landingPageMeta(page, "/ai-for-meeting");

export default function AiForMeetingRoute() {
  return <LandingPage page={page} />;
}
