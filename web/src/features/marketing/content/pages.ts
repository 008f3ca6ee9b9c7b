import type { MarketingPage } from "./types";
import { realTimeConversationGuidance } from "./real-time-conversation-guidance";
import { aiTeleprompter } from "./ai-teleprompter";
import { desktopAssistant } from "./desktop-assistant";
import { conversationAssistant } from "./conversation-assistant";
import { liveAiTranscription } from "./live-ai-transcription";
import { aiSalesAssistant } from "./ai-sales-assistant";
import { salesEnablementTool } from "./sales-enablement-tool";
import { realTimeSalesCoaching } from "./real-time-sales-coaching";
import { aiSalesCopilot } from "./ai-sales-copilot";
import { aiForOutboundSales } from "./ai-for-outbound-sales";
import { crmSalesIntelligence } from "./crm-sales-intelligence";
import { salesProductivityTool } from "./sales-productivity-tool";
import { emailAssistantForSales } from "./email-assistant-for-sales";
import { aiPipelineInsights } from "./ai-pipeline-insights";
import { salesConversationAnalysis } from "./sales-conversation-analysis";
import { aiSalesHints } from "./ai-sales-hints";
import { bestAiForSalesTeams } from "./best-ai-for-sales-teams";
import { howToImproveSalesWithAi } from "./how-to-improve-sales-with-ai";
import { realTimeAiSalesGuidance } from "./real-time-ai-sales-guidance";
import { boostSdrPerformance } from "./boost-sdr-performance";

/** The five pages shared by three paths each (one layout, canonical = first path). */
export const sharedLayoutPages: MarketingPage[] = [
  realTimeConversationGuidance,
  aiTeleprompter,
  desktopAssistant,
  conversationAssistant,
  liveAiTranscription,
];

/** The fifteen pages with a single path and their own content. */
export const ownContentPages: MarketingPage[] = [
  aiSalesAssistant,
  salesEnablementTool,
  realTimeSalesCoaching,
  aiSalesCopilot,
  aiForOutboundSales,
  crmSalesIntelligence,
  salesProductivityTool,
  emailAssistantForSales,
  aiPipelineInsights,
  salesConversationAnalysis,
  aiSalesHints,
  bestAiForSalesTeams,
  howToImproveSalesWithAi,
  realTimeAiSalesGuidance,
  boostSdrPerformance,
];

export const marketingPages: MarketingPage[] = [...sharedLayoutPages, ...ownContentPages];
