import { existsSync } from "node:fs";
import { type Db, dbFile, openDb } from "../store/db.js";
import { filesStamp } from "../store/files-stamp.js";

/** The board reads a store; a repository without one yet gets it created once, as `tandem watch` does. */
function openReader(stateDir: string): Db {
  if (!existsSync(dbFile(stateDir))) openDb(stateDir).close();
  return openDb(stateDir, { readonly: true });
}

/**
 * The board's one read-only connection, reopened when the store's files change under it (deleted,
 * or replaced by `tandem doctor --reset`): a long-lived reader would otherwise show the old file.
 */
export class StoreReader {
  private current: Db;
  private stamp: string;

  constructor(private readonly stateDir: string) {
    this.current = openReader(stateDir);
    this.stamp = filesStamp(stateDir);
  }

  get db(): Db {
    return this.current;
  }

  /** Reopens on other files; true when it did. Two stats when nothing changed. */
  refresh(): boolean {
    if (filesStamp(this.stateDir) === this.stamp) return false;
    const next = openReader(this.stateDir);
    this.current.close();
    this.current = next;
    this.stamp = filesStamp(this.stateDir);
    return true;
  }

  close(): void {
    this.current.close();
  }
}
