import {
  type HeldLease,
  type LeasePlan,
  migratedLeases,
  missingLeases,
  planLeases,
  planRelease,
  requestedLeases,
} from "../core/remote/lease-plan.js";
import {
  LEASE_FILE,
  LEASE_PREFIX,
  leaseFileText,
  leaseRef,
  OLD_LEASES_REF,
  parseLeaseFile,
  pathOfRef,
} from "../core/remote/lease-refs.js";
import {
  type Holder,
  LEASES_FORMAT,
  type Lease,
  type LeaseDoc,
  leasesText,
  parseLeases,
} from "../core/remote/leases.js";
import { atomicOutcome, firstError } from "../core/remote/push-outcome.js";
import { GitError, git, gitStatus } from "../git/run.js";
import { listRefs, readDocs, writeDocCommit } from "./objects.js";

/**
 * Reservations as one ref per leased path (decision 0062, after 0014 and 0023): fetch the lease
 * refs, decide purely (core/remote/lease-plan.ts), push the refs that change in one atomic push
 * where each must still hold what was read. Racers on different paths touch different refs and
 * all win; racers on one path: the remote takes one push, the others read again and see it taken.
 */
export const SEEN_LEASE_PREFIX = "refs/tandem/seen/lease/";
export const SEEN_OLD_LEASES = "refs/tandem/seen/leases";
/** The leases this clone last wrote, one ref per path: what it knows it holds (decision 0023). */
export const MINE_LEASE_PREFIX = "refs/tandem/mine/lease/";
const OLD_MINE = "refs/tandem/mine/leases";
/** Fetches the per-path refs and the old document in one refspec (a pattern: absent is no error). */
export const LEASE_REFSPEC = "+refs/tandem/lease*:refs/tandem/seen/lease*";
/** How long a reservation keeps retrying lost races before it reports the remote as contended. */
const PATIENCE_MS = 120_000;

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
      /** Every lease the remote holds now, as one document for the local view. */
      now: { text: string; commit: string };
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

type Decide = (held: readonly HeldLease[], now: number) => LeasePlan;

export function reserveRemote(
  call: LeaseCall,
  req: { paths: string[]; holder: Holder; session: string | null; task: string | null; ttlMs: number },
): LeaseResult {
  return casLoop(call, (held, now) => planLeases(held, requestedLeases(req, now), now));
}

export function releaseRemote(call: LeaseCall, holder: Holder, paths: string[]): LeaseResult {
  return casLoop(call, (held) => planRelease(held, holder, paths));
}

/** Only migrates an old leases document, if the remote still has one; the result is the view. */
export function settleLeases(call: LeaseCall): LeaseResult {
  return casLoop(call, () => ({ won: [], lost: [], deletes: [], writes: [] }));
}

function casLoop(call: LeaseCall, decide: Decide): LeaseResult {
  const now = call.now ?? Date.now;
  const sleep = call.sleep ?? sleepSync;
  const started = now();
  for (let tries = 1; ; tries++) {
    const seen = fetchLeases(call);
    if ("failure" in seen) return { ok: false, failure: seen.failure };
    const step = seen.old
      ? migrate(call, seen.held, seen.old, now())
      : attempt(call, seen.held, decide, now());
    if (step.kind === "done") return { ok: true, ...step.result, tries };
    if (step.kind === "failed") return { ok: false, failure: { ...step.failure, remote: call.remote } };
    if (step.kind === "stale" && now() - started > PATIENCE_MS)
      return { ok: false, failure: { kind: "contended", remote: call.remote, tries } };
    // Jittered backoff after a lost race: racers spread out instead of colliding again in step.
    if (step.kind === "stale") sleep(Math.floor(Math.random() * Math.min(1000, 20 * 2 ** tries)) + 5);
  }
}

type Step =
  | { kind: "done"; result: { won: string[]; lost: { path: string; by: Lease }[]; now: LeaseView } }
  | { kind: "stale" }
  | { kind: "again" }
  | { kind: "failed"; failure: { kind: "unreachable" | "refused"; reason: string } };

type LeaseView = { text: string; commit: string };

function attempt(call: LeaseCall, held: readonly HeldLease[], decide: Decide, at: number): Step {
  const plan = decide(held, at);
  if (plan.deletes.length > 0) {
    // Deletes go first: git cannot delete `src/a.ts` and create `src` in one transaction.
    const r = pushRefs(
      call,
      plan.deletes.map((h) => ({ ref: leaseRef(h.lease.path), commit: null, expected: h.commit })),
    );
    if (r.kind !== "ok") return outcomeStep(r);
    forgetMine(
      call.repo,
      plan.deletes.map((h) => h.lease.path),
    );
  }
  const written = plan.writes.map((w) => ({ ...w, commit: leaseCommit(call.repo, w.lease) }));
  if (written.length > 0) {
    const r = pushRefs(
      call,
      written.map((w) => ({ ref: leaseRef(w.lease.path), commit: w.commit, expected: w.expected })),
    );
    if (r.kind !== "ok") return outcomeStep(r);
    for (const w of written) gitStatus(call.repo, ["update-ref", mineRef(w.lease.path), w.commit]);
  }
  const gone = new Set(plan.deletes.map((h) => h.lease.path));
  const replaced = new Set(written.map((w) => w.lease.path));
  const after = [
    ...held.filter((h) => !gone.has(h.lease.path) && !replaced.has(h.lease.path)),
    ...written.map((w) => ({ lease: w.lease, commit: w.commit })),
  ];
  return { kind: "done", result: { won: plan.won, lost: plan.lost, now: leaseView(after) } };
}

/** Writes the old document's live leases as refs and deletes it, in one atomic push. */
function migrate(
  call: LeaseCall,
  held: readonly HeldLease[],
  old: { doc: LeaseDoc; commit: string },
  at: number,
): Step {
  const leases = migratedLeases(old.doc.leases, held, at);
  const updates = [
    ...leases.map((l) => ({ ref: leaseRef(l.path), commit: leaseCommit(call.repo, l), expected: null })),
    { ref: OLD_LEASES_REF, commit: null, expected: old.commit },
  ];
  const r = pushRefs(call, updates);
  return r.kind === "ok" ? { kind: "again" } : outcomeStep(r);
}

function outcomeStep(r: ReturnType<typeof atomicOutcome>): Step {
  if (r.kind === "stale") return { kind: "stale" };
  if (r.kind === "ok") return { kind: "again" };
  return { kind: "failed", failure: r };
}

export function leaseView(held: readonly HeldLease[]): LeaseView {
  const doc: LeaseDoc = { format: LEASES_FORMAT, leases: held.map((h) => h.lease) };
  const commit = held
    .map((h) => h.commit.slice(0, 12))
    .sort()
    .join(",");
  return { text: leasesText(doc), commit: `refs:${held.length}:${commit.slice(0, 200)}` };
}

function leaseCommit(repo: string, lease: Lease): string {
  return writeDocCommit(repo, LEASE_FILE, leaseFileText(lease), `tandem lease ${lease.path}`);
}

const mineRef = (path: string) => `${MINE_LEASE_PREFIX}${leaseRef(path).slice(LEASE_PREFIX.length)}`;

function forgetMine(repo: string, paths: readonly string[]): void {
  for (const p of paths) gitStatus(repo, ["update-ref", "-d", mineRef(p)]);
}

/** The lease refs under `prefix` in the local repository, read in one batch. */
export function readHeld(repo: string, prefix: string = SEEN_LEASE_PREFIX): HeldLease[] {
  const refs = listRefs(repo, prefix);
  const texts = readDocs(
    repo,
    refs.map((r) => r.commit),
    LEASE_FILE,
  );
  return refs.map((r, i) => {
    const text = texts[i];
    const lease = text ? parseLeaseFile(text) : null;
    const path = pathOfRef(r.ref, prefix) ?? r.ref;
    // A ref Tandem cannot read (a newer format, or damaged) holds its path: never taken over
    // silently. The ref's name says which path a lease holds, whatever its file says.
    return { commit: r.commit, lease: lease ? { ...lease, path } : unreadable(path) };
  });
}

function unreadable(path: string): Lease {
  return {
    path,
    checkout: "?",
    checkoutName: "an unreadable lease ref (a newer Tandem, or damaged)",
    session: null,
    task: null,
    expires: 8_640_000_000_000_000, // the last date JavaScript can show
  };
}

/** The old single leases document as this clone last fetched it, if the remote still had one. */
export function readOldLeases(repo: string): { doc: LeaseDoc; commit: string } | null | "unreadable" {
  const ref = listRefs(repo, SEEN_OLD_LEASES).find((r) => r.ref === SEEN_OLD_LEASES);
  if (!ref) return null;
  const text = readDocs(repo, [ref.commit], "leases.json")[0] ?? null;
  const doc = text === null ? null : parseLeases(text);
  return doc ? { doc, commit: ref.commit } : "unreadable";
}

function fetchLeases(
  call: LeaseCall,
): { held: HeldLease[]; old: { doc: LeaseDoc; commit: string } | null } | { failure: LeaseFailure } {
  const res = run(call, [
    ...["fetch", "--quiet", "--no-tags", "--no-write-fetch-head", "--prune"],
    call.remote,
    LEASE_REFSPEC,
  ]);
  if (res.status !== 0)
    return { failure: { kind: "unreachable", remote: call.remote, reason: firstError(res.stderr) } };
  const old = readOldLeases(call.repo);
  if (old === "unreadable") {
    const reason = `${OLD_LEASES_REF} holds no leases document Tandem can read (a newer Tandem, or damaged)`;
    return { failure: { kind: "unreadable", remote: call.remote, reason } };
  }
  return { held: readHeld(call.repo), old };
}

interface RefUpdate {
  ref: string;
  /** null: delete the ref. */
  commit: string | null;
  /** What the ref must hold on the remote for the push to apply; null: it must not exist. */
  expected: string | null;
}

function pushRefs(call: LeaseCall, updates: readonly RefUpdate[]) {
  const res = run(call, [
    ...["push", "--porcelain", "--no-verify", "--atomic"],
    ...updates.map((u) => `--force-with-lease=${u.ref}:${u.expected ?? ""}`),
    call.remote,
    ...updates.map((u) => `${u.commit ?? ""}:${u.ref}`),
  ]);
  return atomicOutcome(
    res.status,
    res.stdout,
    res.stderr,
    updates.map((u) => u.ref),
  );
}

/**
 * At a sync: this clone's live leases that the remote lost (a forced push deleted or rewrote
 * their refs) are written back with their expiry, unless another checkout took the path meanwhile
 * (decision 0023). `held` is what the round fetched. Null when nothing was missing.
 */
export function republishOwn(
  call: LeaseCall,
  checkout: string,
  held: readonly HeldLease[],
): LeaseResult | null {
  adoptOldMine(call.repo, checkout);
  const at = (call.now ?? Date.now)();
  const mine = readHeld(call.repo, MINE_LEASE_PREFIX);
  const expired = mine.filter((m) => m.lease.expires < at - 60_000).map((m) => m.lease.path);
  forgetMine(call.repo, expired);
  const missing = missingLeases(
    mine.map((m) => m.lease),
    held,
    checkout,
    at,
  );
  if (missing.length === 0) return null;
  const result = casLoop(call, (now, t) => planLeases(now, missingLeases(missing, now, checkout, t), t));
  if (result.ok)
    forgetMine(
      call.repo,
      result.lost.map((l) => l.path),
    );
  return result;
}

/** The old single "mine" document of this clone becomes per-path refs, once. */
function adoptOldMine(repo: string, checkout: string): void {
  const at = gitStatus(repo, ["rev-parse", "--verify", "-q", OLD_MINE]).stdout.trim();
  if (at === "") return;
  const text = readDocs(repo, [at], "leases.json")[0] ?? null;
  for (const l of (text ? parseLeases(text)?.leases : null) ?? []) {
    if (l.checkout === checkout) git(repo, ["update-ref", mineRef(l.path), leaseCommit(repo, l)]);
  }
  gitStatus(repo, ["update-ref", "-d", OLD_MINE]);
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
