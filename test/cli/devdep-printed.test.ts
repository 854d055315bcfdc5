/**
 * Issue 42 item 4, decision 0051: in a repository where Tandem is a devDependency (init recorded
 * `npx tandem`), what the command line, the hooks and the files init writes print spells Tandem's
 * commands as their reader starts it: a person `npx tandem …`, an agent its own launcher, never
 * a bare `tandem …`. A sample of the sites routed last: a usage error, an empty list, release
 * and reserve output, a remote lease's refusal, doctor's remote finding and Cline's hook file.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { resolveRoot, stateDirOf } from "../../src/config/root.js";
import { agentCommandOf } from "../../src/wiring/agent-shell.js";
import { type RunResult, tandem } from "../helpers/cli.js";
import { claudeWrite, denied, fakeAgent, hook } from "../helpers/hooks.js";
import { g, initRepo, tempDir } from "../helpers/repo.js";

/**
 * A person's shell: no agent's variables leak in from whatever runs the tests. Sharing through the
 * remote is on (the default is off), and no resident server is started.
 */
const PERSON = {
  TANDEM_SESSION: undefined,
  CLAUDE_CODE_SESSION_ID: undefined,
  CODEX_THREAD_ID: undefined,
  TANDEM_REMOTE: "1",
  TANDEM_SERVER: "0",
};

const run = (args: string[], cwd: string, terminal = false): RunResult =>
  tandem(args, { cwd, env: PERSON, terminal });

/** Wires `dir` as a devDependency's `npx tandem init` records it. */
function initDevDependency(dir: string, clients = "claude-code"): void {
  const r = run(["init", "--clients", clients, "--command", "npx tandem"], dir);
  expect(r.code, r.stderr).toBe(0);
}

/** A bare remote and two clones of it, each wired as a devDependency. */
function twoClones(): [string, string] {
  const base = tempDir();
  const remote = join(base, "remote.git");
  g(base, "init", "-q", "--bare", "-b", "main", remote);
  const seed = initRepo(join(base, "seed"), { "src/x.ts": "x\n" });
  g(seed, "push", "-q", `file://${remote}`, "main");
  const dirs = ["a", "b"].map((name) => {
    const dir = join(base, name);
    g(base, "clone", "-q", `file://${remote}`, dir);
    initDevDependency(dir);
    return dir;
  });
  return [dirs[0]!, dirs[1]!];
}

describe("a devDependency's printed commands", () => {
  it("a usage error and an empty list tell a person `npx tandem …`", () => {
    const repo = initRepo(tempDir(), { "f.txt": "f\n" });
    initDevDependency(repo);
    const usage = run(["events", "--session", "nobody"], repo);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain("list them with `npx tandem sessions --all`");
    expect(run(["sessions"], repo).stdout).toContain("(see `npx tandem init`)");
    const unresolved = run(["release", "f.txt"], repo);
    expect(unresolved.stderr).toContain("(see `npx tandem sessions`)");
  });

  it("release tells the person who forced it where the claims are listed", () => {
    const repo = initRepo(tempDir(), { "f.txt": "f\n" });
    initDevDependency(repo);
    const agent = fakeAgent();
    const start = { session_id: "s1", cwd: repo, hook_event_name: "SessionStart", source: "startup" };
    expect(hook("claude-code", "session-start", start, { cwd: repo, env: agent }).code).toBe(0);
    // From a terminal: a person may name a live session (decision 0045).
    const r = run(["release", "f.txt", "--session", "s1", "--force"], repo, true);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("holds no claim on f.txt; see `npx tandem claims`");
  });

  it("a lost reservation tells the person npx tandem, the lease's refusal tells the agent its launcher", () => {
    const [a, b] = twoClones();
    expect(run(["reserve", "src/x.ts"], a).code).toBe(0);
    const lost = run(["reserve", "src/x.ts"], b);
    expect(lost.code).toBe(1);
    expect(lost.stdout).toContain("ask them to run `npx tandem reserve --release src/x.ts` for it");
    // The lease reaches b's store with a sync round; then b's agent is refused the write.
    expect(run(["sync"], b).code).toBe(0);
    const write = claudeWrite(b, "s2", "src/x.ts");
    const refused = denied(hook("claude-code", "pre-tool-use", write, { cwd: b, env: PERSON })) ?? "";
    const launcher = agentCommandOf(b, stateDirOf(resolveRoot({ cwd: b, env: {} })));
    expect(refused).toContain(`its holder runs \`${launcher} reserve --release PATH\``);
    expect(refused).not.toMatch(/`tandem /);
  });

  it("doctor tells a person without a remote to run `npx tandem sync` after adding one", () => {
    const repo = initRepo(tempDir(), { "f.txt": "f\n" });
    initDevDependency(repo);
    expect(run(["doctor"], repo).stdout).toMatch(/no Git remote.*run `npx tandem sync`/);
  });

  it("Cline's hook scripts ask the person for `npx tandem doctor` when Tandem gives no answer", () => {
    const repo = initRepo(tempDir(), { "f.txt": "f\n" });
    initDevDependency(repo, "cline");
    const gate = readFileSync(join(repo, ".clinerules", "hooks", "PreToolUse"), "utf8");
    expect(gate).toContain("Ask the person to run `npx tandem doctor` in this repository");
    expect(gate).toContain("Written by `npx tandem init`, removed by `npx tandem deinit`");
  });
});
