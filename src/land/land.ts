import { landStep, type PathHolders, retryAfterLostRace } from "../core/land/plan.js";
import type { LandResult, Rejected } from "../core/land/result.js";
import type { CheckSpec } from "./check.js";
import { checkBatch } from "./checked.js";
import { type MoveAnswer, moveCheckout } from "./move.js";
import { PrivateTree } from "./rebase.js";
import { stampRange } from "./stamp.js";
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
  /** land.check, run on the result before it is pushed; null: none. */
  check: CheckSpec | null;
  /** Who holds which path now (read again before each move: sessions come and go). */
  holders: () => ReadonlyMap<string, PathHolders>;
  /** Trailers every landed commit gets (the landing session's, decision 0073); none for a person. */
  trailers: readonly string[];
  /** Called once the upstream is known, before anything changes. */
  started: (u: Upstream, local: string, upstream: string) => void;
}

type Round = LandResult | "retry";

/**
 * Lands the shared checkout's branch on its upstream: fetch, rebase privately if diverged, check,
 * move the checkout, push with a lease on what was fetched. A lost race fetches and tries again.
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
      ? "a push can lose to a busy remote: land again, and if it keeps failing, check `git push` by hand"
      : "fix what git reports, then land again; the shared checkout was not changed";
  return { outcome: "failed", branch, stage, message, fix, attempts };
}

/** What a round publishes and where the shared checkout goes: equal unless the check turned commits away. */
type Prepared =
  | { kind: "ready"; push: string; local: string; checks: number; rejected?: Rejected }
  | { kind: "done"; result: LandResult };

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
  if (step.kind === "fast-forward") {
    const moved = await moveCheckout(req.top, u.ref, local, upstream, req.holders());
    if (moved.kind !== "moved") return notMoved(moved, base);
    return { outcome: "fast-forwarded", from: local, to: upstream, ...base };
  }
  const found = await prepare(req, local, upstream, step.kind === "rebase", base);
  if (found.kind === "done") return found.result;
  const prepared = stamped(req, upstream, found);
  if (prepared.local !== local) {
    const moved = await moveCheckout(req.top, u.ref, local, prepared.local, req.holders());
    if (moved.kind !== "moved") return notMoved(moved, base);
  }
  const push = leasePush(req.top, u, prepared.push, upstream, req.timeoutMs);
  if (push.kind === "lost-race") return "retry";
  if (push.kind === "failed") return failed(u.branch, "push", push.reason, attempts);
  return {
    outcome: "pushed",
    remote: u.remote,
    from: upstream,
    to: prepared.push,
    commits: countCommits(req.top, `${upstream}..${prepared.push}`),
    rebased: step.kind === "rebase",
    ...base,
    ...(req.check ? { checks: prepared.checks } : {}),
    ...(prepared.rejected ? { rejected: prepared.rejected } : {}),
  };
}

/** The prepared commits with the landing's trailers: same trees, so the checkout's files stay. */
function stamped<P extends { push: string; local: string }>(req: LandRequest, upstream: string, p: P): P {
  const map = stampRange(req.top, upstream, p.local, req.trailers);
  if (!map) return p;
  return { ...p, push: map.get(p.push) ?? p.push, local: map.get(p.local) ?? p.local };
}

/** Rebases (when diverged) and checks in a private worktree; without either, nothing to prepare. */
async function prepare(
  req: LandRequest,
  local: string,
  upstream: string,
  rebase: boolean,
  base: { branch: string; attempts: number },
): Promise<Prepared> {
  if (!rebase && !req.check) return { kind: "ready", push: local, local, checks: 0 };
  const tree = PrivateTree.open(req.top, req.stateDir, local);
  try {
    let head = local;
    if (rebase) {
      const rb = tree.rebase(upstream);
      if (rb.kind === "conflicted")
        return {
          kind: "done",
          result: { outcome: "conflicted", commit: rb.commit, paths: rb.paths, ...base },
        };
      head = rb.head;
    }
    if (!req.check) return { kind: "ready", push: head, local: head, checks: 0 };
    const c = await checkBatch(tree, req.check, upstream, head);
    if (c.kind === "passed") return { kind: "ready", push: head, local: head, checks: c.checks };
    if (c.kind === "partial")
      return { kind: "ready", push: c.push, local: c.local, checks: c.checks, rejected: c.rejected };
    return {
      kind: "done",
      result: { outcome: "check-failed", rejected: c.rejected, checks: c.checks, ...base },
    };
  } finally {
    tree.close();
  }
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
