import { randomBytes } from "node:crypto";
import { utimesSync } from "node:fs";
import { join } from "node:path";
import { CLIENT_NAMES } from "../../src/clients/index.js";
import { ensureSession } from "../../src/sessions/register.js";
import { writeBlob } from "../../src/store/blobs/files.js";
import type { Db, WriteTx } from "../../src/store/db.js";
import { append, write } from "../../src/store/ledger/append.js";
import { rng } from "./ledger-gen.js";

/** The shape of a generated history; `yearShape()` is the "a year of four agents". */
export interface HistoryShape {
  sessions: number;
  /** Distinct files each session claims (and commits): one claim_history row each. */
  pathsPerSession: number;
  /** Other events per session (prompts, tool calls, tasks, stops, touched files). */
  chatterPerSession: number;
  /** Sub-agents started, captured, applied and removed over the period. */
  subagents: number;
  subagentPatchBytes: number;
  /** Versions of peers' files the safety net preserved over the period. */
  preserved: number;
  preservedBytes: number;
  /** How far back the history starts; every session has ended by `now - endedBeforeMs`. */
  days: number;
  endedBeforeMs: number;
  /**
   * Owner versions kept (decision 0020): each session's first `keptFiles` files kept once each by
   * its own Writes, and every `churnEvery`-th session's next file rewritten `churnVersions` times
   * (past `retention.versionsPerFile`, so the policy has middle versions to let go); every tenth
   * such file was clobbered once on the way (a version the policy must keep). Absent: none.
   */
  kept?: { keptFiles: number; churnEvery: number; churnVersions: number; bytes: number };
}

/** 20,000 ended sessions, 300,000 claim-history rows, about 1,000,000 events. */
export function yearShape(): HistoryShape {
  return {
    sessions: 20_000,
    pathsPerSession: 15,
    chatterPerSession: 18,
    subagents: 200,
    subagentPatchBytes: 256 * 1024,
    preserved: 400,
    preservedBytes: 16 * 1024,
    days: 365,
    endedBeforeMs: 3_600_000,
    kept: { keptFiles: 2, churnEvery: 25, churnVersions: 30, bytes: 512 },
  };
}

export const GEN_WORKTREE = "/work/repo";
const DAY = 86_400_000;
const SHA = (n: number) => n.toString(16).padStart(40, "0");

export interface GeneratedHistory {
  events: number;
  sessions: string[];
  blobBytes: number;
  /** Owner versions kept (work.preserved, reason owner or clobbered), and clobbers recorded. */
  keptVersions: number;
  clobbers: number;
}

/**
 * Appends a history of ended sessions through the store's own append path (so every
 * projection is what real hooks would have left), oldest first, spread evenly over
 * `shape.days`. Sessions claim files, commit them (release), touch files through the
 * shell, chat, and end; some take over a stale peer's claim; some start sub-agents
 * whose captures are applied and removed; the safety net preserves peers' files.
 * Blobs are real files in `blobsDir`. Deterministic for a seed.
 */
export function generateHistory(
  db: Db,
  blobsDir: string,
  shape: HistoryShape,
  now = Date.now(),
  seed = 11,
): GeneratedHistory {
  const rand = rng(seed);
  const start = now - shape.days * DAY;
  const span = shape.days * DAY - shape.endedBeforeMs;
  const out: GeneratedHistory = { events: 0, sessions: [], blobBytes: 0, keptVersions: 0, clobbers: 0 };
  const subEvery = shape.subagents > 0 ? Math.max(1, Math.floor(shape.sessions / shape.subagents)) : 0;
  const preserveEvery = shape.preserved > 0 ? Math.max(1, Math.floor(shape.sessions / shape.preserved)) : 0;
  const BATCH = 25;
  for (let first = 0; first < shape.sessions; first += BATCH) {
    write(db, (tx) => {
      for (let i = first; i < Math.min(shape.sessions, first + BATCH); i++) {
        const t0 = start + Math.floor((span * i) / shape.sessions);
        const ctx = { db: tx, rand, t0, blobsDir, shape, out };
        const id = oneSession(ctx, i);
        if (subEvery && i % subEvery === subEvery - 1) oneSubagent(ctx, id, i);
        if (preserveEvery && i % preserveEvery === preserveEvery - 1 && out.sessions.length > 1)
          onePreserved(ctx, id, out.sessions[out.sessions.length - 2]!, i);
      }
    });
  }
  return out;
}

interface GenCtx {
  db: WriteTx;
  rand: () => number;
  t0: number;
  blobsDir: string;
  shape: HistoryShape;
  out: GeneratedHistory;
}

function emit(ctx: GenCtx, ev: Parameters<typeof append>[1], minute: number): void {
  append(ctx.db, { ...ev, ts: ctx.t0 + minute * 60_000 });
  ctx.out.events++;
}

function oneSession(ctx: GenCtx, i: number): string {
  const { rand, shape } = ctx;
  const client = CLIENT_NAMES[i % CLIENT_NAMES.length]!;
  const { session } = ensureSession(
    ctx.db,
    {
      client,
      nativeId: `year-${i}`,
      kind: "session",
      parentId: null,
      agentPid: null,
      agentPidStart: null,
      cwd: GEN_WORKTREE,
    },
    ctx.t0,
  );
  ctx.out.events++;
  const s = session.id;
  const previous = ctx.out.sessions[ctx.out.sessions.length - 1];
  ctx.out.sessions.push(s);
  const paths = Array.from(
    { length: shape.pathsPerSession },
    (_, k) => `src/dir-${(i + k) % 97}/file-${Math.floor(rand() * 5000)}-${k}.ts`,
  );
  // Every 50th session crashed holding one claim; the next one takes that file over.
  const takeover = i % 50 === 0 && previous ? `src/dir-${(i - 1) % 97}/held-${i - 1}.ts` : null;
  const leaves = i % 50 === 49 ? `src/dir-${i % 97}/held-${i}.ts` : null;
  if (takeover) paths[0] = takeover;
  if (leaves) paths[paths.length - 1] = leaves;
  let minute = 1;
  emit(ctx, { kind: "task.set", session: s, data: { text: `task ${i}` } }, minute++);
  for (const [k, path] of paths.entries()) {
    // Now and then the stale claim of the previous session is taken over first.
    if (k === 0 && takeover) {
      emit(
        ctx,
        {
          kind: "claim.released",
          session: s,
          data: { worktree: GEN_WORKTREE, path, reason: "stale_takeover", holder: previous! },
        },
        minute++,
      );
    }
    emit(
      ctx,
      {
        kind: "claim.acquired",
        session: s,
        data: { worktree: GEN_WORKTREE, path, disposition: "git", root: GEN_WORKTREE },
      },
      minute++,
    );
  }
  chatter(ctx, s, i, paths, minute);
  if (shape.kept) keptVersions(ctx, s, i, paths, minute, shape.kept);
  minute += shape.chatterPerSession;
  for (const path of paths) {
    if (path === leaves) continue;
    emit(
      ctx,
      { kind: "claim.released", session: s, data: { worktree: GEN_WORKTREE, path, reason: "commit" } },
      minute++,
    );
  }
  emit(ctx, { kind: "session.ended", session: s, data: { reason: "exit" } }, minute);
  return s;
}

function chatter(ctx: GenCtx, s: string, i: number, paths: readonly string[], from: number): void {
  for (let k = 0; k < ctx.shape.chatterPerSession; k++) {
    const path = paths[k % paths.length]!;
    const minute = from + k;
    switch (k % 6) {
      case 0:
        emit(
          ctx,
          {
            kind: "prompt.submitted",
            session: s,
            data: { text: `prompt ${i}.${k}`, bytes: 12, truncated: false, remediation: false },
          },
          minute,
        );
        break;
      case 1:
        emit(
          ctx,
          {
            kind: "tool.requested",
            session: s,
            data: { tool: "Write", targets: [path], inputBytes: 200, inputDigest: "0123abcd" },
          },
          minute,
        );
        break;
      case 2:
        emit(ctx, { kind: "tool.completed", session: s, data: { tool: "Write" } }, minute);
        break;
      case 3:
        emit(
          ctx,
          {
            kind: "files.touched",
            session: s,
            data: { worktree: GEN_WORKTREE, paths: [`gen/out-${i}-${k}.txt`], via: "shell" },
          },
          minute,
        );
        break;
      case 4:
        emit(ctx, { kind: "status.checked", session: s, data: { end_turn: true } }, minute);
        break;
      default:
        emit(
          ctx,
          {
            kind: "turn.stopped",
            session: s,
            data: { verdict: "pass", rule: null, enforcement: "enforced" },
          },
          minute,
        );
    }
  }
}

/**
 * The versions a session's own Writes kept of its files, as the watch records them (safety/keep.ts):
 * one each of the first files, many of one churned file, a clobber now and then.
 */
function keptVersions(
  ctx: GenCtx,
  s: string,
  i: number,
  paths: readonly string[],
  minute: number,
  kept: NonNullable<HistoryShape["kept"]>,
): void {
  const version = (path: string, v: number, reason: "owner" | "clobbered") => {
    // Many blobs: written as a copy (no fsync each), as the watch copies a file still in the tree.
    const blob = oldBlob(ctx, kept.bytes, minute, "copy");
    const data = { worktree: GEN_WORKTREE, path, owner: s, version: v, blob: blob.sha256, bytes: blob.bytes };
    const stamp = `${blob.bytes}:${ctx.t0 + minute * 60_000}:33188:${ctx.t0 + minute * 60_000}:${i * 100 + v}`;
    emit(ctx, { kind: "work.preserved", session: s, data: { ...data, stamp, reason } }, minute);
    ctx.out.keptVersions++;
  };
  for (const path of paths.slice(0, kept.keptFiles)) version(path, 1, "owner");
  if (kept.churnEvery <= 0 || i % kept.churnEvery !== 0) return;
  const path = paths[kept.keptFiles]!;
  const clobberAt = (i / kept.churnEvery) % 10 === 0 ? Math.floor(kept.churnVersions / 3) : -1;
  for (let v = 1; v <= kept.churnVersions; v++) {
    version(path, v, v === clobberAt + 1 ? "clobbered" : "owner");
    if (v !== clobberAt + 1) continue;
    const data = { worktree: GEN_WORKTREE, path, owner: s, actor: null, version: clobberAt };
    emit(
      ctx,
      { kind: "work.clobbered", session: s, data: { ...data, change: "changed", via: "watch" } },
      minute,
    );
    ctx.out.clobbers++;
  }
}

/** A blob stored when its event happened, as a real one would have been. */
function oldBlob(ctx: GenCtx, bytes: number, minute: number, durability: "durable" | "copy" = "durable") {
  const ref = writeBlob(ctx.blobsDir, randomBytes(bytes), durability);
  const at = new Date(ctx.t0 + minute * 60_000);
  utimesSync(join(ctx.blobsDir, ref.sha256), at, at);
  ctx.out.blobBytes += ref.bytes;
  return ref;
}

/** A sub-agent of session `s`: created, exited, captured (a real patch blob), applied, removed. */
function oneSubagent(ctx: GenCtx, s: string, i: number): void {
  const id = `sub_gen${i}`;
  const patch = oldBlob(ctx, ctx.shape.subagentPatchBytes, 42);
  const worktree = join("/work/wt", id);
  const base = SHA(i + 1);
  const key = { id, captureId: `cap_gen${i}`, target: GEN_WORKTREE };
  const m = 40;
  emit(
    ctx,
    {
      kind: "subagent.created",
      session: s,
      data: {
        id,
        name: `gen-${i}`,
        client: "exec",
        parentSession: s,
        childSession: null,
        origin: GEN_WORKTREE,
        worktree,
        branch: `tandem/gen-${i}`,
        base,
        baseRef: "main",
        args: ["true"],
        log: join(worktree, "log"),
        runnerPid: null,
        runnerStart: null,
      },
    },
    m,
  );
  emit(
    ctx,
    {
      kind: "subagent.exited",
      session: s,
      data: { id, exitCode: 0, signal: null, reason: "exited", message: null },
    },
    m + 1,
  );
  emit(
    ctx,
    {
      kind: "capture.recorded",
      session: s,
      data: {
        id,
        captureId: key.captureId,
        ok: true,
        base,
        head: base,
        commitCount: 0,
        mboxBlob: null,
        mboxBytes: 0,
        patchBlob: patch.sha256,
        patchBytes: patch.bytes,
        hadUncommittedChanges: true,
        dirtyPaths: ["gen.txt"],
        uncaptured: [],
        series: [],
      },
    },
    m + 2,
  );
  emit(
    ctx,
    {
      kind: "apply.completed",
      session: s,
      data: {
        ...key,
        fence: base,
        seriesBase: base,
        postHead: base,
        appliedChildHead: base,
        commitsApplied: 0,
        patchApplied: true,
        partial: false,
        preApply: [],
      },
    },
    m + 3,
  );
  emit(
    ctx,
    { kind: "subagent.removed", session: s, data: { id, worktree, branch: `tandem/gen-${i}` } },
    m + 4,
  );
}

/** Session `actor`'s opaque command made the safety net copy a file of `owner`. */
function onePreserved(ctx: GenCtx, actor: string, owner: string, i: number): void {
  const blob = oldBlob(ctx, ctx.shape.preservedBytes, 45);
  emit(
    ctx,
    {
      kind: "work.preserved",
      session: actor,
      data: {
        worktree: GEN_WORKTREE,
        path: `src/peer-${i}.ts`,
        owner,
        version: 1,
        blob: blob.sha256,
        bytes: blob.bytes,
        stamp: `${blob.bytes}:${i}:33188`,
        reason: "peer-command",
      },
    },
    45,
  );
}
