import {
  type DeltaMessage,
  PART_NAMES,
  type StateMessage,
  type UiEvent,
  type UiParts,
} from "../../core/ui/protocol.js";

export type ViewId = "sessions" | "claims" | "events" | "subagents" | "problems";

/** What changed in one message, for views to decide whether to redraw. */
export interface Change {
  parts: Set<keyof UiParts>;
  events: UiEvent[];
  /** A whole new state (first connect, reconnect, or too many events at once). */
  reset: boolean;
}

/** The page's copy of the board, fed by the server's stream. */
export class Board {
  state: StateMessage | null = null;
  /** Server clock minus ours, so ages read the same as in the terminal. */
  private skew = 0;
  private readonly listeners: ((c: Change) => void)[] = [];

  now(): number {
    return Date.now() + this.skew;
  }

  listen(fn: (c: Change) => void): void {
    this.listeners.push(fn);
  }

  private emit(c: Change): void {
    for (const fn of this.listeners) fn(c);
  }

  applyState(s: StateMessage): void {
    this.state = s;
    this.skew = s.now - Date.now();
    this.emit({
      parts: new Set(PART_NAMES),
      events: [],
      reset: true,
    });
  }

  applyDelta(d: DeltaMessage): void {
    const s = this.state;
    if (!s) return;
    this.skew = d.now - Date.now();
    const parts = new Set<keyof UiParts>();
    for (const k of PART_NAMES) {
      if (d[k] === undefined) continue;
      Object.assign(s, { [k]: d[k] });
      parts.add(k);
    }
    s.seq = d.seq;
    s.now = d.now;
    this.emit({ parts, events: d.events, reset: d.truncated === true });
  }
}
