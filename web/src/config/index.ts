//! Runtime configuration, read once from `import.meta.env` (VITE_* variables) and validated at start,
//! so a bad deployment fails loudly instead of producing broken links.

export interface AppConfig {
  /** Origin of the API; empty means same origin (the API serves the built site). */
  apiBase: string;
  productName: string;
  supportEmail: string;
  analyticsKey: string | null;
  analyticsHost: string;
  mockApi: boolean;
}

export type RawEnv = Record<string, string | boolean | undefined>;

export class ConfigError extends Error {
  override name = "ConfigError";
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

function str(env: RawEnv, key: string): string | undefined {
  const value = env[key];
  if (typeof value !== "string") return undefined;
  const trimmed = value.trim();
  return trimmed === "" ? undefined : trimmed;
}

function httpUrl(key: string, value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ConfigError(`${key} must be an absolute http(s) URL, got "${value}"`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new ConfigError(`${key} must be an absolute http(s) URL, got "${value}"`);
  }
  return value.replace(/\/+$/, "");
}

export function parseConfig(env: RawEnv): AppConfig {
  const apiBaseRaw = str(env, "VITE_API_BASE");
  const apiBase = apiBaseRaw ? httpUrl("VITE_API_BASE", apiBaseRaw) : "";

  const supportEmail = str(env, "VITE_SUPPORT_EMAIL") ?? "support@closewise.app";
  if (!EMAIL.test(supportEmail)) {
    throw new ConfigError(`VITE_SUPPORT_EMAIL must be an e-mail address, got "${supportEmail}"`);
  }

  return {
    apiBase,
    productName: str(env, "VITE_PRODUCT_NAME") ?? "Closewise",
    supportEmail,
    analyticsKey: str(env, "VITE_POSTHOG_KEY") ?? null,
    analyticsHost: httpUrl("VITE_POSTHOG_HOST", str(env, "VITE_POSTHOG_HOST") ?? "https://us.i.posthog.com"),
    mockApi: str(env, "VITE_MOCK_API") === "true",
  };
}

const PAGE_SETTINGS = { "closewise:posthog-key": "VITE_POSTHOG_KEY", "closewise:posthog-host": "VITE_POSTHOG_HOST" } as const;

/**
 * The analytics settings the build wrote into the page's <head> (scripts/analyticsConfig.mjs): one
 * bundle serves a site with or without analytics. Empty where there is no document or no such tag.
 */
export function pageEnv(doc: Pick<Document, "querySelector"> | undefined): RawEnv {
  const env: RawEnv = {};
  if (!doc) return env;
  for (const [name, key] of Object.entries(PAGE_SETTINGS)) {
    const content = doc.querySelector<HTMLMetaElement>(`meta[name="${name}"]`)?.content;
    if (content !== undefined) env[key] = content;
  }
  return env;
}

export const config: AppConfig = parseConfig({
  ...import.meta.env,
  ...pageEnv(typeof document === "undefined" ? undefined : document),
});
