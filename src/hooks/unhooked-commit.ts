/**
 * A commit made in a nested work tree (a submodule initialised after `tandem init`, or never
 * wired) runs that tree's own hooks, which may not include Tandem's pre-commit: the pre-tool hook
 * then judges it as a commit that skips its hook (decision 0050), its second line of defence.
 */
import { resolve } from "node:path";
import { enclosingWorkTrees } from "../config/git-discovery.js";
import type { GitCall } from "../core/git/call.js";
import { BYPASS_GLOBAL, parseGlobals } from "../core/git/globals.js";
import { hasRegion } from "../wiring/git-hooks.js";
import { gitHooksDir, readState } from "../wiring/snapshot.js";

/** `call`, marked as skipping its hook when it commits in a nested work tree without Tandem's pre-commit. */
export function judgedAsUnhooked(call: GitCall, baseCwd: string, ownTop: string): GitCall {
  if (call.cwd === null) return call;
  const parsed = parseGlobals(call.args);
  if (parsed.ok !== true || parsed.rest[0] !== "commit") return call;
  const dir = resolve(baseCwd, call.cwd, ...parsed.globals.chdir);
  const top = enclosingWorkTrees(dir)[0]?.top;
  if (top === undefined || top === ownTop) return call;
  let hooked: boolean;
  try {
    hooked = hasRegion(readState(resolve(gitHooksDir(top), "pre-commit")).text);
  } catch {
    return call; // git cannot say: the impact reader meets the same and reports it
  }
  if (hooked) return call;
  return { ...call, args: [BYPASS_GLOBAL, ...call.args], text: call.text ?? ["git", ...call.args].join(" ") };
}
