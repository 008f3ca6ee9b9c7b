import { LandingPage } from "../components/LandingPage";
import { liveAiTranscription as page } from "../content/live-ai-transcription";
import { landingPageMeta } from "../meta";

export const meta = () => landingPageMeta(page, "/live-ai-transcription");

export default function LiveAiTranscriptionRoute() {
  return <LandingPage page={page} />;
}
