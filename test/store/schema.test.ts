import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Db, openDb } from "../../src/store/db.js";
import { raw } from "../../src/store/handle.js";
import { TABLES } from "../../src/store/schema/index.js";

/**
 * Each table's columns are declared beside its row type (src/store/schema/, issue 39), and the
 * compiler holds the row type to the declaration; this holds the declaration to what the
 * migrations make. A column added by a migration but not to the row, or the other way, fails here.
 */
interface ColumnInfo {
  name: string;
  type: string;
  notnull: number;
  pk: number;
}

let dir = "";
let db: Db;

// One store for the whole file (tempDir's would go after the first test).
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "tandem-schema-"));
  db = openDb(join(dir, "state"));
});

afterAll(() => {
  db?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** A column as `PRAGMA table_info` has it, in the declarations' words: a key is never null. */
function asDeclared(c: ColumnInfo): string {
  return c.notnull === 0 && c.pk === 0 ? `${c.type} NULL` : c.type;
}

function migratedTables(): string[] {
  const rows = raw(db)
    .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")
    .all() as { name: string }[];
  return rows.map((r) => r.name);
}

describe("the store's schema beside its row types", () => {
  it("declares every table a fresh store has, and no other", () => {
    // A new table: add its DDL, row type and `table(...)` in src/store/schema/ and list it in index.ts.
    expect(TABLES.map((t) => t.name).sort()).toEqual(migratedTables());
  });

  it.each(TABLES.map((t) => [t.name, t] as const))(
    "%s: declared columns match PRAGMA table_info",
    (name, t) => {
      const info = raw(db)
        .prepare('SELECT name, type, "notnull", pk FROM pragma_table_info(?)')
        .all(name) as ColumnInfo[];
      const migrated = Object.fromEntries(info.map((c) => [c.name, asDeclared(c)]));
      // Fix the row type and its declaration in src/store/schema/, or the migration that differs.
      expect(t.columns).toEqual(migrated);
    },
  );
});
