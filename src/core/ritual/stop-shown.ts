/**
 * How a recorded Stop reads to a person (board, `tandem watch`, the event list). A `block`
 * verdict that was not enforced (Codex, which never blocks; `stopRitual: observe`; the block cap
 * reached) stopped nothing: it is shown as observed, so no view says a turn was blocked when the
 * agent went on (issue 26).
 */

export type StopShown = "passed" | "blocked" | "observed";

/** A stored `turn.stopped` payload, as read back (fields may be missing in old rows). */
export interface StopFacts {
  verdict?: unknown;
  rule?: unknown;
  enforcement?: unknown;
}

export function stopShown(stop: StopFacts): StopShown {
  if (stop.verdict !== "block") return "passed";
  return stop.enforcement === "enforced" ? "blocked" : "observed";
}

/** The event list's words: `pass`, `block status`, `observe status`. */
export function stopEventText(stop: StopFacts): string {
  const rule = typeof stop.rule === "string" && stop.rule ? ` ${stop.rule}` : "";
  const shown = stopShown(stop);
  if (shown === "passed") return stop.enforcement === "fail_open" ? "pass (the hook failed open)" : "pass";
  return `${shown === "blocked" ? "block" : "observe"}${rule}`;
}
