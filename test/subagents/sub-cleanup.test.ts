import { existsSync, readdirSync, renameSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { openDb } from "../../src/store/db.js";
import { raw } from "../../src/store/handle.js";
import { dumpProjections, rebuildProjections } from "../../src/store/repair/rebuild.js";
import { tandem } from "../helpers/cli.js";
import { g, tempDir, writeFiles } from "../helpers/repo.js";
import { addTarget, expectOk, runScript, sub, subRepo } from "./sub-fixture.js";

describe("sub remove and discard", () => {
  it("refuses to remove a worktree whose work is not all in a durable capture", () => {
    const s = subRepo();
    const { json } = runScript(s.repo, "echo a > a.txt");
    // Work added after the capture would be lost with the worktree.
    writeFiles(json.worktree, { "late.txt": "late\n" });
    const r = sub(s.repo, ["remove", json.id]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/changed since capture 1/);
    expectOk(sub(s.repo, ["capture", json.id]));
    // A capture whose blob went missing is not durable.
    const shown = JSON.parse(sub(s.repo, ["show", json.id, "--json"]).stdout);
    const blob = join(s.repo, ".git", "tandem", "blobs", shown.capture.patchBlob);
    renameSync(blob, `${blob}.aside`);
    expect(sub(s.repo, ["remove", json.id]).stderr).toMatch(/missing or corrupt/);
    renameSync(`${blob}.aside`, blob);
    expectOk(sub(s.repo, ["remove", json.id]));
    expect(existsSync(json.worktree)).toBe(false);
    expect(g(s.repo, "branch", "--list", json.branch).trim()).toBe("");
    // The artifact outlives the worktree.
    expectOk(sub(s.repo, ["apply", json.id]));
    expect(existsSync(join(s.repo, "late.txt"))).toBe(true);
  });

  it("remove and discard leave no worktree, folder or worktree registration behind", () => {
    const s = subRepo();
    const state = tempDir("tandem-state-");
    const env = { XDG_STATE_HOME: state };
    const worktrees = () => g(s.repo, "worktree", "list", "--porcelain").match(/^worktree /gm)?.length;
    expect(readdirSync(state)).toEqual([]);
    const a = runScript(s.repo, "echo a > a.txt", [], env).json;
    const b = runScript(s.repo, "echo b > b.txt", [], env).json;
    expect(worktrees()).toBe(3);
    expectOk(sub(s.repo, ["remove", a.id], env));
    // The other child's worktree still needs the shared folder.
    expect(existsSync(b.worktree)).toBe(true);
    expectOk(sub(s.repo, ["discard", b.id, "--yes"], env));
    expect(readdirSync(state)).toEqual([]);
    expect(worktrees()).toBe(1);
  });

  it("discards only with confirmation, and records what was lost", () => {
    const s = subRepo();
    const { json } = runScript(s.repo, "mkdir emb && cd emb && git init -q && echo x > f");
    expect(sub(s.repo, ["discard", json.id]).code).toBe(2);
    expect(existsSync(json.worktree)).toBe(true);
    expectOk(sub(s.repo, ["discard", json.id, "--yes"]));
    expect(existsSync(json.worktree)).toBe(false);
    const events = tandem(["events", "--kind", "subagent.discarded", "--json"], { cwd: s.repo }).stdout;
    expect(JSON.parse(events.trim()).data.lost).toEqual([{ reason: "embedded-repository", paths: ["emb"] }]);
    expect(sub(s.repo, ["list"]).stdout).not.toContain(json.id);
    expect(sub(s.repo, ["list", "--all"]).stdout).toMatch(new RegExp(`${json.id}.*discarded`));
  });

  it("rebuilds identical sub-agent views from the ledger", () => {
    const s = subRepo({ "shared.txt": "1\n2\n3\n", "notes.txt": "n\n" });
    const a = runScript(s.repo, "echo a > a.txt && git add a.txt && git commit -qm a && echo d > d.txt", [
      "--name",
      "alpha",
    ]);
    const b = runScript(s.repo, "sed -i 's/2/child/' shared.txt");
    const t = addTarget(s, "t");
    writeFiles(t, { "shared.txt": "1\ntarget\n3\n" });
    g(t, "commit", "-qam", "target");
    expectOk(sub(s.repo, ["apply", "alpha"]));
    expect(sub(s.repo, ["apply", b.json.id, "--target", t]).code).toBe(1);
    const u = addTarget(s, "u");
    expect(
      sub(s.repo, ["apply", a.json.id, "--target", u], { TANDEM_TEST_CRASH_AT: "apply:after-am" }).code,
    ).toBe(-1);
    expectOk(sub(s.repo, ["capture", a.json.id]));
    expectOk(sub(s.repo, ["discard", b.json.id, "--yes"]));
    const doctor = tandem(["doctor", "--rebuild"], { cwd: s.repo });
    expect(doctor.stdout).toMatch(/projections identical to the live views/);
    const db = openDb(join(s.repo, ".git", "tandem"));
    try {
      const before = dumpProjections(db);
      expect(before.subagents).toHaveLength(2);
      expect(before.subagent_applies!.length).toBeGreaterThanOrEqual(3);
      raw(db).exec("DELETE FROM subagent_applies; UPDATE subagents SET captures = 0");
      rebuildProjections(db);
      expect(dumpProjections(db)).toEqual(before);
    } finally {
      db.close();
    }
  });
});
