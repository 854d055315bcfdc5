import { ENTER, frameBytes, isQuitKey, LEAVE } from "./ansi.js";

export interface Size {
  columns: number;
  rows: number;
}

/** What the refresh loop needs from a terminal; tests drive the loop with a fake one. */
export interface Screen {
  size(): Size;
  /** Draws a frame; `full` repaints everything (after a resize the old frame is meaningless). */
  paint(lines: string[], full: boolean): void;
  onResize(cb: () => void): void;
  /** Called when the user asks to quit: a quit key, or SIGINT/SIGTERM/SIGHUP. */
  onQuit(cb: () => void): void;
  /** Leaves the alternate screen, shows the cursor, turns raw mode off. Safe to call twice. */
  restore(): void;
}

type Input = NodeJS.ReadStream;
type Output = NodeJS.WriteStream;

const SIGNALS: NodeJS.Signals[] = ["SIGINT", "SIGTERM", "SIGHUP"];

/**
 * Takes over a real terminal. Everything it changes is undone by `restore`,
 * which also runs on process exit, so an unexpected crash still hands the user
 * back a normal screen with a visible cursor and a cooked tty.
 */
export function openTerminal(input: Input = process.stdin, output: Output = process.stdout): Screen {
  let prev: string[] | null = null;
  let restored = false;
  const quitters: (() => void)[] = [];
  const resizers: (() => void)[] = [];
  const quit = () => {
    for (const cb of quitters) cb();
  };
  const onData = (data: Buffer | string) => {
    if (isQuitKey(data.toString())) quit();
  };
  const onResize = () => {
    for (const cb of resizers) cb();
  };
  // A terminal that went away (SSH dropped: EIO) ends the board instead of crashing on the next write.
  const onError = () => quit();
  const restore = () => {
    if (restored) return;
    restored = true;
    output.off("resize", onResize);
    for (const s of SIGNALS) process.off(s, quit);
    process.off("exit", restore);
    if (input.isTTY) {
      input.off("data", onData);
      input.pause();
      try {
        input.setRawMode(false);
      } catch {
        // The terminal is gone; there is no mode left to restore.
      }
    }
    // The error listener stays: this last write may fail too when the terminal has gone.
    if (output.writable) output.write(LEAVE);
  };

  output.write(ENTER);
  process.on("exit", restore);
  for (const s of SIGNALS) process.on(s, quit);
  output.on("resize", onResize);
  output.on("error", onError);
  // Without a terminal on stdin there are no keys to read; the signals above still quit.
  if (input.isTTY) {
    input.setRawMode(true);
    input.on("data", onData);
    input.resume();
  }
  return {
    size: () => ({ columns: output.columns || 80, rows: output.rows || 24 }),
    paint(lines, full) {
      output.write(frameBytes(full ? null : prev, lines));
      prev = lines;
    },
    onResize: (cb) => resizers.push(cb),
    onQuit: (cb) => quitters.push(cb),
    restore,
  };
}
