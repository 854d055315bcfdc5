import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { initRepo, tempDir } from "../helpers/repo.js";

const CLI = join(import.meta.dirname, "..", "..", "dist", "cli.cjs");

/**
 * Loads the full CLI bundle in a fresh Node with `Intl.Segmenter` counted, runs `script` against
 * its exports, and returns how many segmenters were made. string-width makes one when its module
 * is evaluated, with its Unicode property regexes (`\p{RGI_Emoji}`: ~14 ms of ICU work), and the
 * board's text module made another: neither may happen just because a command started.
 */
function segmentersAfter(script: string, cwd: string): number {
  const code = `
    let made = 0;
    const Real = Intl.Segmenter;
    Intl.Segmenter = class extends Real { constructor(...a) { super(...a); made++; } };
    const cli = require(${JSON.stringify(CLI)});
    Promise.resolve((async () => { ${script} })()).then(() => process.stdout.write("made=" + made));
  `;
  const r = spawnSync(process.execPath, ["-e", code], { encoding: "utf8", cwd });
  expect(r.status, r.stderr).toBe(0);
  return Number(/made=(\d+)$/.exec(r.stdout)?.[1] ?? Number.NaN);
}

describe("the full CLI bundle measures text only when it draws some", () => {
  it("loads and runs --help without evaluating string-width or making a segmenter", () => {
    expect(segmentersAfter("await cli.runCli(['--help'])", tempDir())).toBe(0);
  });

  it("evaluates it once a command draws text cells: the board's frame", () => {
    const repo = initRepo(join(tempDir(), "repo"));
    expect(segmentersAfter("await cli.runCli(['watch', '--once'])", repo)).toBeGreaterThan(0);
  });
});
