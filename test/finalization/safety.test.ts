import { chmodSync, existsSync, rmSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { DEFAULT_CONFIG } from "../../src/config/schema.js";
import { endTurnCheck } from "../../src/finalization/check.js";
import { openDb } from "../../src/store/db.js";
import { raw } from "../../src/store/handle.js";
import { append, write as writeLedger } from "../../src/store/ledger/append.js";
import { denied, ledger } from "../helpers/hooks.js";
import { g, initRepo, tempDir, writeFiles } from "../helpers/repo.js";
import { clonedRepo, commit, endTurn, endTurnText, gitShim, problems, write, writeAs } from "./fixture.js";

/** A repository outside every root whose git, if ever run by a status-like command, leaves a mark. */
function externalRepo(base: string): { ext: string; marker: string } {
  const ext = initRepo(join(base, "external"));
  const marker = join(base, "fsmonitor-ran");
  writeFiles(ext, { "hook.sh": `#!/bin/sh\ntouch '${marker}'\nexit 1\n`, "f.txt": "dirty\n" });
  chmodSync(join(ext, "hook.sh"), 0o755);
  g(ext, "config", "core.fsmonitor", join(ext, "hook.sh"));
  // The trap works: a status there leaves the mark (removed again before the real test).
  g(ext, "status", "--porcelain");
  expect(existsSync(marker)).toBe(true);
  rmSync(marker);
  return { ext, marker };
}

function ranIn(calls: string[], dir: string): string[] {
  return calls.filter((c) => c.split("\t")[0]!.startsWith(dir) || c.includes(dir));
}

function openState(repo: string) {
  return openDb(join(repo, ".git", "tandem"));
}

describe("end-turn never trusts the ledger with filesystem authority", () => {
  it("rejects writes into an external repository that was never configured, without running git in it", () => {
    const base = tempDir();
    const { repo } = clonedRepo(base, "repo");
    const { ext, marker } = externalRepo(base);
    write(repo, "A", "a.txt");
    commit(repo, "a", "a.txt");
    g(repo, "push", "-q");
    const shim = gitShim(base);
    const strict = { ...shim.env, TANDEM_REQUIRE_GIT_FINALIZATION: "1" };
    // Finalization required: refused before the write happens, and nothing is claimed.
    expect(denied(writeAs(repo, "A", join(ext, "f.txt"), strict))).toMatch(/outside the authorized roots/);
    // Not required: allowed but not coordinated, so never in the end-turn scope either.
    expect(denied(writeAs(repo, "A", join(ext, "f.txt"), shim.env))).toBeNull();
    expect(ledger(repo).claims).toEqual([{ path: "a.txt", holder: "A" }]);
    expect(endTurn(repo, "A", strict)).toMatchObject({ code: 0, json: { ok: true } });
    expect(shim.calls().length).toBeGreaterThan(0);
    expect(ranIn(shim.calls(), ext)).toEqual([]);
    expect(existsSync(marker)).toBe(false);
  });

  it("does not run git where a forged claim.acquired event points, and fails the path as outside the roots", () => {
    const base = tempDir();
    const { repo } = clonedRepo(base, "repo");
    const { ext, marker } = externalRepo(base);
    write(repo, "A", "a.txt");
    commit(repo, "a", "a.txt");
    g(repo, "push", "-q");
    const db = openState(repo);
    const id = (raw(db).prepare("SELECT id FROM sessions WHERE native_id = 'A'").get() as { id: string }).id;
    writeLedger(db, (tx) => {
      const forge = (worktree: string, path: string) =>
        append(tx, {
          kind: "claim.acquired",
          session: id,
          data: { worktree, path, disposition: "git", root: worktree },
        });
      forge(ext, "f.txt");
      forge(repo, "../external/g.txt");
      forge("relative/dir", "h.txt");
    });
    db.close();
    const shim = gitShim(base);
    const r = endTurn(repo, "A", shim.env);
    expect(r.code).toBe(1);
    expect(problems(r.json.findings)).toEqual({
      unsupported: [
        expect.objectContaining({ path: join(ext, "f.txt"), kind: "outside-roots" }),
        expect.objectContaining({ path: join(ext, "g.txt"), kind: "outside-roots" }),
      ],
      unverifiable: [{ path: "relative/dir:h.txt", reason: expect.stringMatching(/not an absolute path/) }],
    });
    expect(shim.calls().length).toBeGreaterThan(0);
    expect(ranIn(shim.calls(), ext)).toEqual([]);
    expect(existsSync(marker)).toBe(false);
    expect(endTurnText(repo, "A").stderr).toMatch(/outside the authorized roots/);
  });

  it("fails closed when the ledger lacks the session's session.started", () => {
    const { repo } = clonedRepo(tempDir(), "repo");
    write(repo, "A", "a.txt");
    commit(repo, "a", "a.txt");
    g(repo, "push", "-q");
    expect(endTurn(repo, "A").code).toBe(0);
    const db = openState(repo);
    raw(db).prepare("DELETE FROM events WHERE kind = 'session.started'").run();
    db.close();
    const r = endTurn(repo, "A");
    expect(r).toMatchObject({ code: 1, json: { ok: false, status: null } });
    expect(problems(r.json.findings)).toEqual({ incompleteHistory: true });
    expect(endTurnText(repo, "A").stderr).toContain("Claim history incomplete:");
  });

  it("fails closed for a session whose claims exist but whose start was never recorded", async () => {
    const { repo } = clonedRepo(tempDir(), "repo");
    write(repo, "A", "a.txt");
    const db = openState(repo);
    writeLedger(db, (tx) =>
      append(tx, {
        kind: "claim.acquired",
        session: "ses_ghost",
        data: { worktree: repo, path: "ghost.txt", disposition: "git", root: repo },
      }),
    );
    writeFiles(repo, { "ghost.txt": "boo\n" });
    const r = await endTurnCheck(
      db,
      { id: "ses_ghost" },
      { root: repo, repoTop: repo, config: DEFAULT_CONFIG },
    );
    db.close();
    expect(r.ok).toBe(false);
    expect(problems(r.findings)).toEqual({
      incompleteHistory: true,
      dirty: [{ repo, path: "ghost.txt", state: "??" }],
    });
  });
});
