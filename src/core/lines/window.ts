/**
 * Which of a session's hunks an undo of one turn or of `--since` takes back (decision 0074), pure:
 * a hunk whose every known write lies in the window is inside; one written both inside and outside
 * it straddles, and the undo reports it instead of guessing which of its lines are the window's.
 */
import type { Stamp, Written } from "./written.js";

export type UndoWindow =
  | { kind: "all" }
  | { kind: "since"; from: number }
  /** Turn `number` of the session (1-based), its prompt's sequence number, and its time span. */
  | { kind: "turn"; number: number; turn: number; from: number; to: number | null };

export const WHOLE_SESSION: UndoWindow = { kind: "all" };

export type Place = "before" | "inside" | "after";

/** Where one write falls: by its turn when the hook recorded it, else by its time. */
export function placeOf(s: Stamp, w: UndoWindow): Place {
  if (w.kind === "all") return "inside";
  if (w.kind === "turn" && s.turn !== null)
    return s.turn < w.turn ? "before" : s.turn === w.turn ? "inside" : "after";
  if (s.at < w.from) return "before";
  return w.kind === "turn" && w.to !== null && s.at >= w.to ? "after" : "inside";
}

export type Fit = "inside" | "outside" | "straddles";

/** A hunk against the window: wholly inside, wholly outside, or written on both sides of an edge. */
export function fitOf(h: Written, w: UndoWindow): Fit {
  const first = placeOf(h.first, w);
  const last = placeOf(h.last, w);
  if (first === "inside" && last === "inside") return "inside";
  return first === last ? "outside" : "straddles";
}

/** One prompt of the session: its event's sequence number and time. */
export interface Prompt {
  seq: number;
  ts: number;
}

/**
 * Turn `n` (1-based; null: the latest) of a session from its prompts, oldest first: from its
 * prompt until the next one. A string says what is wrong.
 */
export function turnWindow(prompts: readonly Prompt[], n: number | null): UndoWindow | string {
  if (prompts.length === 0) return "has had no prompt yet, so it has no turn to undo";
  const number = n ?? prompts.length;
  if (!Number.isInteger(number) || number < 1 || number > prompts.length)
    return `has turns 1 to ${prompts.length}; there is no turn ${n}`;
  const p = prompts[number - 1]!;
  return { kind: "turn", number, turn: p.seq, from: p.ts, to: prompts[number]?.ts ?? null };
}

const ISO_DATE = /^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/;

/**
 * `--since`: a duration back from `now` (`90s`, `45m`, `2h`, `1d`) or an ISO 8601 date or time
 * (`2026-12-04`, `2026-12-04T21:30`: local time unless it names a zone). A string says what is wrong.
 * `duration` reads the first (core/duration.ts, a room this one sits beside).
 */
export function sinceWindow(
  text: string,
  now: number,
  duration: (text: string) => number | null,
): UndoWindow | string {
  const ago = duration(text);
  if (ago !== null) return { kind: "since", from: now - ago };
  const t = text.trim();
  // A date alone is its local midnight, as a date with a time is local: Date.parse reads it as UTC.
  const local = t.length === 10 ? `${t}T00:00` : t.replace(" ", "T");
  const at = ISO_DATE.test(t) ? Date.parse(local) : Number.NaN;
  if (Number.isNaN(at))
    return `"${text}" is neither a duration (90s, 45m, 2h, 1d) nor a date and time (2026-12-04T21:30)`;
  if (at > now) return `${t} is in the future; give a time before now`;
  return { kind: "since", from: at };
}

/** The window in words, for the preview and the messages. */
export function windowText(w: UndoWindow, iso: (ms: number) => string): string {
  if (w.kind === "all") return "the whole session";
  if (w.kind === "since") return `since ${iso(w.from)}`;
  return `turn ${w.number}`;
}
