import { landStep, type PathHolders, retryAfterLostRace } from "../core/land/plan.js";
import type { LandResult } from "../core/land/result.js";
import { type MoveAnswer, moveCheckout } from "./move.js";
import { rebaseInPrivate } from "./rebase.js";
import {
  countCommits,
  fetchUpstream,
  isAncestor,
  LandSetupError,
  leasePush,
  readUpstream,
  revParse,
  type Upstream,
} from "./upstream.js";

export interface LandRequest {
  top: string;
  stateDir: string;
  timeoutMs: number;
  /** Who holds which path now (read again before each move: sessions come and go). */
  holders: () => ReadonlyMap<string, PathHolders>;
  /** Called once the upstream is known, before anything changes. */
  started: (u: Upstream, local: string, upstream: string) => void;
}

type Round = LandResult | "retry";

/**
 * Lands the shared checkout's branch on its upstream: fetch, rebase privately if diverged, move
 * the checkout, push with a lease on what was fetched. A lost race fetches and tries again.
 */
export async function land(req: LandRequest): Promise<LandResult> {
  let u: Upstream | null = null;
  try {
    u = readUpstream(req.top);
    for (let attempt = 1; ; attempt++) {
      const r = await round(req, u, attempt);
      if (r !== "retry") return r;
      if (!retryAfterLostRace(attempt))
        return failed(u.branch, "push", `the remote moved under ${attempt} pushes in a row`, attempt);
    }
  } catch (e) {
    if (e instanceof LandSetupError)
      return {
        outcome: "failed",
        branch: u?.branch ?? null,
        stage: e.stage,
        message: e.message,
        fix: e.fix,
        attempts: 1,
      };
    return failed(u?.branch ?? null, "git", (e as Error).message, 1);
  }
}

function failed(branch: string | null, stage: string, message: string, attempts: number): LandResult {
  const fix =
    stage === "push"
      ? "run tandem land again; if it keeps failing, check `git push` by hand."
      : "fix what git reports, then run tandem land again; the shared checkout was not changed.";
  return { outcome: "failed", branch, stage, message, fix, attempts };
}

async function round(req: LandRequest, u: Upstream, attempts: number): Promise<Round> {
  const upstream = fetchUpstream(req.top, u, req.timeoutMs);
  const local = revParse(req.top, u.ref);
  if (attempts === 1) req.started(u, local, upstream);
  const step = landStep({
    local,
    upstream,
    upstreamInLocal: isAncestor(req.top, upstream, local),
    localInUpstream: isAncestor(req.top, local, upstream),
  });
  const base = { branch: u.branch, attempts };
  if (step.kind === "up-to-date") return { outcome: "up-to-date", head: local, ...base };
  let head = local;
  if (step.kind === "fast-forward" || step.kind === "rebase") {
    if (step.kind === "rebase") {
      const rb = rebaseInPrivate(req.top, req.stateDir, local, upstream);
      if (rb.kind === "conflicted")
        return { outcome: "conflicted", commit: rb.commit, paths: rb.paths, ...base };
      head = rb.head;
    } else head = upstream;
    const moved = await moveCheckout(req.top, u.ref, local, head, req.holders());
    if (moved.kind !== "moved") return notMoved(moved, base);
    if (step.kind === "fast-forward") return { outcome: "fast-forwarded", from: local, to: head, ...base };
  }
  const push = leasePush(req.top, u, head, upstream, req.timeoutMs);
  if (push.kind === "lost-race") return "retry";
  if (push.kind === "failed") return failed(u.branch, "push", push.reason, attempts);
  const commits = countCommits(req.top, `${upstream}..${head}`);
  return {
    outcome: "pushed",
    remote: u.remote,
    from: upstream,
    to: head,
    commits,
    rebased: step.kind === "rebase",
    ...base,
  };
}

function notMoved(
  m: Exclude<MoveAnswer, { kind: "moved" }>,
  base: { branch: string; attempts: number },
): Round {
  if (m.kind === "blocked") return { outcome: "refused", reason: "held", blocked: m.blocked, ...base };
  // A commit landed in the shared checkout meanwhile: start over from the new branch tip.
  if (/moved during the landing/.test(m.reason)) return "retry";
  return failed(base.branch, "move", m.reason, base.attempts);
}
