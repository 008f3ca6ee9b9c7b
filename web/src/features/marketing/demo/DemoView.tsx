import { Mail, Sparkles, User } from "lucide-react";
import type { ReactNode } from "react";
import type { DemoExchange } from "./script";
import type { DemoStep } from "./timing";

interface DemoViewProps {
  script: DemoExchange[];
  index: number;
  step: DemoStep;
  onSelect?: (index: number) => void;
  controls?: ReactNode;
}

/**
 * Presentational demo, shared by the prerendered still and the animated player. All exchanges sit in
 * one grid cell and the panels are always laid out (only their opacity changes), so the box is as
 * tall as its longest exchange from the first paint and never shifts the page.
 */
export function DemoView({ script, index, step, onSelect, controls }: DemoViewProps) {
  return (
    <div className="rounded-3xl border border-slate-200 bg-white p-4 shadow-lg sm:p-6">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <p className="flex items-center gap-2 text-sm font-medium text-slate-700">
          <span aria-hidden="true" className="size-2.5 rounded-full bg-red-600" />
          Live call
        </p>
        <div className="flex items-center gap-2">
          <div role="group" aria-label="Customer questions" className="flex gap-1">
            {script.map((_, i) => (
              <button
                key={i}
                type="button"
                aria-pressed={i === index}
                onClick={onSelect ? () => onSelect(i) : undefined}
                className={`rounded-full px-3 py-1 text-sm font-medium ${
                  i === index ? "bg-indigo-700 text-white" : "bg-slate-100 text-slate-700 hover:bg-slate-200"
                }`}
              >
                Question {i + 1}
              </button>
            ))}
          </div>
          {/* The pause button's room, kept empty in the prerendered still so the player takes its place
              without shifting the page (the row would grow, or wrap on a phone). */}
          <span className="flex size-8 shrink-0 items-center justify-center">{controls}</span>
        </div>
      </div>
      <div className="mt-4 grid">
        {script.map((exchange, i) => (
          <ExchangePanel key={i} exchange={exchange} active={i === index} step={i === index ? step : 0} />
        ))}
      </div>
    </div>
  );
}

function ExchangePanel({ exchange, active, step }: { exchange: DemoExchange; active: boolean; step: DemoStep }) {
  const reveal = (visible: boolean) =>
    `transition-opacity duration-500 motion-reduce:transition-none ${visible ? "opacity-100" : "opacity-0"}`;
  return (
    <div
      aria-hidden={!active}
      data-testid={active ? "demo-active" : undefined}
      className={`col-start-1 row-start-1 space-y-3 ${active ? "visible" : "invisible"}`}
    >
      <div className="rounded-2xl bg-slate-100 p-4">
        <p className="flex items-center gap-2 text-xs font-semibold uppercase tracking-wide text-slate-600">
          <User aria-hidden="true" className="size-4" /> {exchange.speaker}
        </p>
        <p className="mt-1 text-slate-900">“{exchange.question}”</p>
      </div>
      <div data-demo-step="hint" className={`rounded-2xl border border-indigo-200 bg-indigo-50 p-4 ${reveal(step >= 1)}`}>
        <p className="flex items-center gap-2 text-xs font-semibold uppercase tracking-wide text-indigo-800">
          <Sparkles aria-hidden="true" className="size-4" /> Live hint
        </p>
        <p className="mt-1 text-slate-900">{exchange.suggestion}</p>
      </div>
      <div data-demo-step="email" className={`rounded-2xl border border-slate-200 p-4 ${reveal(step >= 2)}`}>
        <p className="flex items-center gap-2 text-xs font-semibold uppercase tracking-wide text-slate-600">
          <Mail aria-hidden="true" className="size-4" /> Follow-up draft
        </p>
        <p className="mt-1 font-semibold text-slate-900">Subject: {exchange.email.subject}</p>
        <p className="mt-1 text-sm text-slate-700">{exchange.email.body}</p>
      </div>
    </div>
  );
}
