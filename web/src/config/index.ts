//! Runtime configuration, read once from `import.meta.env` (VITE_* variables) and validated at start,
//! so a bad deployment fails loudly instead of producing broken links.

export interface AppConfig {
  /** Origin of the API; empty means same origin (the API serves the built site). */
  apiBase: string;
  productName: string;
  supportEmail: string;
  /** Where the release's disk images live; null when the build was not given one (the chooser then says so). */
  downloadBaseUrl: string | null;
  appVersion: string;
  analyticsKey: string | null;
  analyticsHost: string;
  mockApi: boolean;
}

export type RawEnv = Record<string, string | boolean | undefined>;

export class ConfigError extends Error {
  override name = "ConfigError";
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const VERSION = /^v\d+\.\d+\.\d+$/;

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

  const appVersion = str(env, "VITE_APP_VERSION") ?? "v1.0.0";
  if (!VERSION.test(appVersion)) {
    throw new ConfigError(`VITE_APP_VERSION must look like v1.2.3, got "${appVersion}"`);
  }

  const downloadBase = str(env, "VITE_DOWNLOAD_BASE_URL");

  return {
    apiBase,
    productName: str(env, "VITE_PRODUCT_NAME") ?? "Closewise",
    supportEmail,
    downloadBaseUrl: downloadBase ? httpUrl("VITE_DOWNLOAD_BASE_URL", downloadBase) : null,
    appVersion,
    analyticsKey: str(env, "VITE_POSTHOG_KEY") ?? null,
    analyticsHost: httpUrl("VITE_POSTHOG_HOST", str(env, "VITE_POSTHOG_HOST") ?? "https://us.i.posthog.com"),
    mockApi: str(env, "VITE_MOCK_API") === "true",
  };
}

export type MacArch = "arm64" | "x64";

/** The release's disk image, e.g. `${base}/v1.0.0/Closewise-1.0.0-arm64.dmg`; null without a download base. */
export function downloadUrl(cfg: AppConfig, arch: MacArch): string | null {
  if (!cfg.downloadBaseUrl) return null;
  const bare = cfg.appVersion.replace(/^v/, "");
  return `${cfg.downloadBaseUrl}/${cfg.appVersion}/${cfg.productName}-${bare}-${arch}.dmg`;
}

/** Both disk images, or null when this build has no download addresses. */
export function macDownloads(cfg: AppConfig): Record<MacArch, string> | null {
  const arm64 = downloadUrl(cfg, "arm64");
  const x64 = downloadUrl(cfg, "x64");
  return arm64 && x64 ? { arm64, x64 } : null;
}

export const config: AppConfig = parseConfig(import.meta.env);
