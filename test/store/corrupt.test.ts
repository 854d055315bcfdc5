import { existsSync, readdirSync, readFileSync, truncateSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { openDb } from "../../src/store/db.js";
import { raw } from "../../src/store/handle.js";
import { tandem } from "../helpers/cli.js";
import { generateLedger } from "../helpers/ledger-gen.js";
import { initRepo, tempDir } from "../helpers/repo.js";

function repoWithState(): { repo: string; stateDir: string; file: string } {
  const repo = initRepo(join(tempDir(), "repo"));
  const stateDir = join(repo, ".git", "tandem");
  return { repo, stateDir, file: join(stateDir, "state.db") };
}

function expectRefusedUntouched(repo: string, file: string, args: string[]): void {
  const before = readFileSync(file);
  const filesBefore = readdirSync(join(file, ".."));
  const res = tandem(args, { cwd: repo });
  expect(res.code).toBe(1);
  expect(res.stdout).toBe("");
  expect(res.stderr).toContain(file);
  expect(res.stderr).toContain("tandem doctor");
  expect(res.stderr.trim().split("\n")).toHaveLength(1);
  expect(readFileSync(file).equals(before)).toBe(true);
  expect(readdirSync(join(file, ".."))).toEqual(filesBefore);
}

describe("a corrupt state store", () => {
  it("garbage state.db: commands refuse with one line naming the file and doctor, and change nothing", () => {
    const { repo, stateDir, file } = repoWithState();
    openDb(stateDir).close();
    writeFileSync(file, Buffer.from("this is not a database, just some bytes\n".repeat(200)));
    for (const args of [["events"], ["sessions"], ["events", "--follow"]])
      expectRefusedUntouched(repo, file, args);
  });

  it("truncated state.db: commands refuse clearly and change nothing", () => {
    const { repo, stateDir, file } = repoWithState();
    const db = openDb(stateDir);
    generateLedger(db, 2000);
    raw(db).pragma("wal_checkpoint(TRUNCATE)");
    db.close();
    for (const f of ["state.db-wal", "state.db-shm"])
      expect(existsSync(join(stateDir, f)) ? readFileSync(join(stateDir, f)).length : 0).toBe(0);
    truncateSync(file, Math.floor(readFileSync(file).length / 2));
    expectRefusedUntouched(repo, file, ["events"]);
  });

  it("tandem doctor reports the corruption with a fix and exits 1", () => {
    const { repo, stateDir, file } = repoWithState();
    openDb(stateDir).close();
    writeFileSync(file, "garbage");
    const res = tandem(["doctor"], { cwd: repo });
    expect(res.code).toBe(1);
    expect(res.stdout).toMatch(/✗ store: .*state\.db is corrupt \(not an SQLite database\)/);
    expect(res.stdout).toMatch(/fix: run `tandem doctor --reset`: it moves the damaged store aside/);
    const json = JSON.parse(tandem(["doctor", "--json"], { cwd: repo }).stdout);
    expect(json.findings[0]).toMatchObject({ level: "problem", check: "store" });
  });
});
