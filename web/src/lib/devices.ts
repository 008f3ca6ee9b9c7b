//! How the desktop app's requests and sessions are named on the web: platforms and times.

const PLATFORMS: Record<string, string> = { macos: "macOS", darwin: "macOS", windows: "Windows", linux: "Linux" };

/** "macos" → "macOS"; an unknown or missing platform says so rather than showing a raw value. */
export function platformName(platform: string | null | undefined): string {
  if (!platform || platform === "unknown") return "Unknown platform";
  return PLATFORMS[platform.toLowerCase()] ?? platform;
}

const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ["day", 86_400],
  ["hour", 3_600],
  ["minute", 60],
];

/** "just now", "5 minutes ago", "yesterday", "3 days ago". */
export function relativeTime(iso: string, now: number = Date.now()): string {
  const seconds = Math.round((new Date(iso).getTime() - now) / 1000);
  const format = new Intl.RelativeTimeFormat("en", { numeric: "auto" });
  for (const [unit, size] of UNITS) {
    if (Math.abs(seconds) >= size) return format.format(Math.trunc(seconds / size), unit);
  }
  return "just now";
}

/** "Nov 23, 2026, 3:10 PM" in the visitor's time zone. */
export function absoluteTime(iso: string): string {
  return new Intl.DateTimeFormat("en-US", { dateStyle: "medium", timeStyle: "short" }).format(new Date(iso));
}
