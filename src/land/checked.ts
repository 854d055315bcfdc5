import { nextProbe, recordProbe, startBisect } from "../core/land/bisect.js";
import type { CheckRun, ConflictCommit, Rejected } from "../core/land/result.js";
import { git } from "../git/run.js";
import { type CheckSpec, runCheck } from "./check.js";
import type { PrivateTree } from "./rebase.js";

export type CheckedAnswer =
  /** Every commit passed (or none was turned away): push `head`, the checkout moves to it. */
  | { kind: "passed"; head: string; checks: number }
  /** Some passed: push `push`; the checkout moves to `local` (the rejected ones restacked on top). */
  | { kind: "partial"; push: string; local: string; rejected: Rejected; checks: number }
  /** Nothing can be pushed. */
  | { kind: "failed"; rejected: Rejected; checks: number };

const commitsBetween = (dir: string, from: string, to: string): string[] =>
  git(dir, ["rev-list", "--reverse", `${from}..${to}`, "--"])
    .split("\n")
    .filter(Boolean);

const described = (dir: string, shas: readonly string[]): ConflictCommit[] =>
  shas.map((sha) => ({ sha, subject: git(dir, ["log", "-1", "--format=%s", sha, "--"]).trim() }));

/**
 * Runs land.check on `head` (the batch rebased onto `upstream`, checked out in `tree`). On failure
 * the batch is bisected (src/core/land/bisect.ts): each probe stacks a subset of its commits on the
 * upstream and runs the check again; the commits that pass are pushed, the others restacked after them.
 */
export async function checkBatch(
  tree: PrivateTree,
  spec: CheckSpec,
  upstream: string,
  head: string,
): Promise<CheckedAnswer> {
  const commits = commitsBetween(tree.dir, upstream, head);
  const refused = spec.judge ? await spec.judge(tree.dir) : null;
  if (refused !== null) {
    // Never run, so no commit is to blame and no bisection can help: nothing is pushed.
    const check: CheckRun = { command: spec.command, exitCode: null, timedOut: false, output: refused };
    return { kind: "failed", rejected: { commits: described(tree.dir, commits), check }, checks: 0 };
  }
  const first = await runCheck(spec, tree.dir);
  if (passed(first)) return { kind: "passed", head, checks: 1 };
  let checks = 1;
  let lastFailure = first;
  let s = startBisect(commits.length);
  for (;;) {
    const next = nextProbe(s);
    if (!next.probe) {
      s = next.state;
      break;
    }
    checks++;
    const run = await probe(
      tree,
      spec,
      upstream,
      next.probe.map((i) => commits[i]!),
    );
    if (!passed(run)) lastFailure = run;
    s = recordProbe(next.state, passed(run));
  }
  const pick = (idx: number[]) => idx.map((i) => commits[i]!);
  const rejected = (shas: string[]): Rejected => ({ commits: described(tree.dir, shas), check: lastFailure });
  if (s.accepted.length === 0) return { kind: "failed", rejected: rejected(commits), checks };
  const push = tree.stack(upstream, pick(s.accepted));
  const local = push && tree.stack(push, pick(s.rejected));
  // The rejected commits do not apply after the accepted ones alone: they cannot be separated.
  if (!push || !local) return { kind: "failed", rejected: rejected(commits), checks };
  return { kind: "partial", push, local, rejected: rejected(commitsBetween(tree.dir, push, local)), checks };
}

const passed = (r: CheckRun) => r.exitCode === 0 && !r.timedOut;

async function probe(tree: PrivateTree, spec: CheckSpec, base: string, commits: string[]): Promise<CheckRun> {
  if (!tree.stack(base, commits))
    return {
      command: spec.command,
      exitCode: null,
      timedOut: false,
      output: "these commits do not apply without the ones left out of this try",
    };
  return runCheck(spec, tree.dir);
}
