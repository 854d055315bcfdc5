/**
 * Issue 27 §1: nothing outside src/clients/ branches on a client's name; what differs between
 * clients is a field of their spec. This reads every source file outside src/clients/ (comments
 * removed) for a client's name as a whole string literal (`=== "codex"`, `z.enum(["cursor", …])`,
 * `CLIENTS["gemini-cli"]`) or as a member (`CLIENTS.codex`, `settings.codex`).
 */
import { readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { CLIENT_NAMES } from "../../src/clients/index.js";
import { tsSources } from "../helpers/sources.js";

const SRC = join(process.cwd(), "src");

/**
 * The registry's declared consumers: files that may still name a client, each with why. An entry
 * whose file no longer names one fails the test too, so the list only shrinks.
 */
const CONSUMERS: Record<string, string> = {
  "demo/steps.ts": "the demo is a scripted scene of one Claude Code and one Codex session, driven by name",
  "wiring/settings-json.ts":
    "Claude's allow rules and Codex's strict top level: issue 26.2 reworks them in parallel; then spec fields",
  "wiring/plan.ts": "Claude's allow rules and local file, Codex's command rules (as wiring/settings-json.ts)",
  "wiring/snapshot.ts": "reads Claude's local file and Codex's rules file (as wiring/settings-json.ts)",
  "wiring/local-exclude.ts":
    "the git exclude of Claude's local file and Codex's local rule file, per wired client (as wiring/settings-json.ts)",
  "wiring/ritual-gaps.ts":
    "which rule format (Claude's allow rules, Codex's prefix_rule) can name the ritual's command",
  "wiring/codex-trust.ts":
    "Codex's hook-review check; moves to clients/codex/ once init's command parser is passed down",
};

/** Block comments and whole-line comments: prose may name a client, code may not. */
function code(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, "").replace(/^\s*\/\/.*$/gm, "");
}

const names = CLIENT_NAMES.map((n) => n.replace(/-/g, "\\-")).join("|");
const LITERAL = new RegExp(`(["'])(${names})\\1|\\w\\.(${names})\\b`, "g");

function namesIn(file: string): string[] {
  return [...code(readFileSync(file, "utf8")).matchAll(LITERAL)].map((m) => m[0]);
}

describe("no client name outside src/clients/", () => {
  const files = tsSources(SRC)
    .map((f) => relative(SRC, f))
    .filter((f) => !f.startsWith("clients/"));

  it("finds no client-name literal outside src/clients/ and its declared consumers", () => {
    const found = files
      .filter((f) => !Object.hasOwn(CONSUMERS, f))
      .flatMap((f) => namesIn(join(SRC, f)).map((hit) => `${f}: ${hit}`));
    expect(found).toEqual([]);
  });

  it("lists only consumers that still name a client", () => {
    const stale = Object.keys(CONSUMERS).filter((f) => namesIn(join(SRC, f)).length === 0);
    expect(stale).toEqual([]);
  });

  it("recognises a comparison with a client's name", () => {
    expect(code('if (client.name === "codex") x();\n// "cursor" in prose\n').match(LITERAL)).toEqual([
      '"codex"',
    ]);
    expect('CLIENTS.codex.settingsFile ".codex/rules"'.match(LITERAL)).toEqual(["S.codex"]);
  });
});
