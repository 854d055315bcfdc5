/**
 * Decision 0033: mvdan-sh is deprecated upstream and kept at the one version the differential
 * tests and the parser bench measured. A range would let an install pick up another build
 * (GopherJS operator numbers and tree shapes may differ) without anyone re-running them.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";

const MEASURED = "0.10.1";

const json = (path: string) => JSON.parse(readFileSync(new URL(path, import.meta.url), "utf8"));

describe("the shell parser dependency", () => {
  it("is pinned to the exact version decision 0033 measured, in package.json and the lockfile", () => {
    const pkg = json("../../package.json") as { dependencies: Record<string, string> };
    const lock = json("../../package-lock.json") as {
      packages: Record<string, { version?: string; dependencies?: Record<string, string> }>;
    };
    expect(pkg.dependencies["mvdan-sh"]).toBe(MEASURED);
    expect(lock.packages[""]?.dependencies?.["mvdan-sh"]).toBe(MEASURED);
    expect(lock.packages["node_modules/mvdan-sh"]?.version).toBe(MEASURED);
  });

  it("is installed at that version, so the tests here ran against it", () => {
    const require = createRequire(import.meta.url);
    const installed = JSON.parse(readFileSync(require.resolve("mvdan-sh/package.json"), "utf8")) as {
      version: string;
    };
    expect(installed.version).toBe(MEASURED);
  });
});
