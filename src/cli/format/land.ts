import type { LandResult, Rejected } from "../../core/land/result.js";
import { type Printer, spanned } from "../../core/printed.js";

const short = (sha: string) => sha.slice(0, 10);
const tries = (n: number) => (n > 1 ? ` (after ${n - 1} lost push race${n > 2 ? "s" : ""})` : "");

/**
 * `tandem land` for people and agents: what happened, and what to do when it did not land, with
 * the command to land again spelled for the caller by `p` (decision 0051).
 */
export function formatLand(r: LandResult, p: Printer): string {
  const lines: string[] = [];
  const again = `${spanned(p, "land")} again`;
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
          `${r.rebased ? ", rebased onto the upstream" : ""}${checked(r.checks)}${tries(r.attempts)}.`,
      );
      if (r.rejected) {
        lines.push(
          `land.check turned ${r.rejected.commits.length} commit(s) away; they stay local, not pushed:`,
        );
        lines.push(...rejectedLines(r.rejected));
        lines.push(`Fix: the author of each commit above fixes it in a new commit, then runs ${again}.`);
      }
      break;
    case "check-failed":
      lines.push(`tandem land: land.check failed; nothing was pushed and the shared checkout is unchanged.`);
      lines.push(...rejectedLines(r.rejected));
      lines.push(
        `Fix: make the check pass (run it in the checkout to see it fail), commit the fix, then run ${again}.`,
      );
      break;
    case "refused":
      lines.push(`tandem land: refused — the upstream changes files someone is working on; nothing changed.`);
      for (const b of r.blocked)
        lines.push(
          `  ${b.path}: ${b.holders.length ? `held by ${b.holders.join(", ")}` : "uncommitted, held by no live session"}${b.dirty ? " (uncommitted changes)" : ""}`,
        );
      lines.push(`Fix: wait for the holders to commit those files (or ask them to), then run ${again}.`);
      break;
    case "conflicted":
      lines.push(
        `tandem land: your commit ${short(r.commit.sha)} "${r.commit.subject}" conflicts with the upstream; nothing changed.`,
      );
      for (const p of r.paths) lines.push(`  conflict: ${p}`);
      lines.push(
        `Fix: the upstream changed the same lines; merge by hand (e.g. \`git fetch\` and rebase in a worktree of your own) or coordinate with whoever pushed, then run ${again}.`,
      );
      break;
    case "failed":
      lines.push(`tandem land: failed (${r.stage})${r.branch ? ` on ${r.branch}` : ""}: ${r.message}`);
      lines.push(`Fix: ${r.fix} (${spanned(p, "land")}).`);
      break;
  }
  if (r.batch)
    lines.push(`(one landing for this and ${r.batch.waiters} queued one(s), run by pid ${r.batch.leader})`);
  return `${lines.join("\n")}\n`;
}

const checked = (n: number | undefined) =>
  n ? `, checked (${n} run${n === 1 ? "" : "s"} of land.check)` : "";

function rejectedLines(r: Rejected): string[] {
  const how = r.check.timedOut
    ? "was stopped at land.checkTimeoutSeconds (raise it if the check needs longer)"
    : r.check.exitCode === null
      ? "could not run"
      : `exited ${r.check.exitCode}`;
  return [
    ...r.commits.map((c) => `  ${short(c.sha)} ${c.subject}`),
    r.check.output
      ? `\`${r.check.command}\` ${how}; the end of its output:`
      : `\`${r.check.command}\` ${how}, printing nothing.`,
    ...(r.check.output ? r.check.output.split("\n").map((l) => `    ${l}`) : []),
  ];
}
