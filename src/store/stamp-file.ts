import { statSync, utimesSync, writeFileSync } from "node:fs";

/**
 * Marks in the state directory whose only content is their time (when upkeep, a sync round or a
 * server was last started): the file's mtime, so reading one is a stat.
 */
export function stampTime(file: string): number | null {
  return statSync(file, { throwIfNoEntry: false })?.mtimeMs ?? null;
}

export function stamp(file: string, now: number): void {
  const at = new Date(now);
  try {
    utimesSync(file, at, at);
  } catch {
    writeFileSync(file, "");
    utimesSync(file, at, at);
  }
}
