import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";

const ROOT = join(import.meta.dirname, "..", "..");
const outs: string[] = [];
afterAll(() => {
  for (const dir of outs) rmSync(dir, { recursive: true, force: true });
});

/** Builds into a temporary directory and returns the text of every CommonJS bundle. */
function buildInto(seams: boolean): string {
  const out = mkdtempSync(join(tmpdir(), "tandem-build-"));
  outs.push(out);
  const env = { ...process.env, TANDEM_BUILD_OUT: out, TANDEM_TEST_SEAMS: seams ? "1" : "" };
  execFileSync(process.execPath, ["scripts/build.mjs"], { cwd: ROOT, env, stdio: "pipe" });
  return readdirSync(out)
    .filter((f) => f.endsWith(".cjs"))
    .map((f) => readFileSync(join(out, f), "utf8"))
    .join("\n");
}

/** What the seams compile to: the crash check, the injected fault's text, the test clock's read. */
const SEAM_MARKS = [/TANDEM_TEST_CRASH_AT (===|!==)/, /injected fault/, /\.TANDEM_TEST_NOW\b/];

describe("test seams stay out of release bundles (issue 39)", () => {
  it("a release build carries no crash point or injected fault", () => {
    const release = buildInto(false);
    expect(release).toContain("tandem");
    for (const mark of SEAM_MARKS) expect(release).not.toMatch(mark);
  });

  it("the suite's build carries them (the check above would see them)", () => {
    const seamed = buildInto(true);
    for (const mark of SEAM_MARKS) expect(seamed).toMatch(mark);
  });
});
