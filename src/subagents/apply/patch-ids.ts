import { git } from "../../git/run.js";
import { CAPTURE_CONFIG, PATCH_SHAPE } from "../capture/git.js";

/** One commit of a series: its id and its stable patch id (null for an empty commit). */
export interface SeriesEntry {
  commit: string;
  patchId: string | null;
}

/** `git patch-id --stable` output as commit → patch id. */
function patchIdMap(top: string, patches: string | Buffer): Map<string, string> {
  const out = new Map<string, string>();
  for (const line of git(top, ["patch-id", "--stable"], { input: patches }).split("\n")) {
    const [pid, commit] = line.split(" ");
    if (pid && commit) out.set(commit, pid);
  }
  return out;
}

/** The series an mbox holds, in order, with the patch id of each message. */
export function mboxSeries(top: string, mbox: Buffer, commits: readonly string[]): SeriesEntry[] {
  const ids = patchIdMap(top, mbox);
  return commits.map((commit) => ({ commit, patchId: ids.get(commit) ?? null }));
}

/**
 * The commits in `from..to` with their patch ids, oldest first; null when the
 * range holds a merge (a series applied by `git am` never does).
 */
export function rangeSeries(top: string, from: string, to: string): SeriesEntry[] | null {
  const revs = git(top, ["rev-list", "--reverse", "--parents", `${from}..${to}`])
    .split("\n")
    .filter((l) => l !== "");
  if (revs.some((l) => l.split(" ").length > 2)) return null;
  const commits = revs.map((l) => l.split(" ")[0]!);
  if (commits.length === 0) return [];
  const log = git(top, [
    ...CAPTURE_CONFIG,
    "log",
    "--reverse",
    "--format=commit %H",
    "-p",
    // Same diff shape as capture, so a commit that `git am` reproduced has the same patch id.
    ...PATCH_SHAPE,
    `${from}..${to}`,
  ]);
  const ids = patchIdMap(top, log);
  return commits.map((commit) => ({ commit, patchId: ids.get(commit) ?? null }));
}

/** True when both series are the same changes in the same order (empty commits match empty ones). */
export function sameSeries(a: readonly SeriesEntry[], b: readonly SeriesEntry[]): boolean {
  return a.length === b.length && a.every((e, i) => e.patchId === b[i]!.patchId);
}
