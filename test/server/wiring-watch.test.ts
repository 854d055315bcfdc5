import { execFileSync } from "node:child_process";
import { readFileSync, renameSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { openDb } from "../../src/store/db.js";
import { listEvents } from "../../src/store/queries.js";
import { PIN, tandem } from "../helpers/cli.js";
import { fakeAgent } from "../helpers/hooks.js";
import { g } from "../helpers/repo.js";
import { cleanEnv, scratch, startServer, stateDir, waitFor } from "./support.js";

/** Issue 25 item 6 with the resident server: its watch heals the wiring with no hook running. */

const SETTINGS = ".claude/settings.json";

function wiredRepo(): string {
  const repo = join(scratch(), "repo");
  execFileSync("mkdir", ["-p", repo]);
  g(repo, "init", "-q", "-b", "main");
  g(repo, "commit", "-q", "--allow-empty", "-m", "initial");
  const init = tandem(["init", ...PIN, "--clients", "claude-code"], { cwd: repo });
  expect(init.code, init.stderr).toBe(0);
  return repo;
}

const hooked = (repo: string): boolean => {
  try {
    return readFileSync(join(repo, SETTINGS), "utf8").includes("hook claude-code pre-tool-use");
  } catch {
    return false;
  }
};

function restoredByServer(repo: string): string[] {
  const db = openDb(stateDir(repo), { readonly: true });
  try {
    return listEvents(db, { kind: "wiring.restored" })
      .map((e) => e.data as { file: string; via: string })
      .filter((d) => d.via === "server")
      .map((d) => d.file);
  } finally {
    db.close();
  }
}

/** A command inside an agent's process, with no hook before or after it. */
function agentRuns(repo: string, command: string): void {
  execFileSync("bash", ["-c", command], { cwd: repo, env: cleanEnv(fakeAgent()), stdio: "ignore" });
}

describe("the resident server's watch on the wiring", () => {
  it("puts Tandem's hooks back after an overwrite, and again after the directory was replaced", async () => {
    const repo = wiredRepo();
    await startServer(repo);
    agentRuns(repo, `python3 -c "open('${SETTINGS}','w').write('{}')"`);
    await waitFor("the server to restore the settings", () => restoredByServer(repo).length === 1);
    expect(hooked(repo)).toBe(true);

    // The watched directory moves away: the server re-arms on what is now at `.claude`.
    renameSync(join(repo, ".claude"), join(repo, "old-claude"));
    await waitFor(
      "the settings to come back",
      () => restoredByServer(repo).length === 2 && hooked(repo),
      150_000,
    );
    agentRuns(repo, `ln -s .claude c && python3 -c "open('c/settings.json','w').write('{}')"`);
    await waitFor(
      "the second overwrite to be undone",
      () => restoredByServer(repo).length === 3 && hooked(repo),
    );
    expect(restoredByServer(repo)).toEqual(Array(3).fill(join(repo, SETTINGS)));
  });
});
