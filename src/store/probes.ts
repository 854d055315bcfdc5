/** Low-level looks at a store for `tandem doctor`: its schema version, its integrity, whether it takes a write. */
import type { Db } from "./db.js";
import { raw } from "./handle.js";

export function schemaVersionOf(db: Db): number {
  return raw(db).pragma("user_version", { simple: true }) as number;
}

/** SQLite's own integrity check: "ok", or one line per problem found. */
export function integrityCheck(db: Db): string[] {
  return (raw(db).pragma("integrity_check") as { integrity_check: string }[]).map((r) => r.integrity_check);
}

/** Takes the write lock and writes the version back unchanged: throws when hooks could not write. */
export function probeWrite(db: Db): void {
  raw(db)
    .transaction(() => raw(db).pragma(`user_version = ${schemaVersionOf(db)}`))
    .immediate();
}

/** Changes whenever another connection commits: a cheap "did anything change" for a poller. */
export function dataVersion(db: Db): number {
  return raw(db).pragma("data_version", { simple: true }) as number;
}
