import { existsSync, readdirSync, renameSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { openDb } from "../../src/store/db.js";
import { raw } from "../../src/store/handle.js";
import { dumpProjections, rebuildProjections } from "../../src/store/repair/rebuild.js";
import { cli } from "../helpers/in-process-cli.js";
import { g, tempDir, writeFiles } from "../helpers/repo.js";
import { addTarget, expectOk, runScriptHere, sub, subHere, subRepo } from "./sub-fixture.js";

describe("sub remove and discard", () => {
  it("refuses to remove a worktree whose work is not all in a durable capture", async () => {
    const s = subRepo();
    const { json } = await runScriptHere(s.repo, "echo a > a.txt");
    // Work added after the capture would be lost with the worktree.
    writeFiles(json.worktree, { "late.txt": "late\n" });
    const r = await subHere(s.repo, ["remove", json.id]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/changed since capture 1/);
    expectOk(await subHere(s.repo, ["capture", json.id]));
    // A capture whose blob went missing is not durable.
    const shown = JSON.parse((await subHere(s.repo, ["show", json.id, "--json"])).stdout);
    const blob = join(s.repo, ".git", "tandem", "blobs", shown.capture.patchBlob);
    renameSync(blob, `${blob}.aside`);
    expect((await subHere(s.repo, ["remove", json.id])).stderr).toMatch(/missing or corrupt/);
    renameSync(`${blob}.aside`, blob);
    expectOk(await subHere(s.repo, ["remove", json.id]));
    expect(existsSync(json.worktree)).toBe(false);
    expect(g(s.repo, "branch", "--list", json.branch).trim()).toBe("");
    // The artifact outlives the worktree.
    expectOk(await subHere(s.repo, ["apply", json.id]));
    expect(existsSync(join(s.repo, "late.txt"))).toBe(true);
  });

  it("remove and discard leave no worktree, folder or worktree registration behind", async () => {
    const s = subRepo();
    const state = tempDir("tandem-state-");
    const env = { XDG_STATE_HOME: state };
    const worktrees = () => g(s.repo, "worktree", "list", "--porcelain").match(/^worktree /gm)?.length;
    expect(readdirSync(state)).toEqual([]);
    const a = (await runScriptHere(s.repo, "echo a > a.txt", [], env)).json;
    const b = (await runScriptHere(s.repo, "echo b > b.txt", [], env)).json;
    expect(worktrees()).toBe(3);
    expectOk(await subHere(s.repo, ["remove", a.id], env));
    // The other child's worktree still needs the shared folder.
    expect(existsSync(b.worktree)).toBe(true);
    expectOk(await subHere(s.repo, ["discard", b.id, "--yes"], env));
    expect(readdirSync(state)).toEqual([]);
    expect(worktrees()).toBe(1);
  });

  it("discards only with confirmation, and records what was lost", async () => {
    const s = subRepo();
    const { json } = await runScriptHere(s.repo, "mkdir emb && cd emb && git init -q && echo x > f");
    // Without --yes, discard asks on the process's own stdin: the binary's, not the runner's.
    expect(sub(s.repo, ["discard", json.id]).code).toBe(2);
    expect(existsSync(json.worktree)).toBe(true);
    expectOk(await subHere(s.repo, ["discard", json.id, "--yes"]));
    expect(existsSync(json.worktree)).toBe(false);
    const events = (await cli(["events", "--kind", "subagent.discarded", "--json"], { cwd: s.repo })).stdout;
    expect(JSON.parse(events.trim()).data.lost).toEqual([{ reason: "embedded-repository", paths: ["emb"] }]);
    expect((await subHere(s.repo, ["list"])).stdout).not.toContain(json.id);
    expect((await subHere(s.repo, ["list", "--all"])).stdout).toMatch(new RegExp(`${json.id}.*discarded`));
  });

  it("rebuilds identical sub-agent views from the ledger", async () => {
    const s = subRepo({ "shared.txt": "1\n2\n3\n", "notes.txt": "n\n" });
    const a = await runScriptHere(
      s.repo,
      "echo a > a.txt && git add a.txt && git commit -qm a && echo d > d.txt",
      ["--name", "alpha"],
    );
    const b = await runScriptHere(s.repo, "sed -i 's/2/child/' shared.txt");
    const t = addTarget(s, "t");
    writeFiles(t, { "shared.txt": "1\ntarget\n3\n" });
    g(t, "commit", "-qam", "target");
    expectOk(await subHere(s.repo, ["apply", "alpha"]));
    expect((await subHere(s.repo, ["apply", b.json.id, "--target", t])).code).toBe(1);
    const u = addTarget(s, "u");
    expect(
      sub(s.repo, ["apply", a.json.id, "--target", u], { TANDEM_TEST_CRASH_AT: "apply:after-am" }).code,
    ).toBe(-1);
    expectOk(await subHere(s.repo, ["capture", a.json.id]));
    expectOk(await subHere(s.repo, ["discard", b.json.id, "--yes"]));
    const doctor = await cli(["doctor", "--rebuild"], { cwd: s.repo });
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
