//! The animated demo. Loaded lazily by DemoSection so it never weighs on a landing page's first load.

import { Pause, Play } from "lucide-react";
import { useRef, useState } from "react";
import { track } from "../../../lib/analytics";
import { DemoView } from "./DemoView";
import { useDemoCycle, useOnScreen, usePageVisible, usePrefersReducedMotion } from "./hooks";
import { demoScript } from "./script";
import { LAST_STEP } from "./timing";

export default function DemoPlayer() {
  const root = useRef<HTMLDivElement>(null);
  const reducedMotion = usePrefersReducedMotion();
  const pageVisible = usePageVisible();
  const onScreen = useOnScreen(root);
  const [userPaused, setUserPaused] = useState(false);
  const running = !reducedMotion && !userPaused && pageVisible && onScreen;
  const [position, setPosition] = useDemoCycle(demoScript.length, running);

  const select = (index: number) => {
    // A chosen question is shown in full and held, so it can be read at the reader's pace.
    setPosition({ index, step: LAST_STEP });
    setUserPaused(true);
    track("demo_interaction", { action: "select_question", question: index + 1 });
  };

  const toggle = () => {
    const next = !userPaused;
    setUserPaused(next);
    track("demo_interaction", { action: next ? "pause" : "play", question: position.index + 1 });
  };

  const controls = reducedMotion ? null : (
    <button
      type="button"
      onClick={toggle}
      aria-label={userPaused ? "Play demo" : "Pause demo"}
      className="rounded-full bg-slate-100 p-2 text-slate-700 hover:bg-slate-200"
    >
      {userPaused ? <Play aria-hidden="true" className="size-4" /> : <Pause aria-hidden="true" className="size-4" />}
    </button>
  );

  return (
    <div ref={root} data-testid="demo-player" data-running={running}>
      <DemoView
        script={demoScript}
        index={position.index}
        step={reducedMotion ? LAST_STEP : position.step}
        onSelect={select}
        controls={controls}
      />
    </div>
  );
}
