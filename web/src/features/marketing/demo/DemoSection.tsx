import { lazy, Suspense, useEffect, useRef, useState } from "react";
import { Island } from "../../../components/ui/Island";
import { DemoView } from "./DemoView";
import { demoScript } from "./script";
import { LAST_STEP } from "./timing";

const DemoPlayer = lazy(() => import("./DemoPlayer"));

/**
 * The demo block. The prerendered HTML and the first client render show a still of the first exchange;
 * the animated player's code is fetched only once the block comes near the viewport.
 */
export function DemoSection() {
  return (
    <Island name="demo">
      <DemoSectionContent />
    </Island>
  );
}

export function DemoSectionContent() {
  const root = useRef<HTMLDivElement>(null);
  const [load, setLoad] = useState(false);

  useEffect(() => {
    const element = root.current;
    if (!element || typeof IntersectionObserver === "undefined") {
      setLoad(true);
      return;
    }
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) {
          setLoad(true);
          observer.disconnect();
        }
      },
      { rootMargin: "200px" },
    );
    observer.observe(element);
    return () => observer.disconnect();
  }, []);

  const still = <DemoView script={demoScript} index={0} step={LAST_STEP} />;
  return (
    <div ref={root} aria-label="Product demo" role="region">
      {load ? <Suspense fallback={still}>{<DemoPlayer />}</Suspense> : still}
    </div>
  );
}
