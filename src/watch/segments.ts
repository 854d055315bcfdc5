import { clip, textWidth } from "./text.js";

/** How a piece of the board is emphasised; mapped to SGR codes only when colour is on. */
export type Style = "bold" | "dim" | "green" | "yellow" | "red" | "cyan";

/** A run of text with one style: lines are built from these so widths never count escape codes. */
export interface Seg {
  text: string;
  style?: Style | undefined;
}

export type Line = Seg[];

const SGR: Record<Style, string> = {
  bold: "1",
  dim: "2",
  green: "32",
  yellow: "33",
  red: "31",
  cyan: "36",
};

export const seg = (text: string, style?: Style): Seg => ({ text, style });

export function lineWidth(line: Line): number {
  return line.reduce((n, s) => n + textWidth(s.text), 0);
}

/** Cuts a line to at most `width` cells; the last visible segment carries the ellipsis. */
export function clipLine(line: Line, width: number): Line {
  if (lineWidth(line) <= width) return line;
  const out: Line = [];
  let left = width;
  for (const s of line) {
    const w = textWidth(s.text);
    if (w < left) {
      out.push(s);
      left -= w;
      continue;
    }
    out.push({ text: clip(s.text, left), style: s.style });
    break;
  }
  return out;
}

/** Drops trailing spaces: nothing is drawn past the text, so a narrow terminal never wraps. */
function trimEnd(line: Line): Line {
  const out = [...line];
  while (out.length > 0) {
    const last = out[out.length - 1]!;
    const trimmed = last.text.replace(/ +$/, "");
    if (trimmed.length > 0) {
      out[out.length - 1] = { text: trimmed, style: last.style };
      break;
    }
    out.pop();
  }
  return out;
}

/** The line as terminal text: SGR codes around styled runs when `color`, none at all otherwise. */
export function toText(line: Line, color: boolean): string {
  return trimEnd(line)
    .map((s) => (color && s.style && s.text ? `\x1b[${SGR[s.style]}m${s.text}\x1b[0m` : s.text))
    .join("");
}

/** Right-aligns `right` on the same line as `left`, dropping it when both do not fit. */
export function spread(left: Line, right: Line, width: number): Line {
  const gap = width - lineWidth(left) - lineWidth(right);
  if (gap < 1) return clipLine(left, width);
  return [...left, seg(" ".repeat(gap)), ...right];
}
