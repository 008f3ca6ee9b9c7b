import { useEffect, useState, useSyncExternalStore, type RefObject } from "react";
import { delayAfter, LAST_STEP, type DemoStep } from "./timing";

export interface DemoPosition {
  index: number;
  step: DemoStep;
}

/**
 * Advances through `count` exchanges while `running`. Starts on the first exchange fully shown, as the
 * prerendered still does, so nothing flickers when the player takes over.
 */
export function useDemoCycle(count: number, running: boolean) {
  const [position, setPosition] = useState<DemoPosition>({ index: 0, step: LAST_STEP });

  useEffect(() => {
    if (!running) return;
    const timer = window.setTimeout(() => {
      setPosition(({ index, step }) =>
        step < LAST_STEP ? { index, step: (step + 1) as DemoStep } : { index: (index + 1) % count, step: 0 },
      );
    }, delayAfter(position.step));
    return () => window.clearTimeout(timer);
  }, [running, position, count]);

  return [position, setPosition] as const;
}

const REDUCED_MOTION = "(prefers-reduced-motion: reduce)";

function subscribeReducedMotion(onChange: () => void) {
  if (typeof window.matchMedia !== "function") return () => {};
  const query = window.matchMedia(REDUCED_MOTION);
  query.addEventListener("change", onChange);
  return () => query.removeEventListener("change", onChange);
}

/** False on the server and during hydration (the prerendered still), then the visitor's setting. */
export function usePrefersReducedMotion(): boolean {
  return useSyncExternalStore(
    subscribeReducedMotion,
    () => typeof window.matchMedia === "function" && window.matchMedia(REDUCED_MOTION).matches,
    () => false,
  );
}

function subscribeVisibility(onChange: () => void) {
  document.addEventListener("visibilitychange", onChange);
  return () => document.removeEventListener("visibilitychange", onChange);
}

export function usePageVisible(): boolean {
  return useSyncExternalStore(
    subscribeVisibility,
    () => document.visibilityState !== "hidden",
    () => true,
  );
}

/** Whether the element is on screen; assumed visible where IntersectionObserver is missing. */
export function useOnScreen(ref: RefObject<Element | null>): boolean {
  const [onScreen, setOnScreen] = useState(true);
  useEffect(() => {
    const element = ref.current;
    if (!element || typeof IntersectionObserver === "undefined") return;
    const observer = new IntersectionObserver((entries) => {
      const entry = entries[entries.length - 1];
      if (entry) setOnScreen(entry.isIntersecting);
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, [ref]);
  return onScreen;
}
