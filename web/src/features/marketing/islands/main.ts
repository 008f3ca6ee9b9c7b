//! The one script of a prerendered public page (built by vite.islands.config.ts; the build puts it in
//! place of React Router's scripts, see build/islands.mjs). It starts the page view, analytics and the
//! consent banner, and renders each island marked in the HTML (components/ui/Island.tsx) when it is
//! needed: the navigation at once (its scroll state, menu and account links), the others when they come
//! near the viewport. Each island's code is its own chunk; Preact stands in for React DOM.

type Mount = (element: Element, props: Record<string, unknown>) => void;

const islands: Record<string, { when: "start" | "visible"; load: () => Promise<{ mount: Mount }> }> = {
  nav: { when: "start", load: () => import("./nav") },
  download: { when: "visible", load: () => import("./download") },
  demo: { when: "visible", load: () => import("./demo") },
  pricing: { when: "visible", load: () => import("./pricing") },
};

/** The island's box has `display: contents`, so it is observed through its first element. */
function whenVisible(element: Element, run: () => void) {
  const target = element.firstElementChild ?? element;
  if (typeof IntersectionObserver === "undefined") return run();
  const observer = new IntersectionObserver(
    (entries) => {
      if (entries.some((entry) => entry.isIntersecting)) {
        observer.disconnect();
        run();
      }
    },
    { rootMargin: "200px" },
  );
  observer.observe(target);
}

export function startIslands(root: ParentNode = document): void {
  void import("./shell").then((shell) => shell.start());
  for (const element of root.querySelectorAll<HTMLElement>("[data-island]")) {
    const island = islands[element.dataset.island ?? ""];
    if (!island) continue;
    const props = JSON.parse(element.dataset.props ?? "{}") as Record<string, unknown>;
    const run = () => {
      void island.load().then(({ mount }) => mount(element, props));
    };
    if (island.when === "start") run();
    else whenVisible(element, run);
  }
}

startIslands();
