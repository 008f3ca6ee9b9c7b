import type { ReactNode } from "react";

/** The parts of a prerendered public page that come alive on their own (see features/marketing/islands). */
export type IslandName = "nav" | "download" | "demo" | "pricing";

/**
 * Marks an island in the prerendered HTML: the island script finds it by `data-island` and renders the
 * same component over it with the props in `data-props` (JSON). In the React app it is only a box that
 * takes no space (`display: contents`).
 */
export function Island({ name, props, children }: { name: IslandName; props?: object; children: ReactNode }) {
  return (
    <div data-island={name} data-props={props ? JSON.stringify(props) : undefined} className="contents">
      {children}
    </div>
  );
}
