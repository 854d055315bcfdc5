/**
 * Another worktree of the repository is peers' work too (decision 0023): a command that names a
 * directory or file in another worktree (`rm -rf ../wt`, `git worktree remove --force ../wt`,
 * `echo > ../wt/f.txt`) is judged against what the live sessions working there own. Pure.
 */
import type { Holder } from "../claims/decide.js";
import { isInside } from "../paths/lexical.js";
import { formatAge } from "../sessions/liveness.js";

export const WORKTREE_RULE = "other-worktree";

export interface NamedTarget {
  raw: string;
  physical: string;
}

export interface WorktreeFinding {
  raw: string;
  worktree: string;
  /** Relative to `worktree`. */
  path: string;
  holder: Holder;
}

const joinKey = (worktree: string, path: string) =>
  path === "." ? worktree : `${worktree === "/" ? "" : worktree}/${path}`;

/**
 * Each peer-owned path of another worktree that a target is, or holds. `owned` is keyed by
 * worktree (physical), each map by path relative to it; `self` is the caller's own coordination
 * root, whose paths the claims already judge.
 */
export function worktreeFindings(
  targets: readonly NamedTarget[],
  owned: ReadonlyMap<string, ReadonlyMap<string, Holder>>,
  self: string,
): WorktreeFinding[] {
  const out: WorktreeFinding[] = [];
  const seen = new Set<string>();
  for (const t of targets) {
    for (const [worktree, owners] of owned) {
      if (worktree === self) continue;
      const holdsAll = isInside(t.physical, worktree);
      if (!holdsAll && !isInside(worktree, t.physical)) continue;
      for (const [path, holder] of owners) {
        const key = JSON.stringify([t.raw, worktree, path]);
        if (seen.has(key) || !(holdsAll || isInside(t.physical, joinKey(worktree, path)))) continue;
        seen.add(key);
        out.push({ raw: t.raw, worktree, path, holder });
      }
    }
  }
  return out;
}

/** The denial: what was named, whose work in which worktree, and what to do instead. */
export function worktreeMessage(findings: readonly WorktreeFinding[], now: number): string {
  const lines = ["Tandem refused this command before it ran; nothing was changed."];
  for (const raw of new Set(findings.map((f) => f.raw))) {
    const mine = findings.filter((f) => f.raw === raw);
    lines.push(`${raw} is in another worktree where a live agent is working (${mine[0]!.worktree}):`);
    for (const f of mine) {
      const h = f.holder;
      const task = h.task ? `task "${h.task}"` : "no task declared";
      lines.push(
        `- ${f.path}: ${h.name}'s work (${h.client}, ${task}, last seen ${formatAge(now - h.lastSeen)} ago)`,
      );
    }
  }
  const holders = [...new Set(findings.map((f) => f.holder.name))].join(", ");
  lines.push(
    `What to do: work in your own checkout; leave that worktree alone until ${holders} has finished and committed (their session ends), or ask the user. Do not remove or clean it another way: their uncommitted edits exist nowhere else.`,
  );
  return lines.join("\n");
}
