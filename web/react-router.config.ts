import type { Config } from "@react-router/dev/config";
import { marketingPaths } from "./src/features/marketing/routes";

/** Paths rendered to static HTML at build time; everything else is served the app shell. */
export const accountPrerenderPaths = ["/pricing", "/signin", "/signup", "/privacy", "/terms", "/support", "/download"];

export default {
  appDirectory: "src",
  buildDirectory: "build",
  ssr: false,
  prerender: [...new Set([...accountPrerenderPaths, ...marketingPaths])],
} satisfies Config;
