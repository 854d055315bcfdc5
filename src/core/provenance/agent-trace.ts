/**
 * `tandem blame --json` as an Agent Trace record (https://github.com/cursor/agent-trace, v0.1.0)
 * where the format fits (decision 0073): one conversation per author session, its hunks as 1-based
 * line ranges of the file now. What the format has no place for (the session's id, name and
 * client, the base revision, deletions) goes under `metadata["dev.tandem"]`, and the rows
 * `tandem blame` always printed stay at the top level. Pure: id and time come from the caller.
 */
import type { BlameRow } from "../lines/blame.js";
import { UNATTRIBUTED } from "../lines/layout.js";

export const AGENT_TRACE_VERSION = "0.1.0";

type ContributorType = "ai" | "mixed" | "unknown";

interface TraceRange {
  start_line: number;
  end_line: number;
  contributor?: { type: ContributorType };
}

interface TraceConversation {
  contributor: { type: ContributorType };
  ranges: TraceRange[];
  related: { type: string; url: string }[];
}

export interface BlameTrace {
  version: string;
  id: string;
  timestamp: string;
  tool: { name: string; version: string };
  files: { path: string; conversations: TraceConversation[] }[];
  metadata: { "dev.tandem": { base: string | null; uncommitted: true; sessions: Record<string, unknown> } };
  path: string;
  hunks: BlameRow[];
}

export interface TraceContext {
  id: string;
  at: Date;
  tool: string;
  /** HEAD's commit, the base the hunks are uncommitted against; null before the first commit. */
  base: string | null;
}

/** A session's conversation: its rows with lines in the file (a pure deletion has none). */
function conversationOf(session: string, rows: readonly BlameRow[]): TraceConversation | null {
  const ranges = rows
    .filter((r) => r.added > 0 && r.authors.some((a) => a.session === session))
    .map((r) => ({
      start_line: r.first,
      end_line: r.last,
      ...(r.authors.length > 1 ? { contributor: { type: "mixed" as const } } : {}),
    }));
  if (ranges.length === 0) return null;
  const type: ContributorType = session === UNATTRIBUTED ? "unknown" : "ai";
  const related = session === UNATTRIBUTED ? [] : [{ type: "session", url: `tandem:session/${session}` }];
  return { contributor: { type }, ranges, related };
}

export function blameTrace(path: string, rows: readonly BlameRow[], ctx: TraceContext): BlameTrace {
  const sessions: Record<string, unknown> = {};
  for (const r of rows) for (const a of r.authors) sessions[a.session] = { name: a.name, client: a.client };
  const conversations = Object.keys(sessions)
    .map((s) => conversationOf(s, rows))
    .filter((c): c is TraceConversation => c !== null);
  return {
    version: AGENT_TRACE_VERSION,
    id: ctx.id,
    timestamp: ctx.at.toISOString(),
    tool: { name: "tandem", version: ctx.tool },
    files: [{ path, conversations }],
    metadata: { "dev.tandem": { base: ctx.base, uncommitted: true, sessions } },
    path,
    hunks: [...rows],
  };
}
