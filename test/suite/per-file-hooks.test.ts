import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";

/**
 * Decision 0083: system-tier workers run many files, so a helper module's own top-level Vitest hook
 * would belong to the first file that imported it. Helpers hand their clean-ups to
 * test/helpers/per-file.ts instead; this finds any that do not.
 */
const TEST_ROOT = join(import.meta.dirname, "..");
const TOP_LEVEL_HOOK = /^(afterAll|afterEach|beforeAll|beforeEach)\(/m;
/** The setup file runs for every file: its hooks are the ones that run the helpers' clean-ups. */
const ALLOWED = new Set(["setup-env.ts"]);

function helperFiles(dir: string): string[] {
  const out: string[] = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, e.name);
    if (e.isDirectory()) out.push(...helperFiles(path));
    else if (e.name.endsWith(".ts") && !e.name.endsWith(".test.ts")) out.push(path);
  }
  return out;
}

function topLevelHooks(files: Record<string, string>): string[] {
  return Object.entries(files)
    .filter(([name, text]) => !ALLOWED.has(name) && TOP_LEVEL_HOOK.test(text))
    .map(([name]) => name);
}

describe("helper modules register no Vitest hooks of their own", () => {
  it("finds a planted top-level hook, and none outside the setup file", () => {
    expect(
      topLevelHooks({ "helpers/x.ts": 'import { afterAll } from "vitest";\nafterAll(() => {});\n' }),
    ).toEqual(["helpers/x.ts"]);
    expect(topLevelHooks({ "helpers/y.ts": "function f() {\n  afterAll(() => {});\n}\n" })).toEqual([]);
    expect(topLevelHooks({ "setup-env.ts": "afterAll(() => {});\n" })).toEqual([]);
    const files = Object.fromEntries(
      helperFiles(TEST_ROOT).map((f) => [relative(TEST_ROOT, f), readFileSync(f, "utf8")]),
    );
    expect(Object.keys(files).length).toBeGreaterThan(20);
    expect(topLevelHooks(files)).toEqual([]);
  });
});
