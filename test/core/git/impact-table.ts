import { expect, it } from "vitest";
import {
  type Effect,
  type GitConfig,
  type Into,
  type Pick,
  planGitImpact,
  type Rule,
} from "../../../src/core/git/impact-plan.js";

/**
 * A plan in one line: `PATHSPEC: RULE + RULE`, a rule being the dirty entries it picks
 * (S staged, U unstaged, ? untracked, ! ignored, S* staged then changed again; `@ps` within
 * the pathspec) and, after `∩`, the query naming the paths among which they are at risk.
 * A word before the pathspec says where the paths go when not at risk (`commit`, `unstage`:
 * staged changes dropped, `stage`; `commit only`: a commit of its paths alone, not of what else the index holds); a rule
 * whose paths go elsewhere than the plan's ends in `→ WORD`.
 */
export function render(e: Effect): string {
  switch (e.kind) {
    case "none":
    case "config":
      return e.kind;
    case "unknown":
      return "unknown";
    case "ref-or-path":
      return `${e.name}${e.guess ? "?" : ""} { ${render(e.asRef)} | ${render(e.asPath)} }`;
    case "rules": {
      const ps = e.pathspec.fromFile
        ? `file:${e.pathspec.fromFile.file}${e.pathspec.fromFile.nul ? "\\0" : ""}`
        : e.pathspec.specs.length > 0
          ? e.pathspec.specs.join(",")
          : "*";
      const rules = e.rules.map(
        (r) => `${renderRule(r)}${r.into && r.into !== e.into ? ` → ${INTO[r.into]}` : ""}`,
      );
      const head = e.into === "committed" && !e.commitsIndex ? "commit only" : INTO[e.into];
      return `${head ? `${head} ` : ""}${ps}: ${rules.join(" + ")}`;
    }
  }
}

/** Where a rule's paths go, as a word before the plan (none for `atRisk`). */
const INTO: Record<Into, string> = {
  atRisk: "",
  committed: "commit",
  stagedLost: "unstage",
  stages: "stage",
};

function pickLetters(p: Pick): string {
  const letters = `${p.staged ? "S" : ""}${p.unstaged ? "U" : ""}${p.untracked ? "?" : ""}${p.ignored ? "!" : ""}`;
  return `${letters}${p.stagedThenChanged ? "S*" : ""}`;
}

function renderRule(r: Rule): string {
  const head = `${pickLetters(r.pick)}${r.scoped ? "@ps" : ""}`;
  const s = r.source;
  switch (s.kind) {
    case "dirty":
      return head;
    case "differs":
      return `${head} ∩ differs ${s.rev}`;
    case "changed":
      return `${head} ∩ ${s.from}${s.mergeBase ? "..." : ".."}${s.to}`;
    case "commits":
      return `${head} ∩ commits ${s.revs.join(" ")}`;
    case "stash":
      return `${head} ∩ stash ${s.rev}`;
    case "patch":
      return `${head} ∩ patch ${s.args.join(" ")}`;
    case "clean":
      return `${head} ∩ clean ${s.args.join(" ")}`;
    case "paths":
      return `${head} ∩ paths ${s.paths.map((p) => `${p.path}${p.under ? "/**" : ""}`).join(" ")}`;
  }
}

export const plan = (args: string[], config?: GitConfig) => render(planGitImpact(args, config).effect);

export type Table = [args: string, expected: string][];

/** Splits a command line on spaces; `␠` stands for a space inside one word. */
export const words = (line: string) =>
  line === "" ? [] : line.split(" ").map((w) => w.replaceAll("␠", " "));

export function table(rows: Table, config?: GitConfig) {
  for (const [line, expected] of rows) {
    it(`git ${line} → ${expected}`, () => {
      expect(plan(words(line), config)).toBe(expected);
    });
  }
}
