import { existsSync } from "node:fs";
import { type Db, dbFile, openDb } from "../store/db.js";

/**
 * `read` over the repository's store, closed after; null when there is no store yet or it cannot be
 * opened, which the store checks report on their own lines.
 */
export function readStore<T>(stateDir: string, read: (db: Db) => T): T | null {
  if (!existsSync(dbFile(stateDir))) return null;
  let db: Db;
  try {
    db = openDb(stateDir);
  } catch {
    return null;
  }
  try {
    return read(db);
  } finally {
    db.close();
  }
}
