/**
 * A `git submodule` call turned into the plain git calls it makes in each submodule
 * (core/git/impact-submodule.ts), so the impact reader judges them like any other: a forced
 * checkout, a removed working tree, a foreach command. Git is asked only for a call that reaches
 * into submodules (one `ls-files` per repository walked).
 */
import { existsSync } from "node:fs";
import { relative, resolve } from "node:path";
import type { GitCall } from "../core/git/call.js";
import { parseGlobals } from "../core/git/globals.js";
import { planSubmodule } from "../core/git/impact-submodule.js";
import { gitStatus, splitZ } from "./run.js";

/** Git's own bound on nesting is the filesystem's; this one keeps a cycle of symlinks finite. */
const MAX_DEPTH = 8;
const GITLINK = "160000";

/** `calls` with each submodule call replaced by what it runs in each submodule; others unchanged. */
export function expandSubmoduleCalls(calls: readonly GitCall[], baseCwd: string): GitCall[] {
  return calls.flatMap((call) => expand(call, baseCwd) ?? [call]);
}

/** Null: not a submodule call, or one whose submodules cannot be listed (judged as unknown). */
function expand(call: GitCall, baseCwd: string): GitCall[] | null {
  const parsed = parseGlobals(call.args);
  if (parsed.ok !== true || parsed.rest[0] !== "submodule" || call.cwd === null) return null;
  const plan = planSubmodule(parsed.rest.slice(1));
  if (plan.kind === "none") return [];
  if (plan.kind === "unknown") return null;
  const dir = resolve(baseCwd, call.cwd, ...parsed.globals.chdir);
  const subs = submodules(dir, plan.pathspecs, plan.recursive, 0);
  if (subs === null) return null;
  const said = call.text ?? ["git", ...call.args].join(" ");
  return subs.flatMap((sub) =>
    plan.calls.map((args) => ({
      cwd: sub,
      args,
      text: `${said} (git ${args.join(" ")} in ${relative(dir, sub) || "."})`,
    })),
  );
}

/** The initialised submodules below `dir` selected by `specs` (all when empty), absolute. */
function submodules(dir: string, specs: string[], recursive: boolean, depth: number): string[] | null {
  if (depth > MAX_DEPTH) return null;
  const res = gitStatus(dir, ["ls-files", "--stage", "-z", "--", ...specs]);
  if (res.status !== 0) return null;
  const out: string[] = [];
  for (const rec of splitZ(res.stdout)) {
    const [meta = "", path = ""] = rec.split("\t");
    if (!meta.startsWith(GITLINK)) continue;
    const abs = resolve(dir, path);
    // Not initialised: no working tree for the command to touch.
    if (!existsSync(resolve(abs, ".git"))) continue;
    out.push(abs);
    if (recursive) {
      const inner = submodules(abs, [], true, depth + 1);
      if (inner === null) return null;
      out.push(...inner);
    }
  }
  return out;
}
