/** How much of a check's output a landing reports: enough to see the failure, not a whole log. */
export const TAIL_LINES = 40;
export const TAIL_CHARS = 4000;

/** The last lines of `text` (at most TAIL_LINES and TAIL_CHARS), marked when something was cut. */
export function outputTail(text: string, lines = TAIL_LINES, chars = TAIL_CHARS): string {
  const all = text.replace(/\s+$/, "").split("\n");
  let kept = all.slice(-lines).join("\n");
  if (kept.length > chars) kept = kept.slice(-chars).replace(/^[^\n]*\n/, "");
  const cut = kept.length < text.replace(/\s+$/, "").length;
  return cut ? `[…]\n${kept}` : kept;
}
