import { join } from "node:path";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { lineAuthors } from "../../src/store/claims/line-authors.js";
import { dbFile, openDb } from "../../src/store/db.js";
import { MIGRATIONS } from "../../src/store/migrations.js";
import { LINE_STAMPS_DDL } from "../../src/store/schema/line-authors.js";
import { tempDir } from "../helpers/repo.js";

/** Decision 0074: hunks a store kept before they carried their writes' times get safe ones. */
describe("the migration that stamps recorded hunks", () => {
  it("gives each a first write of unknown time and a last one at its row's update, in no turn", () => {
    const dir = join(tempDir(), "state");
    // A store one migration short of the stamps, with a row as an earlier tandem wrote it.
    const before = MIGRATIONS.indexOf(LINE_STAMPS_DDL);
    expect(before).toBeGreaterThan(0);
    const fresh = openDb(dir);
    fresh.close();
    const old = new Database(dbFile(dir));
    old.exec("DELETE FROM line_authors");
    old.pragma(`user_version = ${before}`);
    const hunks = [
      { aStart: 1, aEnd: 2, bStart: 1, bEnd: 2, owners: ["s1"] },
      { aStart: 8, aEnd: 8, bStart: 8, bEnd: 9, owners: ["s1", "s2"] },
    ];
    old
      .prepare(
        "INSERT INTO line_authors (worktree, path, base, content, hunks, updated_at) VALUES (?, ?, ?, ?, ?, ?)",
      )
      .run("/w", "a.ts", "d", "text", JSON.stringify(hunks), 5000);
    old.close();

    const db = openDb(dir);
    try {
      const row = lineAuthors(db, "/w", "a.ts");
      const long = { at: 0, turn: null };
      const last = { at: 5000, turn: null };
      expect(row?.hunks).toEqual(hunks.map((h) => ({ ...h, first: long, last })));
    } finally {
      db.close();
    }
  });
});
