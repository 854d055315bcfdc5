import { appendFileSync, cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
// @ts-expect-error: a plain .mjs script of the repository, checked by its own run here
import { checkRules, importsOf, parseLayers, roomOf } from "../../scripts/rules.mjs";

const ROOT = join(import.meta.dirname, "..", "..");
const SRC = join(ROOT, "src");
const TIERS: string[][] = parseLayers(readFileSync(join(ROOT, "docs", "layers.txt"), "utf8"));

interface Finding {
  rule: string;
  file: string;
  detail: string;
}

const copies: string[] = [];
afterEach(() => {
  for (const dir of copies.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A temporary copy of src/ to plant a breach in. */
function copyOfSrc(): string {
  const dir = mkdtempSync(join(tmpdir(), "tandem-rules-"));
  copies.push(dir);
  cpSync(SRC, join(dir, "src"), { recursive: true });
  return join(dir, "src");
}

function findings(src: string): Finding[] {
  return checkRules(src, TIERS).findings;
}

describe("the house's rules hold for src/ (issue 39)", () => {
  it("has no upward or sideways import, no circle, no file outside a room, a pure core", () => {
    // Fix by moving the import's target down a tier, or the decision into core/ (docs/layers.txt).
    expect(findings(SRC)).toEqual([]);
  });
});

describe("a planted breach fails the check", () => {
  it.each<[string, string, string, Partial<Finding>]>([
    [
      "an upward import",
      "store/db.ts",
      'import "../hooks/handler.js";',
      { rule: "upward", file: "store/db.ts" },
    ],
    ["a sideways import", "hooks/once.ts", 'import "../doctor/finding.js";', { rule: "sideways" }],
    [
      "core reading the disk",
      "core/digest.ts",
      'import { readFileSync } from "node:fs";',
      { rule: "core-purity" },
    ],
    ["core importing the config", "core/digest.ts", 'import "../config/root.js";', { rule: "core-purity" }],
    [
      "core importing a library",
      "core/digest.ts",
      'export { Command } from "commander";',
      { rule: "core-purity" },
    ],
    ["a file in no room", "stray.ts", "export const x = 1;", { rule: "no-room", file: "stray.ts" }],
    [
      "the SQLite driver outside the store",
      "hooks/once.ts",
      'import type Database from "better-sqlite3";',
      { rule: "store-private", file: "hooks/once.ts", detail: expect.stringContaining("better-sqlite3") },
    ],
    [
      "the store's handle unwrapped outside the store",
      "doctor/finding.ts",
      'import { raw } from "../store/handle.js";',
      {
        rule: "store-private",
        file: "doctor/finding.ts",
        detail: expect.stringContaining("store/handle.ts"),
      },
    ],
  ])("%s", (_name, file, line, want) => {
    const src = copyOfSrc();
    appendFileSync(join(src, file), `\n${line}\n`);
    expect(findings(src)).toContainEqual(expect.objectContaining(want));
  });

  it("a circle of two files", () => {
    const src = copyOfSrc();
    writeFileSync(
      join(src, "core", "ping.ts"),
      'import { pong } from "./pong.js";\nexport const ping = () => pong;\n',
    );
    writeFileSync(
      join(src, "core", "pong.ts"),
      'import { ping } from "./ping.js";\nexport const pong = () => ping;\n',
    );
    expect(findings(src)).toContainEqual({
      rule: "circle",
      file: "core/ping.ts",
      detail: "a circle of core/ping.ts → core/pong.ts",
    });
  });

  it("lets core import types from the foundation, which compile away", () => {
    const src = copyOfSrc();
    appendFileSync(
      join(src, "core", "digest.ts"),
      '\nimport type { ClientSpec } from "../clients/types.js";\n',
    );
    expect(findings(src)).toEqual([]);
  });
});

describe("reading imports", () => {
  it.each<[string, { spec: string; runtime: boolean }[]]>([
    ['import { a } from "./a.js";', [{ spec: "./a.js", runtime: true }]],
    ['import type { A } from "./a.js";', [{ spec: "./a.js", runtime: false }]],
    ['export type { A } from "./a.js";', [{ spec: "./a.js", runtime: false }]],
    ['export * from "./b.js";', [{ spec: "./b.js", runtime: true }]],
    ['import "./side.js";', [{ spec: "./side.js", runtime: true }]],
    ['import * as fs from "node:fs";', [{ spec: "node:fs", runtime: true }]],
    ['import {\n  a,\n  type B,\n} from "./multi.js";', [{ spec: "./multi.js", runtime: true }]],
    ['const m = await import("./lazy.js");', [{ spec: "./lazy.js", runtime: true }]],
    ['// import { x } from "./commented.js";', []],
    ['/* import "./block.js"; */', []],
  ])("%j", (text, want) => {
    expect(importsOf(text)).toEqual(want);
  });

  it.each<[string, string | null]>([
    ["core/git/argv.ts", "core/git"],
    ["core/digest.ts", "core"],
    ["main.ts", "main"],
    ["store/claims/rows.ts", "store/claims"],
    ["nowhere/x.ts", null],
  ])("file %s is in room %s", (rel, room) => {
    expect(roomOf(rel, TIERS.flat())).toBe(room);
  });
});
