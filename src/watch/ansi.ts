/**
 * The few escape sequences the board needs. Plain VT100/xterm ones only, so it
 * works over SSH, inside tmux and screen, and on any terminal that has an
 * alternate screen; no mouse reporting, no terminfo lookup.
 */

/** Alternate screen (the user's scrollback is untouched), cursor hidden, screen cleared. */
export const ENTER = "\x1b[?1049h\x1b[?25l\x1b[H\x1b[2J";
/** Attributes reset, cursor shown, back to the normal screen as it was. */
export const LEAVE = "\x1b[0m\x1b[?25h\x1b[?1049l";

const at = (row: number) => `\x1b[${row + 1};1H`;
const CLEAR_LINE = "\x1b[2K";
const CLEAR_BELOW = "\x1b[J";

/**
 * The bytes that turn frame `prev` into `next`: only changed lines are rewritten,
 * which keeps a once-a-second redraw to a few bytes over a slow link. Every line
 * is addressed absolutely and cleared before it is written, so a line exactly
 * as wide as the terminal never wraps or leaves debris behind.
 */
export function frameBytes(prev: readonly string[] | null, next: readonly string[]): string {
  if (prev === null) return `\x1b[H\x1b[2J${next.map((l, i) => `${at(i)}${l}`).join("")}`;
  let out = "";
  next.forEach((line, i) => {
    if (prev[i] !== line) out += `${at(i)}${CLEAR_LINE}${line}`;
  });
  if (prev.length > next.length) out += `${at(next.length)}${CLEAR_BELOW}`;
  return out;
}

/**
 * Keys that quit: q or Q (typed, not part of an escape sequence such as a function
 * key), Ctrl-C (raw mode delivers it as a byte, not a signal) and Ctrl-D.
 */
export function isQuitKey(data: string): boolean {
  if (data.includes("\x03") || data.includes("\x04")) return true;
  return !data.startsWith("\x1b") && /q/i.test(data);
}
