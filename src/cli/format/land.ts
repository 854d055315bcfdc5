import type { LandResult } from "../../core/land/result.js";

const short = (sha: string) => sha.slice(0, 10);
const tries = (n: number) => (n > 1 ? ` (after ${n - 1} lost push race${n > 2 ? "s" : ""})` : "");

/** `tandem land` for people and agents: what happened, and what to do when it did not land. */
export function formatLand(r: LandResult): string {
  const lines: string[] = [];
  switch (r.outcome) {
    case "up-to-date":
      lines.push(`${r.branch} is up to date with its upstream (${short(r.head)}): nothing to land.`);
      break;
    case "fast-forwarded":
      lines.push(
        `${r.branch} had no local commits: moved the checkout forward ${short(r.from)} → ${short(r.to)}.`,
      );
      break;
    case "pushed":
      lines.push(
        `Landed ${r.commits} commit${r.commits === 1 ? "" : "s"} on ${r.remote}/${r.branch}: ${short(r.from)} → ${short(r.to)}` +
          `${r.rebased ? ", rebased onto the upstream" : ""}${tries(r.attempts)}.`,
      );
      break;
    case "refused":
      lines.push(`tandem land: refused — the upstream changes files someone is working on; nothing changed.`);
      for (const b of r.blocked)
        lines.push(
          `  ${b.path}: ${b.holders.length ? `held by ${b.holders.join(", ")}` : "uncommitted, held by no live session"}${b.dirty ? " (uncommitted changes)" : ""}`,
        );
      lines.push(
        "Fix: wait for the holders to commit those files (or ask them to), then run tandem land again.",
      );
      break;
    case "conflicted":
      lines.push(
        `tandem land: your commit ${short(r.commit.sha)} "${r.commit.subject}" conflicts with the upstream; nothing changed.`,
      );
      for (const p of r.paths) lines.push(`  conflict: ${p}`);
      lines.push(
        "Fix: the upstream changed the same lines; merge by hand (e.g. `git fetch` and rebase in a worktree of your own) or coordinate with whoever pushed, then run tandem land again.",
      );
      break;
    case "failed":
      lines.push(`tandem land: failed (${r.stage})${r.branch ? ` on ${r.branch}` : ""}: ${r.message}`);
      lines.push(`Fix: ${r.fix}`);
      break;
  }
  return `${lines.join("\n")}\n`;
}
