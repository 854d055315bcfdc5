/**
 * The verdict on destructive git commands (docs/product.md §12), pure: given what
 * git says each command would overwrite, remove or commit, and which live peers
 * own which paths, refuse the command up front when it would touch a peer's
 * uncommitted work.
 */
import type { Holder } from "../claims/decide.js";
import { formatAge } from "../sessions/liveness.js";

/** One git command of the tool call with its impact, paths relative to the coordination root. */
export interface JudgedGitCall {
  /** The command as the agent wrote it (`git stash -u`), for the message. */
  command: string;
  atRisk: readonly string[];
  committed: readonly string[];
  /** Paths whose staged changes the command drops or replaces (the files stay; the staged version goes). */
  stagedLost: readonly string[];
  /** Set when the command works in another worktree (`git -C ../wt …`): paths are relative to it. */
  worktree?: string;
}

export interface GitGuardFinding {
  command: string;
  path: string;
  holder: Holder;
  effect: "overwrite" | "commit" | "unstage";
  worktree?: string;
}

/**
 * `owners`: the caller's own worktree's peer-owned paths; `elsewhere`: those of other worktrees,
 * keyed by worktree, for calls that run there.
 */
export function judgeGitCalls(
  calls: readonly JudgedGitCall[],
  owners: ReadonlyMap<string, Holder>,
  elsewhere: ReadonlyMap<string, ReadonlyMap<string, Holder>> = new Map(),
): GitGuardFinding[] {
  const out: GitGuardFinding[] = [];
  for (const call of calls) {
    const there = call.worktree === undefined ? owners : (elsewhere.get(call.worktree) ?? new Map());
    const at = call.worktree === undefined ? {} : { worktree: call.worktree };
    for (const path of call.atRisk) {
      const holder = there.get(path);
      if (holder) out.push({ command: call.command, path, holder, effect: "overwrite", ...at });
    }
    for (const path of call.committed) {
      const holder = there.get(path);
      if (holder) out.push({ command: call.command, path, holder, effect: "commit", ...at });
    }
    for (const path of call.stagedLost) {
      const holder = there.get(path);
      // A path whose bytes the same command overwrites is named once, for the worse of the two.
      if (holder && !call.atRisk.includes(path))
        out.push({ command: call.command, path, holder, effect: "unstage", ...at });
    }
  }
  return out;
}

function holderLine(f: GitGuardFinding, now: number): string {
  const h = f.holder;
  const task = h.task ? `task "${h.task}"` : "no task declared";
  const where = f.worktree === undefined ? f.path : `${f.path} in the worktree ${f.worktree}`;
  return `- ${where}: ${h.name}'s uncommitted work (${h.client}, ${task}, last seen ${formatAge(now - h.lastSeen)} ago)`;
}

/** The denial the agent reads: which command, whose work, and what to do instead. */
export function gitGuardMessage(findings: readonly GitGuardFinding[], now: number): string {
  const lines = ["Tandem refused this command before it ran; nothing was changed."];
  const heads: Record<GitGuardFinding["effect"], string> = {
    overwrite: "would overwrite or remove another live agent's uncommitted edits:",
    commit: "skips the pre-commit hook and would commit files another live agent is editing:",
    unstage:
      "would drop or replace what another live agent staged with `git add` (the staged version differs from HEAD, and git keeps no other copy of it; the files themselves stay):",
  };
  for (const effect of ["overwrite", "commit", "unstage"] as const) {
    const of = findings.filter((f) => f.effect === effect);
    for (const command of new Set(of.map((f) => f.command))) {
      lines.push(`\`${command}\` ${heads[effect]}`);
      lines.push(...of.filter((f) => f.command === command).map((f) => holderLine(f, now)));
    }
  }
  const holders = [...new Set(findings.map((f) => f.holder.name))].join(", ");
  const onlyIndex = findings.every((f) => f.effect === "unstage");
  const examples = onlyIndex
    ? "`git reset -- <your paths>`, `git restore --staged -- <your paths>`, `git add -- <your paths>`"
    : "`git restore -- <your paths>`, `git stash push -- <your paths>`, `git commit -- <your paths>`";
  const lost = onlyIndex ? "their staged changes exist nowhere else" : "their edits exist nowhere else";
  lines.push(
    `What to do: limit the command to your own files (for example ${examples}), or wait until ${holders} commits, or ask the user. Do not work around this another way: ${lost}.`,
  );
  return lines.join("\n");
}
