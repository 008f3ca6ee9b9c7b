// @vitest-environment node
import { describe, expect, it } from "vitest";
import { safeRedirect } from "./redirect";

// Browsers drop tabs and newlines from URLs and read "\" as "/": "/\t/evil.example" is "//evil.example".
const refused: [string, string][] = [
  ["protocol-relative", "//evil.example"],
  ["protocol-relative with a path", "//evil.example/dashboard"],
  ["backslash after the slash", "/\\evil.example"],
  ["two backslashes", "\\\\evil.example"],
  ["backslash later on", "/dashboard\\..\\..\\evil"],
  ["tab between the slashes", "/\t/evil.example"],
  ["newline between the slashes", "/\n/evil.example"],
  ["carriage return between the slashes", "/\r/evil.example"],
  ["NUL", "/\u0000/evil.example"],
  ["unit separator", "/dashboard\u001f"],
  ["DEL", "/\u007f/evil.example"],
  ["control character at the end", "/dashboard\n"],
  ["leading space", " /dashboard"],
  ["leading tab", "\t//evil.example"],
  ["javascript: URL", "javascript:alert(1)"],
  ["data: URL", "data:text/html,<script>alert(1)</script>"],
  ["absolute https URL", "https://evil.example"],
  ["absolute http URL", "http://evil.example/dashboard"],
  ["scheme-relative with credentials", "//user@evil.example"],
  ["relative path", "dashboard"],
  ["dot path", "./dashboard"],
  ["empty", ""],
  ["only a slash and a backslash", "/\\"],
  ["three slashes", "///evil.example"],
  ["longer than the API carries", `/${"a".repeat(1024)}`],
];

const accepted: string[] = [
  "/",
  "/dashboard",
  "/pricing?x=1#y",
  "/settings?tab=billing",
  "/success?session_id=cs_test_123",
  "/%09/evil.example", // an encoded tab stays part of the path: same origin
  "/%2F%2Fevil.example",
  "/a/b/../c",
  "/path with spaces",
  "/dashboard?next=//evil.example",
  // The desktop app's ways in: the download page, the device code and the browser sign-in request.
  "/download",
  "/activate?user_code=WDJB-MJHT",
  "/authorize?response_type=code&client_id=closewise-desktop&redirect_uri=http%3A%2F%2F127.0.0.1%3A53682%2Fcallback&code_challenge=E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM&code_challenge_method=S256&state=abc&device_name=Ana%27s+Mac&platform=macos",
  `/${"a".repeat(1023)}`,
];

describe("safeRedirect", () => {
  it.each(refused)("refuses %s", (_name, target) => {
    expect(safeRedirect(target), JSON.stringify(target)).toBe("/dashboard");
  });

  it.each(accepted)("keeps the same-origin path %j", (target) => {
    expect(safeRedirect(target)).toBe(target);
  });

  it("falls back when there is no target, to the default or the given fallback", () => {
    expect(safeRedirect(null)).toBe("/dashboard");
    expect(safeRedirect(undefined)).toBe("/dashboard");
    expect(safeRedirect("//evil.example", "/pricing")).toBe("/pricing");
  });
});
