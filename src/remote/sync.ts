import type { Config } from "../config/schema.js";
import type { HeldLease } from "../core/remote/lease-plan.js";
import { type LeaseDoc, parseLeases } from "../core/remote/leases.js";
import { type PresenceDoc, parsePresence, presenceText } from "../core/remote/presence.js";
import {
  type SyncStage,
  shouldBeat,
  shouldPublish,
  staleCheckouts,
  syncFix,
} from "../core/remote/sync-plan.js";
import { git, gitStatus } from "../git/run.js";
import type { Db } from "../store/db.js";
import { type RoundRecord, recordRound } from "../store/remote/rows.js";
import { ALIVE_REFS, ALIVE_REFSPEC, readBeats, SEEN_ALIVE, seenBeat, withBeats } from "./beats.js";
import { checkoutIdentity } from "./checkout.js";
import {
  LEASE_REFSPEC,
  type LeaseFailure,
  leaseView,
  readHeld,
  readOldLeases,
  republishOwn,
  settleLeases,
} from "./leases.js";
import { listRefs, readDocs, remoteOf, writeDocCommit } from "./objects.js";
import { buildPresence } from "./presence-doc.js";

export const PRESENCE_REFS = "refs/tandem/presence/";
export const SEEN_PRESENCE = "refs/tandem/seen/presence/";

export interface SyncResult {
  ok: boolean;
  remote: string | null;
  /** Other checkouts whose presence was fetched. */
  seen: { id: string; name: string; published: number }[];
  leases: LeaseDoc | null;
  published: boolean;
  /** This clone's leases put back after a sync found them gone from the remote (decision 0023). */
  republished: string[];
  /** Of those, paths another clone reserved in the meantime: this clone no longer holds them. */
  republishLost: string[];
  pruned: { id: string; name: string }[];
  error: { stage: SyncStage; message: string; fix: string } | null;
  ms: number;
}

export interface SyncOptions {
  root: string;
  /** Top of the working tree at `root`: the checkout's readable name. */
  top: string;
  stateDir: string;
  config: Config;
  prune?: boolean;
  now?: () => number;
  /** Doctor as whoever runs the round starts it (decision 0051), for a round the store could not record. */
  doctor: string;
}

class RoundError extends Error {
  constructor(
    readonly stage: SyncStage,
    message: string,
  ) {
    super(message);
  }
}

/** A network git call: killed after the timeout; any failure becomes the round's error. */
function network(stage: SyncStage, root: string, args: string[], timeoutMs: number): void {
  let r: { status: number; stderr: string };
  try {
    r = gitStatus(root, args, { timeoutMs });
  } catch (err) {
    const detail = (err as Error).message.includes("ETIMEDOUT")
      ? `timed out after ${timeoutMs / 1000}s`
      : (err as Error).message;
    throw new RoundError(stage, `git ${args[0]}: ${detail}`);
  }
  if (r.status !== 0)
    throw new RoundError(stage, r.stderr.trim().slice(-800) || `git ${args[0]} exit ${r.status}`);
}

function fetchDocs(root: string, remote: string, timeoutMs: number) {
  network(
    "fetch",
    root,
    [
      ...["fetch", "--no-tags", "--no-write-fetch-head", "--no-recurse-submodules", "--prune", "--quiet"],
      remote,
      `+${PRESENCE_REFS}*:${SEEN_PRESENCE}*`,
      ALIVE_REFSPEC,
      LEASE_REFSPEC,
    ],
    timeoutMs,
  );
  const refs = listRefs(root, SEEN_PRESENCE);
  const beats = readBeats(root);
  const docs = readDocs(
    root,
    refs.map((r) => r.commit),
    "presence.json",
  ).flatMap((t) => (t === null ? [] : (parsePresence(t) ?? [])));
  const presence = withBeats(docs, beats);
  const held = readHeld(root);
  const old = readOldLeases(root);
  const leases: { text: string; commit: string } | null = held.length > 0 ? leaseView(held) : null;
  // An old document Tandem cannot read is left alone here; `tandem reserve` reports it.
  return { presence, leases, held, beats, oldLeases: old !== null && old !== "unreadable" };
}

/**
 * One sync round (docs/decisions/0014, 0062): fetch every presence document, beat and lease, store
 * them, publish this checkout's presence when it changed and move its beat (no object), migrate an
 * old leases document, and with `prune` delete the refs of
 * checkouts silent longer than `remote.pruneDays`. Never throws: a failure is recorded in
 * `remote_sync` with git's words and returned with the fix.
 */
export function syncRound(db: Db, opts: SyncOptions): SyncResult {
  const now = opts.now ?? Date.now;
  const started = now();
  const c = opts.config;
  const timeoutMs = c.remoteTimeoutSeconds * 1000;
  const result: SyncResult = {
    ok: false,
    remote: null,
    seen: [],
    leases: null,
    published: false,
    republished: [],
    republishLost: [],
    pruned: [],
    error: null,
    ms: 0,
  };
  let read: ReturnType<typeof fetchDocs> | null = null;
  try {
    result.remote = remoteOf(opts.root, c.remoteName);
    const remote = result.remote;
    if (!remote)
      throw new RoundError(
        "remote",
        c.remoteName ? `no remote named ${c.remoteName}` : "no remote to share through",
      );
    const me = checkoutIdentity(opts.stateDir, opts.top);
    read = fetchDocs(opts.root, remote, timeoutMs);
    const docs = read.presence;
    result.seen = docs
      .filter((d) => d.checkout.id !== me.id)
      .map((d) => ({ id: d.checkout.id, name: d.checkout.name, published: d.published }));
    if (read.oldLeases) {
      read.leases = migrateLeases(opts.root, remote, timeoutMs);
      read.held = readHeld(opts.root); // the migration fetched the refs it wrote
    }
    result.leases = read.leases ? parseLeases(read.leases.text) : null;
    const back = republish(opts.root, remote, me.id, read.held, timeoutMs);
    result.republished = back.won;
    result.republishLost = back.lost;
    const mine = buildPresence(db, {
      checkout: me,
      root: opts.root,
      freshnessSeconds: c.freshnessSeconds,
      now: now(),
    });
    const onRemote = docs.find((d) => d.checkout.id === me.id) ?? null;
    const changed = shouldPublish(mine, onRemote);
    const beat = read.beats.get(me.id) ?? null;
    if (changed || shouldBeat(beat?.at ?? null, c.remoteIntervalSeconds * 1000, now())) {
      const kept = changed || !onRemote ? mine : onRemote;
      const at = Math.max(now(), (beat?.at ?? 0) + 1);
      publish(opts.root, remote, { doc: kept, changed, at, oldBeats: beat?.refs ?? [] }, timeoutMs);
      read.presence = [...docs.filter((d) => d.checkout.id !== me.id), { ...kept, alive: at }];
      result.published = changed;
    }
    if (opts.prune) {
      const stale = staleCheckouts(docs, me.id, c.remotePruneDays * 86_400_000, now());
      prune(opts.root, remote, stale, timeoutMs);
      const gone = new Set(stale.map((d) => d.checkout.id));
      read.presence = read.presence.filter((d) => !gone.has(d.checkout.id));
      result.seen = result.seen.filter((s) => !gone.has(s.id));
      result.pruned = stale.map((d) => ({ id: d.checkout.id, name: d.checkout.name }));
    }
    result.ok = true;
  } catch (err) {
    const stage = err instanceof RoundError ? err.stage : "fetch";
    const message = err instanceof Error ? err.message : String(err);
    result.error = { stage, message, fix: syncFix(stage, message, result.remote, c.remoteTimeoutSeconds) };
  }
  result.ms = now() - started;
  return recordResult(db, read, result, started, opts.doctor);
}

/**
 * Stores a round's outcome, whichever engine ran it: what it read (null keeps the last round's)
 * and the sync row. The store busy or damaged fails the result; the next round records again.
 */
export function recordResult(
  db: Db,
  read: RoundRecord["read"],
  result: SyncResult,
  started: number,
  doctor: string,
): SyncResult {
  try {
    recordRound(db, {
      read,
      sync: {
        remote: result.remote,
        last_attempt: started,
        last_success: result.ok ? started : null,
        last_error: result.error ? `${result.error.message}\n${result.error.fix}` : null,
      },
    });
  } catch (err) {
    result.error ??= {
      stage: "fetch",
      message: `recording the round: ${(err as Error).message}`,
      fix: `run \`${doctor}\`.`,
    };
    result.ok = false;
  }
  return result;
}

/** This clone's leases that the remote lost, pushed back; a failure fails the round with git's words. */
function republish(
  root: string,
  remote: string,
  checkout: string,
  seen: readonly HeldLease[],
  timeoutMs: number,
): { won: string[]; lost: string[] } {
  const r = republishOwn({ repo: root, remote, timeoutMs }, checkout, seen);
  if (r === null) return { won: [], lost: [] };
  if (!r.ok)
    throw new RoundError("publish", `putting back this clone's reservations: ${failureText(r.failure)}`);
  return { won: r.won, lost: r.lost.map((l) => l.path) };
}

function failureText(f: LeaseFailure): string {
  return "reason" in f ? f.reason : `the leases ref kept changing (${f.tries} tries)`;
}

/**
 * Pushes this checkout's presence (when it changed) and moves its beat ref, in one push: the beat
 * is a new ref name on the document's commit, so a round that changes nothing creates no object.
 */
function publish(
  root: string,
  remote: string,
  p: { doc: PresenceDoc; changed: boolean; at: number; oldBeats: string[] },
  timeoutMs: number,
): void {
  const id = p.doc.checkout.id;
  const { alive: _, ...doc } = p.doc;
  const commit = p.changed
    ? writeDocCommit(root, "presence.json", presenceText(doc), `tandem presence of ${doc.checkout.name}`)
    : git(root, ["rev-parse", "--verify", `${SEEN_PRESENCE}${id}^{commit}`]).trim();
  const beat = `${ALIVE_REFS}${id}/${p.at}`;
  const refspecs = [
    ...(p.changed ? [`+${commit}:${PRESENCE_REFS}${id}`] : []),
    `${commit}:${beat}`,
    ...p.oldBeats.map((r) => `:${r}`),
  ];
  network("publish", root, ["push", "--no-verify", "--quiet", remote, ...refspecs], timeoutMs);
  git(root, ["update-ref", `${SEEN_PRESENCE}${id}`, commit]);
  for (const r of p.oldBeats)
    git(root, ["update-ref", "-d", `refs/tandem/seen/${r.slice("refs/tandem/".length)}`]);
  git(root, ["update-ref", `${SEEN_ALIVE}${id}/${p.at}`, commit]);
}

/** The remote still had the leases document of an older Tandem: it becomes per-path refs now. */
function migrateLeases(root: string, remote: string, timeoutMs: number): { text: string; commit: string } {
  const r = settleLeases({ repo: root, remote, timeoutMs });
  if (!r.ok)
    throw new RoundError(
      "publish",
      `moving the old leases document to per-path refs: ${failureText(r.failure)}`,
    );
  return r.now;
}

function prune(root: string, remote: string, stale: readonly PresenceDoc[], timeoutMs: number): void {
  if (stale.length === 0) return;
  const beats = readBeats(root);
  const refs = stale.flatMap((d) => [
    `:${PRESENCE_REFS}${d.checkout.id}`,
    ...(beats.get(d.checkout.id)?.refs ?? []).map((r) => `:${r}`),
  ]);
  network("prune", root, ["push", "--no-verify", "--quiet", remote, ...refs], timeoutMs);
  for (const d of stale) git(root, ["update-ref", "-d", `${SEEN_PRESENCE}${d.checkout.id}`]);
  for (const d of stale)
    for (const r of beats.get(d.checkout.id)?.refs ?? []) git(root, ["update-ref", "-d", seenBeat(r)]);
}
