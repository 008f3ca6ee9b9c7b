import "@testing-library/jest-dom/vitest";
import { cleanup, configure } from "@testing-library/react";
import toast from "react-hot-toast";
import { afterAll, afterEach, beforeAll, vi } from "vitest";
import { db } from "./db";
import { ssoSwitch } from "./handlers/sso";
import { exchanges } from "./handlers";
import { checkExchange, contractCheck } from "./openapi";
import { server } from "./server";

// The machine running the suite is shared and slow at times: wait for what the user would see longer.
configure({ asyncUtilTimeout: 5000 });

// Files that use no DOM run in Node (`// @vitest-environment node` on their first line, cheaper than
// jsdom); the DOM's stand-ins and resets below apply only where there is a DOM.
const dom = typeof window !== "undefined";

// jsdom has no matchMedia, scrollIntoView or scrollTo.
if (dom) {
  Object.defineProperty(window, "matchMedia", {
    writable: true,
    configurable: true,
    value: (query: string) => ({
      matches: false,
      media: query,
      onchange: null,
      addListener: () => {},
      removeListener: () => {},
      addEventListener: () => {},
      removeEventListener: () => {},
      dispatchEvent: () => false,
    }),
  });
  Element.prototype.scrollIntoView = vi.fn();
  window.scrollTo = vi.fn();
}

// Every request an MSW handler receives and every answer it gives must be docs/openapi.json's.
exchanges.check = checkExchange;

beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
afterEach(() => {
  cleanup();
  toast.remove();
  server.resetHandlers();
  db.reset();
  ssoSwitch.pending = null;
  if (dom) {
    window.localStorage.clear();
    window.sessionStorage.clear();
    document.cookie.split(";").forEach((c) => {
      document.cookie = `${c.split("=")[0]!.trim()}=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/`;
    });
  }
  // Last, once everything is reset: a throwing hook stops the ones after it.
  const problems = contractCheck.problems.splice(0);
  if (problems.length > 0) throw new Error(`The MSW handlers left docs/openapi.json:\n${problems.join("\n")}`);
});
afterAll(() => server.close());
