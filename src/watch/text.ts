/**
 * Terminal-cell arithmetic for the board. Tasks, paths and prompts come from
 * agents, so they may hold control characters (an escape sequence in a task
 * would repaint or retitle the user's terminal) and wide characters (a CJK task
 * takes two cells per character): both are handled before anything is drawn.
 */

/** Marks a clipped value. ASCII, like the status box: a C locale or `tmux` without `-u` mangles "…". */
export const ELLIPSIS = "~";

function isZeroWidth(cp: number): boolean {
  return (
    (cp >= 0x300 && cp <= 0x36f) ||
    (cp >= 0x200b && cp <= 0x200f) ||
    (cp >= 0xfe00 && cp <= 0xfe0f) ||
    (cp >= 0x1ab0 && cp <= 0x1aff) ||
    (cp >= 0x20d0 && cp <= 0x20ff)
  );
}

function isWide(cp: number): boolean {
  return (
    (cp >= 0x1100 && cp <= 0x115f) ||
    (cp >= 0x2e80 && cp <= 0xa4cf && cp !== 0x303f) ||
    (cp >= 0xac00 && cp <= 0xd7a3) ||
    (cp >= 0xf900 && cp <= 0xfaff) ||
    (cp >= 0xfe30 && cp <= 0xfe4f) ||
    (cp >= 0xff00 && cp <= 0xff60) ||
    (cp >= 0xffe0 && cp <= 0xffe6) ||
    (cp >= 0x1f300 && cp <= 0x1f64f) ||
    (cp >= 0x1f900 && cp <= 0x1f9ff) ||
    (cp >= 0x20000 && cp <= 0x3fffd)
  );
}

/** Cells one code point takes in a terminal (an approximation of wcwidth good enough for names and tasks). */
export function charWidth(ch: string): number {
  const cp = ch.codePointAt(0) ?? 0;
  if (isZeroWidth(cp)) return 0;
  return isWide(cp) ? 2 : 1;
}

/** Flattens whitespace and replaces control characters, so one value is one harmless line. */
export function sanitize(text: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: stripping control characters is the point.
  return text.replace(/[\t\n\r\f\v]+/g, " ").replace(/[\u0000-\u001f\u007f-\u009f]/g, "?");
}

export function textWidth(text: string): number {
  let w = 0;
  for (const ch of text) w += charWidth(ch);
  return w;
}

/** The longest prefix of `text` that fits in `width` cells, with the ellipsis when something was cut. */
export function clip(text: string, width: number): string {
  if (width <= 0) return "";
  if (textWidth(text) <= width) return text;
  let out = "";
  let used = 0;
  for (const ch of text) {
    const w = charWidth(ch);
    if (used + w > width - 1) break;
    out += ch;
    used += w;
  }
  return `${out}${ELLIPSIS}`;
}

/** Like `clip` but keeps the end: for paths, the file name matters more than the first directories. */
export function clipLeft(text: string, width: number): string {
  if (width <= 0) return "";
  if (textWidth(text) <= width) return text;
  const chars = [...text];
  let out = "";
  let used = 0;
  for (let i = chars.length - 1; i >= 0; i--) {
    const w = charWidth(chars[i]!);
    if (used + w > width - 1) break;
    out = chars[i]! + out;
    used += w;
  }
  return `${ELLIPSIS}${out}`;
}

/** Pads (or clips) to exactly `width` cells. */
export function padTo(text: string, width: number, align: "left" | "right" = "left"): string {
  const clipped = clip(text, width);
  const pad = " ".repeat(Math.max(0, width - textWidth(clipped)));
  return align === "right" ? pad + clipped : clipped + pad;
}
