import { LandingPage } from "../components/LandingPage";
import { liveAiTranscription as page } from "../content/live-ai-transcription";
import { landingPageMeta } from "../meta";

export const meta = () => landingPageMeta(page, "/power-your-meetings");

export default function PowerYourMeetingsRoute() {
  return <LandingPage page={page} />;
}
