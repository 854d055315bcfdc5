/**
 * What a session is told at its next hook after the wiring was healed (docs/decisions/0046), and
 * how `doctor` lists heals. Pure: the caller reads the `wiring.restored` events and names.
 */

export interface HealSeen {
  /** The file put back, relative to its root when inside it. */
  file: string;
  changes: readonly string[];
  /** When the file was changed (its mtime); null when it was removed. */
  changedAt: number | null;
  /** The session whose tool call came last before the change, by name; null when none. */
  lastCommandBy: string | null;
  /** That session is the one being told. */
  lastCommandYours: boolean;
  /** What was found was written by a Tandem (another repository's or install's), not by a tool call. */
  byTandem?: boolean;
  /** How many restorations this line stands for (one per file once merged). */
  times?: number;
}

/**
 * One line per file, however often it was put back: the latest restoration's circumstances, every
 * change seen, and the count (issue 42: a file rewritten in a loop was listed 235 times).
 */
export function mergeHeals(heals: readonly HealSeen[]): HealSeen[] {
  const byFile = new Map<string, HealSeen>();
  for (const h of heals) {
    const before = byFile.get(h.file);
    const changes = [...new Set([...(before?.changes ?? []), ...h.changes])];
    byFile.set(h.file, { ...h, changes, times: (before?.times ?? 0) + (h.times ?? 1) });
  }
  return [...byFile.values()];
}

const clock = (ms: number): string => `${new Date(ms).toISOString().slice(11, 19)} UTC`;

function circumstances(h: HealSeen): string {
  const when = h.changedAt === null ? "removed" : `changed at ${clock(h.changedAt)}`;
  const times = (h.times ?? 1) > 1 ? `, put back ${h.times} times` : "";
  if (h.byTandem) return `${when} by another Tandem (another repository's or install's)${times}`;
  if (h.lastCommandBy === null) return `${when}${times}`;
  const who = h.lastCommandYours ? "yours" : h.lastCommandBy;
  return `${when}${times}; the last tool call before it was ${who}`;
}

/** "`a`", "`a` and `b`", "`a`, `b` and `c`". */
function listed(files: readonly string[]): string {
  const quoted = [...new Set(files)].map((f) => `\`${f}\``);
  return quoted.length === 1 ? quoted[0]! : `${quoted.slice(0, -1).join(", ")} and ${quoted.at(-1)}`;
}

/** `deinit` is the command an agent runs to remove Tandem (`<launcher> deinit`). */
export function healNotice(all: readonly HealSeen[], deinit: string): string {
  const heals = mergeHeals(all);
  const lines = heals.map((h) => `- ${h.file}: ${h.changes.join("; ")} (${circumstances(h)})`);
  return [
    "Tandem: something other than Tandem's own init or deinit changed Tandem's wiring, which stops its hooks from running, and Tandem changed it back:",
    ...lines,
    `Don't edit Tandem's entries in ${listed(heals.map((h) => h.file))}, nor switch a client's hooks off there, by any means (an editor, a script, a link): Tandem puts them back and tells every agent here. To remove Tandem from this repository, run \`${deinit}\`.`,
  ].join("\n");
}
