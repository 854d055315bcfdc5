import { statSync } from "node:fs";
import { join } from "node:path";
import { dbFile } from "../db.js";
import { stamp, stampTime } from "../stamp-file.js";

/** The file whose time says when background upkeep last started (beside the store). */
export function upkeepStamp(stateDir: string): string {
  return join(stateDir, "upkeep.stamp");
}

export function lastUpkeep(stateDir: string): number | null {
  return stampTime(upkeepStamp(stateDir));
}

/** Records that upkeep starts now, before it is started, so concurrent session starts start one. */
export function markUpkeep(stateDir: string, now = Date.now()): void {
  stamp(upkeepStamp(stateDir), now);
}

/** The store's bytes on disk: the file and its WAL. */
export function storeBytes(stateDir: string): number {
  const file = dbFile(stateDir);
  let n = 0;
  for (const f of [file, `${file}-wal`]) {
    try {
      n += statSync(f).size;
    } catch {
      // No WAL right now.
    }
  }
  return n;
}
