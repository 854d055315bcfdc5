import {
  EMPTY_LEASES,
  type Holder,
  type Lease,
  type LeaseDoc,
  type LeaseOutcome,
  leasesText,
  missingOwn,
  parseLeases,
  release,
  reserve,
  restore,
} from "../core/remote/leases.js";
import { firstError, pushOutcome } from "../core/remote/push-outcome.js";
import { GitError, gitStatus } from "../git/run.js";
import { readDocs, writeDocCommit } from "./objects.js";

/**
 * The compare-and-swap loop behind `tandem reserve` (docs/decisions/0014): fetch the shared
 * leases ref, decide purely, push a new parentless commit only if the remote ref still is what
 * was read. A lost race means fetch and decide again, so each path has exactly one winner.
 */
export const LEASES_REF = "refs/tandem/leases";
export const SEEN_LEASES_REF = "refs/tandem/seen/leases";
/** The document this clone last pushed (or found current): what it knows it holds (decision 0023). */
export const MINE_LEASES_REF = "refs/tandem/mine/leases";
const FILE = "leases.json";
const TRIES = 10;

export type LeaseFailure =
  | { kind: "unreachable"; remote: string; reason: string }
  | { kind: "refused"; remote: string; reason: string }
  | { kind: "unreadable"; remote: string; reason: string }
  | { kind: "contended"; remote: string; tries: number };

export type LeaseResult =
  | {
      ok: true;
      won: string[];
      lost: { path: string; by: Lease }[];
      tries: number;
      /** The leases document the remote holds now, for the local view (null: no ref there). */
      now: { text: string; commit: string } | null;
    }
  | { ok: false; failure: LeaseFailure };

export interface LeaseCall {
  repo: string;
  remote: string;
  timeoutMs?: number;
  /** Clock and pause, replaceable in tests. */
  now?: () => number;
  sleep?: (ms: number) => void;
}

type Decide = (current: LeaseDoc, now: number) => LeaseOutcome;

export function reserveRemote(
  call: LeaseCall,
  req: { paths: string[]; holder: Holder; session: string | null; task: string | null; ttlMs: number },
): LeaseResult {
  return casLoop(call, (doc, now) => reserve(doc, req, now), "reserve");
}

export function releaseRemote(call: LeaseCall, holder: Holder, paths: string[]): LeaseResult {
  return casLoop(call, (doc, now) => release(doc, holder, paths, now), "release");
}

function casLoop(call: LeaseCall, decide: Decide, verb: string): LeaseResult {
  const now = call.now ?? Date.now;
  const sleep = call.sleep ?? sleepSync;
  for (let tries = 1; tries <= TRIES; tries++) {
    const seen = fetchLeases(call);
    if ("failure" in seen) return { ok: false, failure: seen.failure };
    const outcome = decide(seen.doc, now());
    if (!outcome.changed) {
      if (seen.commit) remember(call, seen.commit);
      const now = seen.commit ? { text: leasesText(seen.doc), commit: seen.commit } : null;
      return { ok: true, won: outcome.won, lost: outcome.lost, tries, now };
    }
    const text = leasesText(outcome.doc);
    const commit = writeDocCommit(call.repo, FILE, text, `tandem ${verb}`);
    const pushed = pushLease(call, commit, seen.commit);
    if (pushed.kind === "ok") {
      remember(call, commit);
      return { ok: true, won: outcome.won, lost: outcome.lost, tries, now: { text, commit } };
    }
    if (pushed.kind !== "stale") return { ok: false, failure: { ...pushed, remote: call.remote } };
    // Jittered backoff: racing machines spread out instead of colliding again in step.
    sleep(Math.floor(Math.random() * 40 * tries) + 10);
  }
  return { ok: false, failure: { kind: "contended", remote: call.remote, tries: TRIES } };
}

function remember(call: LeaseCall, commit: string): void {
  gitStatus(call.repo, ["update-ref", MINE_LEASES_REF, commit]);
}

/**
 * At a sync: this clone's live leases that the remote's document lost (a forced push deleted or
 * rewrote refs/tandem/leases) are pushed back with their expiry, through the same compare-and-swap.
 * `seen` is the leases commit the round fetched (null: the ref is gone). Returns the paths put back,
 * or null when nothing was missing; a failure is returned for the round to report.
 */
export function republishOwn(
  call: LeaseCall,
  checkout: string,
  seen: { commit: string; text: string } | null,
): LeaseResult | null {
  const mine = gitStatus(call.repo, ["rev-parse", "--verify", "-q", MINE_LEASES_REF]).stdout.trim();
  if (mine === "" || mine === seen?.commit) return null;
  const text = readDocs(call.repo, [mine], FILE)[0] ?? null;
  const published = text === null ? null : parseLeases(text);
  if (!published) return null;
  const now = (call.now ?? Date.now)();
  const missing = missingOwn(published, seen ? parseLeases(seen.text) : null, checkout, now);
  if (missing.length === 0) return null;
  return casLoop(call, (doc, at) => restore(doc, missing, at), "republish");
}

/** Fetches the leases ref into refs/tandem/seen/leases; no ref on the remote means no leases. */
function fetchLeases(call: LeaseCall): { doc: LeaseDoc; commit: string | null } | { failure: LeaseFailure } {
  const args = ["fetch", "--quiet", "--no-tags", "--no-write-fetch-head", call.remote];
  const res = run(call, [...args, `+${LEASES_REF}:${SEEN_LEASES_REF}`]);
  if (res.status !== 0) {
    if (!/couldn't find remote ref/i.test(res.stderr))
      return { failure: { kind: "unreachable", remote: call.remote, reason: firstError(res.stderr) } };
    gitStatus(call.repo, ["update-ref", "-d", SEEN_LEASES_REF]);
    return { doc: EMPTY_LEASES, commit: null };
  }
  const commit = gitStatus(call.repo, ["rev-parse", "--verify", "-q", SEEN_LEASES_REF]).stdout.trim();
  const text = readDocs(call.repo, [commit], FILE)[0] ?? null;
  // A damaged or newer-format document is not ours to overwrite silently.
  const doc = text === null ? null : parseLeases(text);
  if (!doc) {
    const reason = `${LEASES_REF} holds no leases document Tandem can read (a newer Tandem, or damaged)`;
    return { failure: { kind: "unreadable", remote: call.remote, reason } };
  }
  return { doc, commit };
}

function pushLease(call: LeaseCall, commit: string, expected: string | null) {
  const res = run(call, [
    "push",
    "--porcelain",
    "--no-verify",
    `--force-with-lease=${LEASES_REF}:${expected ?? ""}`,
    call.remote,
    `${commit}:${LEASES_REF}`,
  ]);
  return pushOutcome(res.status, res.stdout, res.stderr, LEASES_REF);
}

/** A network git call; a timeout reads as an unreachable remote. */
function run(call: LeaseCall, args: string[]): { status: number; stdout: string; stderr: string } {
  try {
    return gitStatus(call.repo, args, { timeoutMs: call.timeoutMs ?? 20_000 });
  } catch (err) {
    if (!(err instanceof GitError)) throw err;
    return {
      status: -1,
      stdout: "",
      stderr: `fatal: no answer within ${(call.timeoutMs ?? 20_000) / 1000} s`,
    };
  }
}

function sleepSync(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}
