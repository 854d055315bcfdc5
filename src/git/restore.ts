/** Putting one file back to its committed state: what `tandem discard` does to left work. */
import { rmSync } from "node:fs";
import { join } from "node:path";
import { gitStatus } from "./run.js";
import { literal, OWN_PATHSPECS } from "./status.js";

/**
 * `rel` (relative to the top) back to HEAD, in the index and the working tree; a file HEAD does
 * not have is unstaged and removed. Returns which of the two it did.
 */
export function restoreToHead(top: string, rel: string): "restored" | "removed" {
  const env = OWN_PATHSPECS;
  const inHead = gitStatus(top, ["cat-file", "-e", `HEAD:${rel}`]).status === 0;
  if (inHead) {
    const r = gitStatus(top, ["restore", "--source=HEAD", "--staged", "--worktree", "--", literal(rel)], {
      env,
    });
    if (r.status !== 0) throw new Error(`git restore ${rel} failed: ${r.stderr.trim()}`);
    return "restored";
  }
  gitStatus(top, ["rm", "--cached", "--quiet", "--ignore-unmatch", "--", literal(rel)], { env });
  rmSync(join(top, rel), { force: true });
  return "removed";
}
