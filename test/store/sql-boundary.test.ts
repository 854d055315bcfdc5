import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { sqlFindings } from "./sql-scan.js";

const SRC = join(import.meta.dirname, "..", "..", "src");

function tsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return tsFiles(path);
    return e.name.endsWith(".ts") ? [path] : [];
  });
}

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

  it("keeps every SQL statement and prepared statement inside src/store/", () => {
    const outside = tsFiles(SRC)
      .map((file) => relative(SRC, file).split("\\").join("/"))
      .filter((file) => !file.startsWith("store/"))
      .flatMap((file) => {
        const found = sqlFindings(readFileSync(join(SRC, file), "utf8"));
        return found.length > 0 ? [`src/${file}: ${found.join(", ")}`] : [];
      });
    // Move the statement into a typed query function under src/store/ and call that.
    expect(outside).toEqual([]);
  });
});
