import type { GuardMode } from "../jail/rewrite.js";
import { stopShown } from "../ritual/stop-shown.js";
import { type RitualEvent, windowStart } from "../ritual/verdict.js";

/**
 * A session as the browser board lists it. Liveness is judged by the server (it knows the
 * processes); the turn's ritual is read here from the session's recent events.
 */
export interface UiSession {
  id: string;
  name: string;
  client: string;
  kind: "session" | "subagent";
  state: "live" | "stale" | "ended";
  activity: string;
  task: string | null;
  claims: number;
  lastSeen: number;
  turn: TurnState;
  /** The guard in force for its commands: `kernel` or `reader` (issue 36 §4). */
  guard: GuardMode;
}

/** What the last (or current) turn did of the end-of-turn ritual, and how its Stop was judged. */
export interface TurnState {
  /** `tandem status` ran in the turn (with the end-turn check when one is required). */
  status: boolean;
  /** `tandem task` ran in the turn. */
  task: boolean;
  /** The last Stop's verdict, or null when the session has not stopped a turn yet. */
  stop: { verdict: "pass" | "block"; rule: string | null; enforcement: string } | null;
}

const data = (e: RitualEvent): Record<string, unknown> => (e.data ?? {}) as Record<string, unknown>;

/**
 * The session's turn from its events in ascending order (the most recent ones suffice: the window
 * starts at the latest human prompt). The last Stop is looked for in all of them, since a Stop ends
 * the window it judges.
 */
export function turnState(events: readonly RitualEvent[], requireGitFinalization: boolean): TurnState {
  const last = events.at(-1);
  const start = last ? windowStart(events, last.seq) : 0;
  const window = events.filter((e) => e.seq > start);
  const status = window.some(
    (e) => e.kind === "status.checked" && (!requireGitFinalization || data(e).end_turn === true),
  );
  const task = window.some((e) => e.kind === "task.set");
  const stopEv = [...events].reverse().find((e) => e.kind === "turn.stopped");
  const stop = stopEv
    ? {
        verdict: data(stopEv).verdict === "block" ? ("block" as const) : ("pass" as const),
        rule: typeof data(stopEv).rule === "string" ? (data(stopEv).rule as string) : null,
        enforcement: String(data(stopEv).enforcement ?? ""),
      }
    : null;
  return { status, task, stop };
}

/** The turn in a few words for the table: "status ✓ task ✗ · stop: blocked (task)" (or observed). */
export function turnText(t: TurnState): string {
  const mark = (b: boolean) => (b ? "✓" : "✗");
  const shown = t.stop === null ? null : stopShown(t.stop);
  const rule = t.stop?.rule && shown !== "passed" ? ` (${t.stop.rule})` : "";
  const stop = shown === null ? "no stop yet" : `stop: ${shown}${rule}`;
  return `status ${mark(t.status)} task ${mark(t.task)} · ${stop}`;
}

const ORDER = { live: 0, stale: 1, ended: 2 } as const;

/** Live first, then stale, then ended; most recently seen first within each. */
export function sortSessions<T extends Pick<UiSession, "state" | "lastSeen">>(rows: readonly T[]): T[] {
  return [...rows].sort((a, b) => ORDER[a.state] - ORDER[b.state] || b.lastSeen - a.lastSeen);
}
