/**
 * What the server sends the page (docs/ui.md §Data flow): one `state` message when the page
 * connects, then `delta` messages carrying only what changed. Shared by both ends.
 */
import type { RemoteRow, SubagentRow } from "./board-rows.js";
import type { UiLineFile } from "./line-rows.js";
import type { UiSession } from "./session-rows.js";

export interface UiEvent {
  seq: number;
  ts: number;
  /** The session id, for filtering; null for events of no session. */
  session: string | null;
  who: string;
  kind: string;
  detail: string;
  tone: "good" | "bad" | "warn" | "info" | "plain";
}

export interface UiClaim {
  path: string;
  holder: string;
  state: "live" | "stale" | "ended";
}

/** A file a session left uncommitted when it ended (decision 0029). */
export interface UiLeft {
  path: string;
  owner: string;
  client: string;
  task: string | null;
  ended: boolean;
  at: number;
}

export interface UiSubagent extends SubagentRow {
  /** The `tandem sub` id, or null for a client's own sub-agent (nothing captured to show). */
  id: string | null;
}

export type UiRemoteRow = RemoteRow;

export interface UiRemote {
  summary: string;
  unknown: string[];
  rows: UiRemoteRow[];
}

/** The parts that are sent whole when they change (they are small next to the event history). */
export interface UiParts {
  sessions: UiSession[];
  claims: UiClaim[];
  left: UiLeft[];
  subagents: UiSubagent[];
  /** Null when remote sync is not set up: the claims view then shows no remote section. */
  remote: UiRemote | null;
  /** Files shared by lines: each uncommitted hunk and its authors (decision 0061). */
  lines: UiLineFile[];
}

/** Every part, in the order both ends read them. */
export const PART_NAMES = [
  "sessions",
  "claims",
  "left",
  "subagents",
  "remote",
  "lines",
] as const satisfies readonly (keyof UiParts)[];

export interface StateMessage extends UiParts {
  root: string;
  /** How a person at this repository's terminal starts Tandem: the board's commands start with it (decision 0051). */
  launcher: string;
  /** The store's newest event; the events view asks for pages at or below it. */
  seq: number;
  now: number;
}

export interface DeltaMessage extends Partial<UiParts> {
  seq: number;
  now: number;
  /** Events after the previous message's seq, oldest first. */
  events: UiEvent[];
  /** More events arrived than one message carries: the page re-reads its list instead. */
  truncated?: boolean;
}

export interface EventsPage {
  /** Matching events at or below the anchor. */
  total: number;
  /** Newest first, starting `offset` events below the anchor. */
  rows: UiEvent[];
}

export interface SubDetail {
  id: string;
  name: string;
  branch: string;
  worktree: string;
  state: string;
  exit: string;
  capture: string | null;
  /** The captured commits, each with its own diff. */
  commits: { subject: string; diff: string }[];
  patch: string | null;
  applies: { target: string; stage: string; detail: string }[];
  applyCommand: string;
}

/** A `tandem doctor` finding (same shape as src/doctor/finding.ts, which core cannot import). */
export interface UiFinding {
  level: "ok" | "info" | "problem";
  check: string;
  detail: string;
  fix?: string;
}

export interface ProblemsReport {
  findings: UiFinding[];
  hookErrors: UiEvent[];
}
