import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig } from "vite";
import { marketingSeoFiles } from "./src/features/marketing/build/seoFiles";
import { parseSiteOrigin } from "./src/lib/seo";

const apiTarget = process.env.API_PROXY_TARGET ?? "http://127.0.0.1:8080";
// The API refuses cookie-only session refreshes from other origins; through this proxy the browser's
// origin is the dev server's, so requests are presented with the API's own public origin.
const apiOrigin = process.env.API_PUBLIC_ORIGIN ?? "http://localhost:8080";

const proxy = {
  target: apiTarget,
  changeOrigin: false,
  configure: (server: {
    on(event: "proxyReq", cb: (req: { getHeader(n: string): unknown; setHeader(n: string, v: string): void }) => void): void;
  }) => {
    server.on("proxyReq", (req) => {
      if (req.getHeader("origin")) req.setHeader("origin", apiOrigin);
    });
  },
};

export default defineConfig({
  // APP_BASE_URL (the site's public origin) reaches src/lib/seo.ts as import.meta.env.APP_BASE_URL.
  envPrefix: ["VITE_", "APP_BASE_URL"],
  plugins: [tailwindcss(), reactRouter(), marketingSeoFiles(parseSiteOrigin(process.env.APP_BASE_URL))],
  server: {
    port: 5173,
    proxy: { "/api": proxy, "/.well-known": proxy, "/dev": proxy },
  },
});
