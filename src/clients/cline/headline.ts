/**
 * Cline 3.0.65's terminal UI shows a skipped call's reason as one line, `Error: <first line>`, cut
 * at 140 characters; the rest opens only on a mouse click (docs/clients.md §14.6). Tandem's
 * refusals begin with a general line ("Tandem refused this edit; nothing was changed…") and name
 * the holder further down, so for Cline a headline that names the holder and what to do goes first.
 */
export const CLINE_LINE_MAX = 140;

/** `- f.txt: held by agent-x (claude-code, …` (a hard link's line names its path first too). */
const HELD = /^- ([^:\n]+): .*?held by (\S+) \(([^,)\n]+)/m;

/** The line Cline shows for `reason`, naming its first holder; null when it names none or cannot fit. */
export function clineHeadline(reason: string, max = CLINE_LINE_MAX): string | null {
  const held = HELD.exec(reason);
  if (!held) return null;
  const [, path = "", name = "", client = ""] = held;
  const line = (p: string) =>
    `Tandem refused: ${p} is held by ${name} (${client}); work on other files or wait until it commits.`;
  const fits = [line(path), line(path.slice(path.lastIndexOf("/") + 1))].find((l) => l.length <= max);
  return fits ?? null;
}

/** The reason Cline's plugin shows and the model reads: the headline first, when there is one. */
export function withHeadline(reason: string): string {
  const headline = clineHeadline(reason);
  return headline ? `${headline}\n${reason}` : reason;
}
