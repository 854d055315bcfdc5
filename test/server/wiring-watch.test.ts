import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { openDb } from "../../src/store/db.js";
import { listEvents } from "../../src/store/events/list.js";
import { PIN, tandem } from "../helpers/cli.js";
import { fakeAgent } from "../helpers/hooks.js";
import { g } from "../helpers/repo.js";
import { cleanEnv, type Env, scratch, startServer, stateDir, thinHook, waitFor } from "./support.js";

/** Issue 25 item 6 with the resident server: its watch heals the wiring with no hook running. */

const SETTINGS = ".claude/settings.json";

function wiredRepo(clients = "claude-code"): string {
  const repo = join(scratch(), "repo");
  execFileSync("mkdir", ["-p", repo]);
  g(repo, "init", "-q", "-b", "main");
  g(repo, "commit", "-q", "--allow-empty", "-m", "initial");
  // Without codex on PATH, init does not ask Codex's app-server about hook trust.
  const init = tandem(["init", ...PIN, "--clients", clients], { cwd: repo, env: { PATH: "/usr/bin:/bin" } });
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

function restoredByServer(repo: string, file = SETTINGS): string[] {
  const db = openDb(stateDir(repo), { readonly: true });
  try {
    return listEvents(db, { kind: "wiring.restored" })
      .map((e) => e.data as { file: string; via: string })
      .filter((d) => d.via === "server" && d.file === join(repo, file))
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

const CODEX_CONFIG = ".codex/config.toml";
/** The thin client may not fall back to Node: the server answers or the hook fails. */
const VIA_SERVER: Env = { TANDEM_NODE: "/nonexistent/node-must-not-run" };

const sleepers: ChildProcess[] = [];
afterAll(() => {
  for (const s of sleepers.splice(0)) s.kill();
});

function agentEnv(): Env {
  const child = spawn("sleep", ["600"], { stdio: "ignore" });
  sleepers.push(child);
  return cleanEnv({ ...VIA_SERVER, CLAUDE_PID: String(child.pid) });
}

describe("the resident server's watch on Codex's config.toml", () => {
  it("takes out `[features] hooks = false` with no hook running, keeps the rest, and the live session is told once", async () => {
    const repo = wiredRepo("claude-code,codex");
    const person = 'model = "o3"\n';
    writeFileSync(join(repo, CODEX_CONFIG), person);
    await startServer(repo);
    const a = { cwd: repo, env: agentEnv() };
    const prompt = async () => {
      const payload = { session_id: "A", cwd: repo, hook_event_name: "UserPromptSubmit", prompt: "go" };
      const r = await thinHook("claude-code", "user-prompt-submit", payload, a);
      expect(r.code, r.stderr).toBe(0);
      return JSON.parse(r.stdout).hookSpecificOutput.additionalContext as string;
    };
    expect(await prompt()).not.toMatch(/changed it back/);

    agentRuns(repo, `python3 -c "open('${CODEX_CONFIG}','a').write('[features]\\nhooks = false\\n')"`);
    await waitFor(
      "the server to switch Codex's hooks back on",
      () => restoredByServer(repo, CODEX_CONFIG).length === 1,
    );
    expect(readFileSync(join(repo, CODEX_CONFIG), "utf8")).toBe(`${person}[features]\n`);

    const told = await prompt();
    expect(told).toMatch(/changed Tandem's wiring, .* and Tandem changed it back/);
    expect(told).toContain(`- .codex/config.toml: \`hooks = false\` on line 3`);
    expect(await prompt()).not.toMatch(/changed it back/);
  });
});
