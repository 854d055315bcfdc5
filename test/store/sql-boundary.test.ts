import { readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { tsSources } from "../helpers/sources.js";
import { sqlFindings } from "./sql-scan.js";

const SRC = join(import.meta.dirname, "..", "..", "src");

describe("the SQL boundary (issue 27, deliverable 2)", () => {
  it("finds a statement, a prepare, a stmt call, a pragma and a hand-made transaction, and passes prose", () => {
    expect(sqlFindings('db.prepare("SELECT 1")')).toEqual(["SQL statement", ".prepare("]);
    expect(sqlFindings('stmt(db, "DELETE FROM claims").run()')).toEqual(["SQL statement", "stmt("]);
    expect(sqlFindings("`INSERT INTO events (kind) VALUES (?)`")).toEqual(["SQL statement"]);
    expect(sqlFindings("`UPDATE sessions SET ended_seq = ?`")).toEqual(["SQL statement"]);
    expect(sqlFindings('db.pragma("integrity_check")')).toEqual([".pragma("]);
    expect(sqlFindings("db.transaction(() => 0).immediate()")).toEqual([".transaction("]);
    expect(sqlFindings("// select the newest claim, then update it")).toEqual([]);
  });

  it.each<[string, string[]]>([
    ['db.exec("create table t (a)")', ["SQL statement", ".exec("]],
    ["`select a from t where b = ?`", ["SQL statement"]],
    ["'insert or ignore into t values (1)'", ["SQL statement"]],
    ['"update claims set path = ?"', ["SQL statement"]],
    ['"delete from events"', ["SQL statement"]],
    ['"DROP INDEX IF EXISTS x"', ["SQL statement"]],
    ['"alter table t add column c"', ["SQL statement"]],
    ['run("BEGIN IMMEDIATE")', ["SQL statement"]],
    ['"pragma journal_mode"', ["SQL statement"]],
    ['"select the file to keep"', []],
    ['"Update the config, then commit"', []],
    ['"delete it from the board"', []],
    ["process.exec(cmd)", []],
  ])("finds SQL in any case in a string literal: %s", (text, want) => {
    expect(sqlFindings(text)).toEqual(want);
  });

  it("keeps every SQL statement and prepared statement inside src/store/", () => {
    const outside = tsSources(SRC)
      .map((file) => relative(SRC, file).split("\\").join("/"))
      .filter((file) => !file.startsWith("store/"))
      .flatMap((file) => {
        const found = sqlFindings(readFileSync(join(SRC, file), "utf8"));
        return found.length > 0 ? [`src/${file}: ${found.join(", ")}`] : [];
      });
    // Move the statement into a typed query function under src/store/ and call that.
    expect(outside).toEqual([]);
  });

  it("sees the statements that are inside the store (the scan is not blind)", () => {
    const inside = tsSources(join(SRC, "store")).filter(
      (f) => sqlFindings(readFileSync(f, "utf8")).length > 0,
    );
    expect(inside.length).toBeGreaterThan(20);
  });
});
