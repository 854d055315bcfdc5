/**
 * Issue 42 item 4, decision 0051: a command a message prints is spelled for its reader by
 * src/core/printed.ts (`printed`, `spanned`), never as a bare `tandem …` that a devDependency's
 * person (`npx tandem`) or an agent whose shell needs its launcher cannot run. This reads every
 * source file (comments removed) for a bare command in a string literal: a code span opening with
 * `tandem ` inside a string, or "run tandem <command>" in prose. Help texts (commander's
 * description, option and addHelpText calls) are examples for whoever reads them and are left out.
 */
import { readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { tsSources } from "../helpers/sources.js";

const SRC = join(process.cwd(), "src");

/**
 * Files that still hold one, each with why and how many; an entry whose count drops fails too, so
 * the list only shrinks.
 */
const ALLOWED: Record<string, { count: number; why: string }> = {
  // Comments in files init writes: they name the product's commands, are shared by every clone
  // and launcher, and are not run.
  "clients/codex/rules.ts": { count: 2, why: "marker comment of the rules file init writes" },
  "wiring/gemini-policy.ts": { count: 1, why: "marker comment of the policy file init writes" },
  "wiring/git-hooks.ts": { count: 1, why: "marker comment of Tandem's block in a git hook" },
  "wiring/repo-launcher.ts": { count: 1, why: "marker comment of the repository launcher" },
  "wiring/init-record.ts": { count: 1, why: "comment in .tandem/config.jsonc, committed and shared" },
  "config/keys.ts": { count: 20, why: "config documentation (docs/config.md and the config comments)" },
  "demo/steps.ts": { count: 1, why: "the title of a scripted demo step, not a command to run" },
  // Install advice: it names the install it recommends (`tandem` after `npm install -g`).
  "wiring/launcher.ts": { count: 2, why: "tells how to install for a team; the launcher is the advice" },
  "wiring/ritual-gaps.ts": { count: 1, why: "asks for `--command tandem` from an install on PATH" },
  // Names of refused commands: they say what the agent ran, as it spelled it, not what to run.
  "core/guards/forgery.ts": { count: 1, why: "names `tandem hook` as what was called, not to run" },
  "core/jail/identity.ts": { count: 2, why: "names the command a jail sent and was refused, not one to run" },
  "core/sessions/identity.ts": { count: 2, why: "names the command that was refused, not one to run" },
  "core/rules/texts.ts": { count: 1, why: "names `tandem hook` as what was refused, not to run" },
};

/** Comments out, lines kept (so a help call two lines up is still seen): prose may say `tandem x`. */
function code(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, (c) => c.replace(/[^\n]/g, "")).replace(/^\s*\/\/.*$/gm, "");
}

/**
 * A code span opening with `tandem ` inside a template literal (escaped backtick) or a quoted
 * string (a raw one), or "run tandem <command>" in prose. A template literal that merely starts
 * with the program's name (`tandem land: failed`) is a message prefix, not a command.
 */
const BARE = /\\`tandem |"[^"\n]*`tandem [^"\n]*"|'[^'\n]*`tandem [^'\n]*'|\brun tandem [a-z]/;
const HELP = /\.(description|addHelpText|option|requiredOption|argument|summary)\(/;

function bareCommands(text: string): string[] {
  const lines = code(text).split("\n");
  return lines.filter(
    (line, i) => BARE.test(line) && !HELP.test(lines.slice(Math.max(0, i - 2), i + 1).join("\n")),
  );
}

describe("no bare `tandem …` command in src/", () => {
  const counts = new Map<string, number>();
  for (const file of tsSources(SRC)) {
    const rel = relative(SRC, file);
    if (rel === "core/printed.ts") continue;
    const n = bareCommands(readFileSync(file, "utf8")).length;
    if (n > 0) counts.set(rel, n);
  }

  it("finds none outside the renderer, help texts and the allow-list", () => {
    const found = [...counts].filter(([f, n]) => n > (ALLOWED[f]?.count ?? 0)).map(([f, n]) => `${f}: ${n}`);
    expect(found, "spell these with printed()/spanned() and the reader's Printer (decision 0051)").toEqual(
      [],
    );
  });

  it("keeps the allow-list exact, so it only shrinks", () => {
    const stale = Object.entries(ALLOWED)
      .filter(([f, a]) => (counts.get(f) ?? 0) !== a.count)
      .map(([f, a]) => `${f}: allowed ${a.count}, found ${counts.get(f) ?? 0}`);
    expect(stale).toEqual([]);
  });

  it.each([
    ["a span in a template literal", "const s = `run \\`tandem doctor\\` now`;", 1],
    ["a span in a quoted string", 'const s = "run `tandem init` once";', 1],
    ["prose", 'const s = "fix it, then run tandem land again";', 1],
    ["a message prefix", "io.err(`tandem land: failed`);", 0],
    ["a comment", "// run `tandem init`\nconst x = 1;", 0],
    ["a help example", 'cmd\n  .addHelpText(\n    "after", "see `tandem status`",\n  );', 0],
    // \u0024 is "$": the case is source text holding an interpolation, not one of this file's.
    ["the renderer's output", 'const s = `run \u0024{spanned(p, "doctor")}`;', 0],
  ])("tells %s", (_what, text, n) => {
    expect(bareCommands(text)).toHaveLength(n);
  });
});
