import type { Screen, Size } from "./terminal.js";

/** Where frames come from: a cheap change marker and the (dearer) full frame. */
export interface FrameSource {
  /** The store's `max(seq)`: polled often, so it must stay one indexed read. */
  seq(): number;
  frame(now: number, size: Size): string[];
}

export interface LoopOptions {
  /** How often `seq()` is polled, in ms. */
  interval: number;
  /** Redraw at least this often even with no new events, so ages keep ticking. */
  tickMs?: number;
  clock?: () => number;
}

/**
 * Runs the board until the user quits. A frame is built only when the ledger
 * moved, the tick is due or the terminal was resized; the terminal is restored
 * whatever happens, and an error while drawing ends the loop with that error.
 */
export function watchLoop(screen: Screen, source: FrameSource, opts: LoopOptions): Promise<void> {
  const clock = opts.clock ?? Date.now;
  const tick = opts.tickMs ?? 1000;
  return new Promise<void>((resolve, reject) => {
    let shownSeq: number | null = null;
    let drawnAt = 0;
    let done = false;
    let timer: ReturnType<typeof setInterval> | undefined;
    const finish = (err?: unknown) => {
      if (done) return;
      done = true;
      if (timer) clearInterval(timer);
      screen.restore();
      if (err === undefined) resolve();
      else reject(err);
    };
    const draw = (full: boolean, seq: number) => {
      const now = clock();
      screen.paint(source.frame(now, screen.size()), full);
      // The seq read before building: an event landing mid-build is drawn on the next poll.
      shownSeq = seq;
      drawnAt = now;
    };
    const guarded = (fn: () => void) => () => {
      if (done) return;
      try {
        fn();
      } catch (err) {
        finish(err);
      }
    };
    const poll = guarded(() => {
      const seq = source.seq();
      if (seq !== shownSeq || clock() - drawnAt >= tick) draw(false, seq);
    });
    screen.onQuit(() => finish());
    screen.onResize(guarded(() => draw(true, source.seq())));
    guarded(() => draw(true, source.seq()))();
    if (!done) timer = setInterval(poll, opts.interval);
  });
}
