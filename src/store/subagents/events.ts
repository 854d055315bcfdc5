import * as z from "zod/mini";
import { CLIENT_NAMES } from "../../clients/index.js";

const sha = () => z.string().check(z.regex(/^(?:[0-9a-f]{40}|[0-9a-f]{64})$/));
const blob = () => z.nullable(z.string().check(z.regex(/^[0-9a-f]{64}$/)));
const count = () => z.number().check(z.int(), z.nonnegative());
const paths = () => z.array(z.string());
const uncaptured = () => z.array(z.object({ reason: z.string(), paths: paths() }));
const stage = () => z.enum(["am-started", "commits-applied", "worktree-started"]);
/** A patch path and the blob it had in the target just before the uncommitted patch (null: absent). */
const preApply = () => z.array(z.object({ path: z.string(), blob: z.nullable(z.string()) }));

/** A git operation the child stopped in the middle of (src/subagents/capture/operation.ts). */
const inProgress = () =>
  z.object({
    operation: z.enum(["rebase", "am", "merge", "cherry-pick", "revert", "bisect", "sequencer"]),
    branch: z.nullable(z.string()),
    onto: z.nullable(z.string()),
    origHead: z.nullable(z.string()),
    incoming: z.nullable(z.string()),
    conflicted: paths(),
  });

/** The commit series offered to one target whose earlier apply moved its base (docs/product.md §7.2). */
const series = () =>
  z.object({
    target: z.string(),
    base: sha(),
    commitCount: count(),
    mboxBlob: blob(),
    mboxBytes: count(),
    /** Why no series could be made for this target; apply there refuses until a new capture. */
    error: z.nullable(z.string()),
  });

/**
 * Which sub-agent, which capture, which target: the key of every apply event; `by` is the
 * process that wrote it, so a concurrent apply can say who it lost to.
 */
const applyKey = () => ({
  id: z.string(),
  captureId: z.string(),
  target: z.string(),
  by: z.optional(z.object({ pid: count(), start: z.nullable(z.string()) })),
});

/** Event kinds of fork-isolated sub-agents (docs/product.md §7), merged into the ledger's schema factories. */
export const SUBAGENT_EVENT_SCHEMAS = {
  "subagent.created": () =>
    z.object({
      id: z.string(),
      name: z.nullable(z.string()),
      client: z.enum([...CLIENT_NAMES, "exec"]),
      parentSession: z.nullable(z.string()),
      childSession: z.nullable(z.string()),
      /** The caller's checkout: the default target of `--apply`. */
      origin: z.string(),
      worktree: z.string(),
      branch: z.string(),
      base: sha(),
      baseRef: z.string(),
      args: z.array(z.string()),
      log: z.string(),
      runnerPid: z.nullable(z.number()),
      runnerStart: z.nullable(z.string()),
    }),
  "subagent.spawned": () => z.object({ id: z.string(), pid: z.number(), pidStart: z.nullable(z.string()) }),
  "subagent.exited": () =>
    z.object({
      id: z.string(),
      exitCode: z.nullable(z.number()),
      signal: z.nullable(z.string()),
      reason: z.enum(["exited", "signal", "interrupted", "timeout", "spawn-failed"]),
      message: z.nullable(z.string()),
    }),
  "capture.recorded": () =>
    z.object({
      id: z.string(),
      captureId: z.string(),
      ok: z.boolean(),
      base: sha(),
      head: z.nullable(sha()),
      commitCount: count(),
      mboxBlob: blob(),
      mboxBytes: count(),
      patchBlob: blob(),
      patchBytes: count(),
      hadUncommittedChanges: z.boolean(),
      dirtyPaths: paths(),
      /** The uncommitted patch's paths, as captured; absent in captures recorded before it was kept. */
      patchPaths: z.optional(z.nullable(paths())),
      uncaptured: uncaptured(),
      series: z.array(series()),
      /** Absent in captures recorded before it was looked for; read as none. */
      inProgress: z.optional(z.nullable(inProgress())),
      /** Paths the uncommitted patch fills with conflict markers; absent in older captures. */
      conflictMarkers: z.optional(paths()),
    }),
  "apply.staged": () =>
    z.object({
      ...applyKey(),
      stage: stage(),
      /** HEAD before anything of this apply touched the target. */
      fence: sha(),
      seriesBase: sha(),
      seriesBlob: blob(),
      /** HEAD once the commit series is in (null while it is not). */
      amHead: z.nullable(sha()),
      stagedBefore: z.optional(paths()),
      preApply: z.optional(preApply()),
    }),
  "apply.failed": () =>
    z.object({
      ...applyKey(),
      stage: stage(),
      message: z.string(),
      failingCommit: z.nullable(z.string()),
      paths: paths(),
      /** What the marker becomes: cleared, back to commits-applied, or kept as it was (fail closed). */
      next: z.enum(["none", "commits-applied", "unchanged"]),
    }),
  "apply.blocked": () => z.object({ ...applyKey(), paths: paths(), message: z.string() }),
  "apply.acknowledged": () =>
    z.object({
      ...applyKey(),
      what: z.enum(["uncaptured", "partial"]),
      detail: z.string(),
    }),
  "apply.completed": () =>
    z.object({
      ...applyKey(),
      fence: sha(),
      seriesBase: sha(),
      postHead: sha(),
      /** The child commit the target now contains; the base of later series for this target. */
      appliedChildHead: sha(),
      commitsApplied: count(),
      patchApplied: z.boolean(),
      partial: z.boolean(),
      preApply: preApply(),
    }),
  "subagent.removed": () => z.object({ id: z.string(), worktree: z.string(), branch: z.string() }),
  "subagent.discarded": () =>
    z.object({
      id: z.string(),
      worktree: z.string(),
      branch: z.string(),
      /** What the latest capture did not hold, now gone for good. */
      lost: uncaptured(),
    }),
} as const;
