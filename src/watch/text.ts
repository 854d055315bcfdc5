/**
 * Terminal-cell arithmetic for the board. Tasks, paths and prompts come from
 * agents, so they may hold control characters (an escape sequence in a task
 * would repaint or retitle the user's terminal) and wide characters (a CJK task
 * takes two cells per character): both are handled before anything is drawn.
 */
import stringWidth from "string-width";

/** Marks a clipped value. ASCII, like the status box: a C locale or `tmux` without `-u` mangles "…". */
export const ELLIPSIS = "~";

/** Made on first use: loading ICU's break rules costs ~9 ms, and most commands never clip text. */
let graphemes: Intl.Segmenter | undefined;

/** The user-perceived characters of `text`: a flag, a ZWJ family or an accented letter is one. */
function clusters(text: string): string[] {
  graphemes ??= new Intl.Segmenter(undefined, { granularity: "grapheme" });
  return Array.from(graphemes.segment(text), (s) => s.segment);
}

/**
 * Cells one character takes in a terminal, from Unicode's East Asian Width and emoji data as the
 * maintained `string-width` reads them (issue 39): emoji, ZWJ sequences and flags included.
 */
export function charWidth(ch: string): number {
  return stringWidth(ch);
}

/** Flattens whitespace and replaces control characters, so one value is one harmless line. */
export function sanitize(text: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: stripping control characters is the point.
  return text.replace(/[\t\n\r\f\v]+/g, " ").replace(/[\u0000-\u001f\u007f-\u009f]/g, "?");
}

export function textWidth(text: string): number {
  return stringWidth(text);
}

/** The longest prefix of `text` that fits in `width` cells, with the ellipsis when something was cut. */
export function clip(text: string, width: number): string {
  if (width <= 0) return "";
  if (textWidth(text) <= width) return text;
  let out = "";
  let used = 0;
  for (const ch of clusters(text)) {
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
  const chars = clusters(text);
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
