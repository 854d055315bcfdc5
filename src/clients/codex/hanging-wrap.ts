/**
 * Codex's UI prints a hook's deny reason line by line under a 4-column indent and lets the terminal
 * wrap what is longer, back to column 0 (issue 14, observed in 0.171.0); Claude's UI wraps with a
 * hanging indent itself. So Codex's reasons are broken here at `width` (80 columns minus Codex's
 * indent), continuation lines indented by two spaces so they still read as part of their line.
 */

export const CODEX_REASON_WIDTH = 76;
const HANG = "  ";

function wrapLine(line: string, width: number): string[] {
  if (line.length <= width) return [line];
  const out: string[] = [];
  let current = "";
  for (const word of line.split(" ")) {
    const lead = out.length === 0 ? "" : HANG;
    if (current && lead.length + current.length + 1 + word.length > width) {
      out.push(lead + current);
      current = word;
    } else current = current ? `${current} ${word}` : word;
  }
  out.push((out.length === 0 ? "" : HANG) + current);
  return out;
}

/** Every line of `text` at most `width` long, except single words (a path) that are longer. */
export function hangingWrap(text: string, width = CODEX_REASON_WIDTH): string {
  return text
    .split("\n")
    .flatMap((l) => wrapLine(l, width))
    .join("\n");
}

/** Undoes `hangingWrap` for a reason whose lines never start with two spaces (tests, logs). */
export function unwrapHanging(text: string): string {
  return text.replace(/\n {2}(?=\S)/g, " ");
}
