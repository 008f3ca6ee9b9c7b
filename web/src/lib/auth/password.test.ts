// @vitest-environment node
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { checkNewPassword, MIN_PASSWORD_LENGTH, PASSWORD_TOO_SHORT } from "./password";

describe("the password rule", () => {
  it("says the passwords do not match first, then that the password is too short (the spec's order)", () => {
    expect(checkNewPassword("abc", "abd")).toEqual({ confirm: "Passwords do not match" });
    expect(checkNewPassword("abc", "abc")).toEqual({ password: PASSWORD_TOO_SHORT });
    expect(PASSWORD_TOO_SHORT).toBe("Password must be at least 6 characters");
    expect(checkNewPassword("a".repeat(MIN_PASSWORD_LENGTH), "a".repeat(MIN_PASSWORD_LENGTH))).toEqual({});
  });

  it("is stated in one place: no form compares a length or says 'Passwords do not match' itself", () => {
    const src = join(dirname(fileURLToPath(import.meta.url)), "../..");
    const walk = (dir: string): string[] =>
      readdirSync(dir).flatMap((name) => {
        const path = join(dir, name);
        if (statSync(path).isDirectory()) return name === "testing" || name === "gen" ? [] : walk(path);
        return /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) ? [path] : [];
      });
    const offenders = walk(src).filter((file) => {
      if (file.endsWith(join("lib", "auth", "password.ts"))) return false;
      const text = readFileSync(file, "utf8");
      return /length\s*<\s*MIN_PASSWORD_LENGTH/.test(text) || text.includes('"Passwords do not match"');
    });
    expect(offenders).toEqual([]);
  });
});
