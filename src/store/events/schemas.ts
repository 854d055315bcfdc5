import * as z from "zod/mini";
import { CLIENT_NAMES } from "../../clients/index.js";
import { LAND_EVENT_SCHEMAS } from "../land/events.js";
import { SUBAGENT_EVENT_SCHEMAS } from "../subagents/events.js";
import { WIRING_EVENT_SCHEMAS } from "../wiring/events.js";
import { HISTORY_EVENT_SCHEMAS } from "./history.js";

/** A registered client, a sub-agent run by `exec`, or a person at the command line. */
const client = () => z.enum([...CLIENT_NAMES, "exec", "cli"]);
const relPath = () => z.string().check(z.minLength(1));
const disposition = () => z.enum(["git", "output"]);

/**
 * One schema per event kind (docs/product.md §4.2), built on first use: constructing
 * every schema up front cost each hook ~5 ms, and a hook validates two or three
 * kinds. The ledger refuses an event whose data does not match, so every stored
 * event is readable by every later version.
 */
const EVENT_SCHEMAS = {
  "session.started": () =>
    z.object({
      client: client(),
      nativeId: z.string().check(z.minLength(1)),
      name: z.string().check(z.minLength(1)),
      kind: z.enum(["session", "subagent"]),
      parentId: z.nullable(z.string()),
      agentPid: z.nullable(z.number()),
      agentPidStart: z.nullable(z.string()),
      /** The UI process the person sees, when Tandem can tell it (src/sessions/ui.ts). */
      uiPid: z.optional(z.nullable(z.number())),
      uiPidStart: z.optional(z.nullable(z.string())),
      cwd: z.nullable(z.string()),
      source: z.optional(z.string()),
    }),
  /** A known session seen from a new UI process (resumed in another terminal). */
  "session.attached": () => z.object({ uiPid: z.number(), uiPidStart: z.nullable(z.string()) }),
  "session.ended": () => z.object({ reason: z.string() }),
  /** An ended session called a hook again (`claude --resume`, `codex resume`): live once more (decision 0029). */
  "session.resumed": () => z.object({ previousEnd: z.number() }),
  "activity.set": () => z.object({ activity: z.enum(["idle", "working", "needs_input"]) }),
  "prompt.submitted": () =>
    z.object({
      text: z.string(),
      bytes: z.number(),
      truncated: z.boolean(),
      remediation: z.boolean(),
      turnId: z.optional(z.nullable(z.string())),
      /** Digest of the live peers shown, so unchanged peers are not repeated on every prompt. */
      peersDigest: z.optional(z.string()),
    }),
  "tool.requested": () =>
    z.object({
      tool: z.string(),
      toolUseId: z.optional(z.nullable(z.string())),
      targets: z.array(z.string()),
      inputBytes: z.number(),
      /** A fast digest of the full input (src/core/digest.ts), not a security hash. */
      inputDigest: z.string(),
    }),
  "tool.completed": () =>
    z.object({
      tool: z.string(),
      toolUseId: z.optional(z.nullable(z.string())),
    }),
  "files.touched": () =>
    z.object({
      worktree: z.string(),
      paths: z.array(relPath()),
      unattributed: z.optional(z.array(relPath())),
      via: z.string(),
    }),
  /** A stash entry a session's shell command created: work the end-turn check must see finalized. */
  "stash.created": () =>
    z.object({ repo: z.string().check(z.minLength(1)), sha: z.string(), message: z.string() }),
  "claim.acquired": () =>
    z.object({ worktree: z.string(), path: relPath(), disposition: disposition(), root: z.string() }),
  "claim.released": () =>
    z.object({
      worktree: z.string(),
      path: relPath(),
      reason: z.enum(["commit", "checkout", "explicit", "forced", "session_end", "stale_takeover"]),
      /** Who forced the release of another session's claim: a session id, or "person". */
      forcedBy: z.optional(z.string()),
      /** The session whose claim ends, when it is not the event's own session (stale takeover). */
      holder: z.optional(z.string()),
    }),
  "claim.denied": () =>
    z.object({
      tool: z.string(),
      refused: z.array(
        z.object({ path: z.string(), reason: z.string(), holder: z.optional(z.nullable(z.string())) }),
      ),
    }),
  "task.set": () => z.object({ text: z.string() }),
  "status.checked": () => z.object({ end_turn: z.boolean() }),
  "turn.stopped": () =>
    z.object({
      verdict: z.enum(["pass", "block"]),
      rule: z.nullable(z.string()),
      enforcement: z.enum(["enforced", "observe_only", "disabled", "fail_open"]),
      reason: z.optional(z.nullable(z.string())),
      missing: z.optional(z.array(z.string())),
    }),
  "hook.error": () =>
    z.object({
      client: z.string(),
      event: z.string(),
      message: z.string(),
      failed: z.enum(["open", "closed"]),
    }),
  /**
   * A command inside one agent's process named another session for something that writes for it
   * (release, task, end of turn, reservation); nothing was done (decision 0021). With no agent
   * among its ancestors and no person's terminal, `actual` is null and `place`/`pid` say where it
   * ran (decision 0045).
   */
  "identity.refused": () =>
    z.object({
      claimed: z.string(),
      actual: z.nullable(z.string()),
      place: z.optional(z.enum(["none", "agent-session"])),
      pid: z.optional(z.number()),
      command: z.string(),
      via: z.enum(["flag", "TANDEM_SESSION", "client-env"]),
    }),
  /**
   * A request from inside a session's kernel jail (its key vouched for it, decision 0064) tried to
   * act for another session or to send a client's hook; nothing was done. `session` is the jail's.
   */
  "jail.refused": () =>
    z.object({
      attempt: z.enum(["hook", "session", "process"]),
      claimed: z.nullable(z.string()),
      command: z.string(),
    }),
  /**
   * A jailed command's write the kernel refused (a path the session's jail made read-only, named in
   * its output), told to the agent by the post-tool hook (issue 36 §5). `why`: whose it was.
   */
  "jail.write.refused": () =>
    z.object({
      tool: z.string(),
      paths: z.array(z.object({ path: z.string(), why: z.string() })),
    }),
  /** `tandem doctor --reset` started this store after the previous one was lost, replaced or corrupt. */
  "store.reset": () =>
    z.object({
      reason: z.string(),
      previousId: z.nullable(z.number()),
      newId: z.number(),
      movedTo: z.nullable(z.string()),
    }),
  "commit.guarded": () =>
    z.object({
      outcome: z.enum(["allowed", "refused", "warned", "bypassed"]),
      paths: z.array(z.object({ path: z.string(), holder: z.string() })),
      /** An agent set TANDEM_BYPASS=1, which only a person may (decision 0050): refused and kept here. */
      bypassRefused: z.optional(z.boolean()),
    }),
  /** A version of a live session's uncommitted file, copied into the blob store (docs/safety-net.md). */
  "work.preserved": () =>
    z.object({
      worktree: z.string(),
      path: relPath(),
      owner: z.string(),
      version: z.number(),
      blob: z.string(),
      bytes: z.number(),
      /** size:mtime:mode:ctime:inode when preserved (size:mtime:mode before issue 37); an unchanged stamp needs no new copy. */
      stamp: z.string(),
      /**
       * peer-command: before another session's command; before-recover: what a recovery replaced;
       * owner: left by the owner's own tool call; clobbered: what replaced a kept version behind
       * its owner's back; recovered: put back by `tandem recover` (decision 0020).
       */
      reason: z.enum(["peer-command", "before-recover", "owner", "clobbered", "recovered"]),
    }),
  /** Another session's command changed or removed a live peer's uncommitted file. */
  "work.clobbered": () =>
    z.object({
      worktree: z.string(),
      path: relPath(),
      owner: z.string(),
      actor: z.nullable(z.string()),
      /** The preserved version holding the owner's bytes from before the change; null if none. */
      version: z.nullable(z.number()),
      change: z.enum(["changed", "removed"]),
      via: z.string(),
    }),
  /** The owner was told of its clobbered files up to this event. */
  "work.noticed": () => z.object({ upToSeq: z.number() }),
  "work.recovered": () =>
    z.object({
      worktree: z.string(),
      path: relPath(),
      owner: z.string(),
      version: z.number(),
      /** The version the bytes found in the file were kept as, when they differed; else null. */
      kept: z.nullable(z.number()),
    }),
  /**
   * A gone session's left work settled (decision 0029): its files were found clean (committed or
   * reverted), or a person discarded them. Its marks on them are no longer left work.
   */
  "work.settled": () =>
    z.object({
      worktree: z.string(),
      owner: z.string(),
      paths: z.array(relPath()),
      reason: z.enum(["clean", "discarded"]),
      /** Of `paths`, those whose claim the owner still held: released by this settle. */
      held: z.optional(z.array(relPath())),
    }),
  ...SUBAGENT_EVENT_SCHEMAS,
  ...HISTORY_EVENT_SCHEMAS,
  ...WIRING_EVENT_SCHEMAS,
  ...LAND_EVENT_SCHEMAS,
} as const;

export type EventKind = keyof typeof EVENT_SCHEMAS;
export type EventData<K extends EventKind> = z.infer<ReturnType<(typeof EVENT_SCHEMAS)[K]>>;

export const EVENT_KINDS = Object.keys(EVENT_SCHEMAS) as EventKind[];

export function isEventKind(kind: string): kind is EventKind {
  return Object.hasOwn(EVENT_SCHEMAS, kind);
}

const built = new Map<EventKind, z.ZodMiniType>();

function schemaOf(kind: EventKind): z.ZodMiniType {
  let schema = built.get(kind);
  if (!schema) {
    schema = EVENT_SCHEMAS[kind]() as z.ZodMiniType;
    built.set(kind, schema);
  }
  return schema;
}

/** Validates data for a kind; returns an error message or null. */
export function checkEventData(kind: string, data: unknown): string | null {
  if (!isEventKind(kind)) return `unknown event kind "${kind}"`;
  const res = schemaOf(kind).safeParse(data);
  if (res.success) return null;
  const issue = res.error.issues[0]!;
  return `${kind}: ${issue.path.map(String).join(".") || "data"}: ${issue.message}`;
}
