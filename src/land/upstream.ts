import { pushOutcome } from "../core/remote/push-outcome.js";
import { git, gitStatus } from "../git/run.js";

/** The shared checkout's branch and the upstream it lands on (`branch.<name>.remote/merge`). */
export interface Upstream {
  branch: string;
  /** refs/heads/<branch> */
  ref: string;
  remote: string;
  /** The branch on the remote, e.g. refs/heads/main. */
  mergeRef: string;
  /** The remote-tracking ref the fetch updates, e.g. refs/remotes/origin/main. */
  tracking: string;
}

export class LandSetupError extends Error {
  constructor(
    readonly stage: string,
    message: string,
    readonly fix: string,
  ) {
    super(message);
  }
}

const config = (top: string, key: string): string | null => {
  const r = gitStatus(top, ["config", "--get", key]);
  return r.status === 0 ? r.stdout.trim() : null;
};

export function readUpstream(top: string): Upstream {
  const head = gitStatus(top, ["symbolic-ref", "-q", "HEAD"]);
  if (head.status !== 0)
    throw new LandSetupError("branch", "HEAD is detached", "check out the branch to land, then land again");
  const ref = head.stdout.trim();
  const branch = ref.replace(/^refs\/heads\//, "");
  const remote = config(top, `branch.${branch}.remote`);
  const mergeRef = config(top, `branch.${branch}.merge`);
  const tracking = gitStatus(top, ["rev-parse", "--symbolic-full-name", `${branch}@{upstream}`]);
  if (!remote || !mergeRef || remote === "." || tracking.status !== 0)
    throw new LandSetupError(
      "upstream",
      `branch ${branch} has no upstream on a remote`,
      `set one with \`git push -u <remote> ${branch}\` (a first push), then land again`,
    );
  return { branch, ref, remote, mergeRef, tracking: tracking.stdout.trim() };
}

/** Fetches the upstream branch into its remote-tracking ref; returns the sha it names now. */
export function fetchUpstream(top: string, u: Upstream, timeoutMs: number): string {
  const r = gitStatus(top, ["fetch", "--no-tags", "--quiet", u.remote, `+${u.mergeRef}:${u.tracking}`], {
    timeoutMs,
  });
  if (r.status !== 0)
    throw new LandSetupError(
      "fetch",
      `git fetch ${u.remote} failed: ${r.stderr.trim().split("\n")[0] ?? ""}`,
      `check that ${u.remote} is reachable (git fetch ${u.remote}), then land again`,
    );
  return revParse(top, u.tracking);
}

export function revParse(top: string, rev: string): string {
  return git(top, ["rev-parse", "--verify", "--end-of-options", `${rev}^{commit}`]).trim();
}

export function isAncestor(top: string, a: string, b: string): boolean {
  return gitStatus(top, ["merge-base", "--is-ancestor", a, b]).status === 0;
}

export function countCommits(top: string, range: string): number {
  return Number(git(top, ["rev-list", "--count", range, "--"]).trim());
}

export type PushAnswer = { kind: "ok" } | { kind: "lost-race" } | { kind: "failed"; reason: string };

/** Publishes `sha` as the upstream branch only if the remote still holds `expected` (what we fetched). */
export function leasePush(
  top: string,
  u: Upstream,
  sha: string,
  expected: string,
  timeoutMs: number,
): PushAnswer {
  const r = gitStatus(
    top,
    ["push", "--porcelain", `--force-with-lease=${u.mergeRef}:${expected}`, u.remote, `${sha}:${u.mergeRef}`],
    { timeoutMs },
  );
  const o = pushOutcome(r.status, r.stdout, r.stderr, u.mergeRef);
  if (o.kind === "ok") return o;
  if (o.kind === "stale") return { kind: "lost-race" };
  return { kind: "failed", reason: o.reason };
}
