/**
 * The end-turn check's usual git process, started before the owned paths are classified: spawning
 * blocks Node's thread for most of a process start (~10 ms on the bench machine), and
 * classification and locating 1,000 paths take several more, so the two run side by side instead
 * of one after the other. (After a spawn the same work costs more, since every page the server
 * writes faults once; measured, the overlap still wins by a few ms. Store reads, which touch more
 * memory for less work, go before it.) Only the repository holding the coordination root is asked, which git
 * may always run in, over its share of the ledger's paths as recorded. The gatherer uses that
 * status only when its pathspecs cover everything the located paths ask of that repository, and
 * stops it otherwise; the verdict never depends on the guess.
 */
import { readFileSync } from "node:fs";
import { dirname } from "node:path/posix";
import { coverPaths } from "../core/finalization/pathspec-cover.js";
import { isNormal, isPlainKey } from "../core/paths/lexical.js";
import { absolute, type LedgerPath } from "./peer-paths.js";
import { type StartedStatus, startStatus } from "./repo-probe.js";
import type { GitAuthority } from "./run-git.js";

export function startEarly(
  repoTop: string | null,
  owned: readonly LedgerPath[],
  may: GitAuthority,
): StartedStatus | null {
  if (repoTop === null || !may(repoTop)) return null;
  const submodules = submodulePaths(repoTop);
  const inside = repoTop === "/" ? "/" : `${repoTop}/`;
  const rels = new Set<string>();
  for (const row of owned) {
    const abs = isNormal(row.worktree) && isPlainKey(row.path) ? join(row.worktree, row.path) : absolute(row);
    if (abs === repoTop) rels.add(".");
    else if (abs?.startsWith(inside)) rels.add(enclosingSubmodule(abs.slice(inside.length), submodules));
  }
  if (rels.size === 0) return null;
  return startStatus(repoTop, coverPaths(rels), may);
}

const join = (worktree: string, path: string) => `${worktree === "/" ? "" : worktree}/${path}`;

/**
 * A path inside a submodule is the submodule's own status's business; the superproject's status is
 * asked about the submodule's path (to settle its pointer), so that is what its cover must hold.
 */
function enclosingSubmodule(rel: string, submodules: ReadonlySet<string>): string {
  if (submodules.size === 0) return rel;
  for (let p = rel; p !== "."; p = dirname(p)) if (submodules.has(p)) return p;
  return rel;
}

/** The `path =` values of the repository's .gitmodules; none when it has none or it cannot be read. */
function submodulePaths(top: string): Set<string> {
  let text: string;
  try {
    text = readFileSync(`${top === "/" ? "" : top}/.gitmodules`, "utf8");
  } catch {
    return new Set();
  }
  const out = new Set<string>();
  for (const line of text.split("\n")) {
    const m = /^\s*path\s*=\s*(.*?)\s*$/.exec(line);
    if (m?.[1]) out.add(m[1]);
  }
  return out;
}
