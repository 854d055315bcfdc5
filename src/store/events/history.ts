import * as z from "zod/mini";

const seq = () => z.number().check(z.int(), z.nonnegative());
const maybeSeq = () => z.nullable(seq());
const text = () => z.nullable(z.string());

/** A `sessions` row as it stood when its session was compacted. */
const sessionRow = () =>
  z.object({
    id: z.string(),
    client: z.string(),
    nativeId: z.string(),
    name: z.string(),
    kind: z.enum(["session", "subagent"]),
    parentId: text(),
    agentPid: z.nullable(z.number()),
    agentPidStart: text(),
    cwd: text(),
    task: text(),
    activity: z.enum(["idle", "working", "needs_input"]),
    startedSeq: seq(),
    lastSeen: z.number(),
    lastSeq: seq(),
    endedSeq: maybeSeq(),
  });

/**
 * The retention kinds (docs/decisions/0012): what `tandem gc` did, as events, so a rebuild
 * from the ledger reproduces the views it left. Merged into the ledger's schema factories.
 */
export const HISTORY_EVENT_SCHEMAS = {
  /**
   * One ended session's events, summarised: the rows its events had left in the views, the
   * current holder of every file it ever claimed, and what the end-turn check reads of it.
   */
  "session.compacted": () =>
    z.object({
      session: sessionRow(),
      /** Events removed, by kind, and the time they span. */
      counts: z.record(z.string(), z.number()),
      events: z.number(),
      firstTs: z.number(),
      lastTs: z.number(),
      /** [worktree, path, first_seq, last_seq, released_seq, release_reason] */
      claimHistory: z.array(z.tuple([z.string(), z.string(), seq(), seq(), maybeSeq(), text()])),
      /** [worktree, path, first_seq, unattributed] */
      touched: z.array(z.tuple([z.string(), z.string(), seq(), z.number()])),
      /** Other sessions' claim history rows its stale takeovers ended: [session, ...claimHistory row]. */
      holderHistory: z.array(z.tuple([z.string(), z.string(), z.string(), seq(), seq(), maybeSeq(), text()])),
      /** Who holds each file it ever claimed now: [worktree, path, session, disposition, root, acquired_seq]. */
      heldNow: z.array(z.tuple([z.string(), z.string(), z.string(), z.string(), z.string(), seq()])),
      /** Its `stash.created` entries: the end-turn check still looks for them. */
      stashes: z.array(z.object({ repo: z.string(), sha: z.string(), message: z.string() })),
    }),
  /** Preserved versions whose bytes gc deleted: [worktree, path, owner, version]. */
  "work.expired": () =>
    z.object({ versions: z.array(z.tuple([z.string(), z.string(), z.string(), z.number()])) }),
  /** Sub-agents, applied and removed long ago, whose captured artifacts gc deleted. */
  "subagents.expired": () => z.object({ ids: z.array(z.string()) }),
  /** What one `tandem gc` run freed (the retention events above say exactly what). */
  "store.gc": () =>
    z.object({
      olderThanMs: z.number(),
      sessions: z.number(),
      events: z.number(),
      preserved: z.number(),
      subagents: z.number(),
      blobs: z.number(),
      blobBytes: z.number(),
      dbBytesBefore: z.number(),
      dbBytesAfter: z.number(),
    }),
} as const;
