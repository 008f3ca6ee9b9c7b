import { afterEach, describe, expect, it } from "vitest";
import { pageEnv, parseConfig } from "./index";

function meta(name: string, content: string) {
  const tag = document.createElement("meta");
  tag.name = name;
  tag.content = content;
  document.head.append(tag);
}

afterEach(() => document.head.querySelectorAll('meta[name^="closewise:"]').forEach((tag) => tag.remove()));

describe("pageEnv: the analytics settings the build wrote into the page", () => {
  it("is empty on a page without them, so the build's own variables stand", () => {
    expect(pageEnv(document)).toEqual({});
    expect(parseConfig({ VITE_POSTHOG_KEY: "phc_built", ...pageEnv(document) }).analyticsKey).toBe("phc_built");
  });

  it("gives the key and host from the page's meta tags, which win over the bundle's", () => {
    meta("closewise:posthog-key", "phc_page");
    meta("closewise:posthog-host", "https://analytics.example/");
    const env = { VITE_POSTHOG_KEY: undefined, ...pageEnv(document) };
    expect(parseConfig(env)).toMatchObject({ analyticsKey: "phc_page", analyticsHost: "https://analytics.example" });
  });

  it("without a document (prerendering on the server) reads nothing", () => {
    expect(pageEnv(undefined)).toEqual({});
  });
});
