import {
  BookOpen,
  ChartColumn,
  Clock,
  Database,
  Funnel,
  Mail,
  MessageSquare,
  Mic,
  Monitor,
  Phone,
  Shield,
  Sparkles,
  Target,
  TrendingUp,
  Users,
  Zap,
  type LucideIcon,
} from "lucide-react";
import type { IconName } from "../content/types";

const icons: Record<IconName, LucideIcon> = {
  zap: Zap,
  shield: Shield,
  mail: Mail,
  message: MessageSquare,
  mic: Mic,
  chart: ChartColumn,
  target: Target,
  users: Users,
  clock: Clock,
  database: Database,
  sparkles: Sparkles,
  monitor: Monitor,
  trending: TrendingUp,
  book: BookOpen,
  phone: Phone,
  filter: Funnel,
};

export function FeatureIcon({ name }: { name: IconName }) {
  const Icon = icons[name];
  return <Icon aria-hidden="true" className="size-6" />;
}
