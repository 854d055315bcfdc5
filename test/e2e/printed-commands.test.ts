/**
 * Issue 42 item 4: every command Tandem prints runs as printed, for whoever reads it. A
 * devDependency install in a repository whose path has a space: messages make Tandem print its
 * commands (refusals and notices to agents, an agent's status box, a person's status overview,
 * doctor, recover and discard), the commands are harvested from their code spans, and each runs
 * where it was printed for: an agent's inside that agent's process, a person's from a plain shell.
 */
import { spawnSync } from "node:child_process";
import { chmodSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { shellQuote } from "../../src/core/quote.js";
import { agentShell, runInAgent } from "../helpers/agent-shell.js";
import { type RunResult, TANDEM_BIN, tandem } from "../helpers/cli.js";
import { claudeBash, claudeWrite, denied, hook, ledger } from "../helpers/hooks.js";
import { patient } from "../helpers/patience.js";
import { g, initRepo, tempDir } from "../helpers/repo.js";
import { canMakeReadOnly, makeReadOnly, undoFaults } from "../helpers/store-faults.js";

type Agent = { CLAUDE_PID: string };
const PERSON = { TANDEM_SESSION: undefined, CLAUDE_CODE_SESSION_ID: undefined, CODEX_THREAD_ID: undefined };

/** A project with Tandem as a devDependency: `npx tandem` and `node_modules/.bin/tandem` both start it. */
function devDependencyRepo(): string {
  const repo = initRepo(join(tempDir(), "my repo"), {
    "f.txt": "committed\n",
    "my notes.txt": "committed notes\n",
    "g.txt": "committed g\n",
    ".gitignore": "node_modules/\n",
    "package.json": '{"name":"proj","version":"1.0.0","devDependencies":{"tandem":"0.1.0"}}\n',
  });
  const pkg = join(repo, "node_modules", "tandem");
  mkdirSync(pkg, { recursive: true });
  mkdirSync(join(repo, "node_modules", ".bin"));
  writeFileSync(join(pkg, "package.json"), '{"name":"tandem","version":"0.1.0","bin":{"tandem":"tandem"}}\n');
  writeFileSync(
    join(pkg, "tandem"),
    `#!/bin/sh\nexec ${shellQuote(process.execPath)} ${shellQuote(TANDEM_BIN)} "$@"\n`,
  );
  chmodSync(join(pkg, "tandem"), 0o755);
  symlinkSync("../tandem/tandem", join(repo, "node_modules", ".bin", "tandem"));
  const init = tandem(["init", "--command", "node_modules/.bin/tandem"], { cwd: repo, env: PERSON });
  expect(init.code, init.stderr).toBe(0);
  g(repo, "add", "-A");
  g(repo, "commit", "-qm", "wire tandem");
  return repo;
}

const as = (repo: string, agent: Agent) => ({ cwd: repo, env: { ...agent } });

function hookAs(repo: string, agent: Agent, who: string, event: string, extra: Record<string, unknown>) {
  return hook("claude-code", event, { session_id: who, cwd: repo, ...extra }, as(repo, agent));
}

function start(repo: string, agent: Agent, who: string): string {
  const out = hookAs(repo, agent, who, "session-start", {
    hook_event_name: "SessionStart",
    source: "startup",
  });
  hookAs(repo, agent, who, "user-prompt-submit", { hook_event_name: "UserPromptSubmit", prompt: "go" });
  return out.stdout;
}

function write(repo: string, agent: Agent, who: string, file: string, text: string): string | null {
  const payload = claudeWrite(repo, who, file, text);
  const refused = denied(hook("claude-code", "pre-tool-use", payload, as(repo, agent)));
  if (refused) return refused;
  writeFileSync(join(repo, file), text);
  hook("claude-code", "post-tool-use", { ...payload, hook_event_name: "PostToolUse" }, as(repo, agent));
  return null;
}

/** A shell command through the real pre- and post-tool hooks; the post hook's context. */
function bash(repo: string, agent: Agent, who: string, command: string): string {
  expect(
    denied(hook("claude-code", "pre-tool-use", claudeBash(repo, who, command), as(repo, agent))),
  ).toBeNull();
  spawnSync("bash", ["-c", command], { cwd: repo, stdio: "ignore" });
  return hook("claude-code", "post-tool-use", claudeBash(repo, who, command, "PostToolUse"), as(repo, agent))
    .stdout;
}

function nameOf(repo: string, native: string): string {
  const started = ledger(repo).events.find(
    (e) => e.kind === "session.started" && (e.data as { nativeId: string }).nativeId === native,
  );
  return (started!.data as { name: string }).name;
}

/** Hook output is JSON: its strings hold the message with `\n` escaped. */
function text(out: string): string {
  try {
    return JSON.stringify(JSON.parse(out), null, 0).replace(/\\n/g, "\n").replace(/\\"/g, '"');
  } catch {
    return out;
  }
}

/** Every Tandem command in a message's code spans: those starting with one of `launchers`. */
function harvest(message: string, launchers: readonly string[]): string[] {
  const spans = [...message.matchAll(/`([^`]+)`/g)].map((m) => m[1]!);
  return spans.filter((s) => launchers.some((l) => s.startsWith(`${l} `)));
}

interface Printed {
  reader: "agent" | "person";
  where: string;
  command: string;
}

/** Fills in the placeholders a message leaves to its reader, with this scenario's values. */
function filled(command: string, values: Record<string, string>): string {
  return command.replace(/\b(PATH|NAME|COMMAND|LAUNCHER|WHEN)\b/g, (k) => shellQuote(values[k]!));
}

function runAsPerson(repo: string, command: string): RunResult {
  const env: Record<string, string | undefined> = { ...process.env, ...PERSON, npm_config_offline: "true" };
  for (const k of Object.keys(env)) if (env[k] === undefined) delete env[k];
  const r = spawnSync("bash", ["-c", command], {
    cwd: repo,
    env: env as NodeJS.ProcessEnv,
    encoding: "utf8",
  });
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

/** A usage error, an unknown command or a launcher the shell cannot find: not runnable as printed. */
const BROKEN = /unknown (command|option)|not found|No such file|missing required|too many arguments|error: /i;

/**
 * Runs every harvested command where it was printed for: an agent's inside that agent's process,
 * a person's from a plain shell. Init and deinit go last: they rewire what the others rely on.
 */
function runEach(
  repo: string,
  printed: readonly Printed[],
  agentOf: Record<string, Agent>,
  values: Record<string, string>,
): void {
  const wiring = (p: Printed) => / (init|deinit)\b/.test(p.command);
  // A command printed in several places, for the same reader (and agent), runs once.
  const ran = new Set<string>();
  for (const p of [...printed.filter((p) => !wiring(p)), ...printed.filter(wiring)]) {
    const command = filled(p.command, values);
    const key = `${p.reader === "agent" ? agentOf[p.where]!.CLAUDE_PID : "person"} ${command}`;
    if (ran.has(key)) continue;
    ran.add(key);
    const r =
      p.reader === "agent"
        ? runInAgent(agentOf[p.where]!, "bash", ["-c", command], { cwd: repo, env: { ...process.env } })
        : runAsPerson(repo, command);
    const said = `${p.where} printed \`${p.command}\` for ${p.reader === "agent" ? "an agent" : "a person"}; it said: ${r.stdout}${r.stderr}`;
    expect(r.stderr, said).not.toMatch(BROKEN);
    expect(r.code, said).not.toBe(127);
    expect(r.code, said).not.toBe(2);
  }
}

describe("every printed command runs as printed, for its reader", () => {
  it("in a devDependency install under a path with a space: agents' launcher, people's npx tandem, paths quoted", () => {
    const repo = devDependencyRepo();
    const agentLauncher = shellQuote(join(repo, "node_modules/.bin/tandem"));
    const A = agentShell();
    const B = agentShell();
    const C = agentShell();
    const printed: Printed[] = [];
    const take = (reader: Printed["reader"], where: string, message: string) => {
      const launchers = reader === "agent" ? [agentLauncher] : ["npx tandem"];
      for (const command of harvest(message, launchers)) printed.push({ reader, where, command });
      // Nothing a devDependency's reader sees may start with a bare `tandem` its shell cannot run.
      expect(harvest(message, ["tandem"]), `${where}: ${message}`).toEqual([]);
    };

    // A holds "my notes.txt"; B's shell command Tandem cannot read overwrites it: B is warned, A told how to recover.
    start(repo, A, "A");
    expect(write(repo, A, "A", "my notes.txt", "A's notes\n")).toBeNull();
    start(repo, B, "B");
    take(
      "agent",
      "B's clobber warning",
      text(bash(repo, B, "B", `python3 -c "open('my notes.txt','w').write('B')"`)),
    );
    const notice = hookAs(repo, A, "A", "user-prompt-submit", {
      hook_event_name: "UserPromptSubmit",
      prompt: "go on",
    });
    expect(notice.stdout).toContain("overwrote your uncommitted work");
    take("agent", "A's overwritten notice", text(notice.stdout));

    // C leaves g.txt uncommitted and ends: left work. B's write over it is refused once.
    start(repo, C, "C");
    expect(write(repo, C, "C", "g.txt", "C's unfinished g\n")).toBeNull();
    hookAs(repo, C, "C", "session-end", { hook_event_name: "SessionEnd", reason: "prompt_input_exit" });
    const c = nameOf(repo, "C");
    const refusal = write(repo, B, "B", "g.txt", "B's g\n");
    expect(refusal).toMatch(/left work/);
    take("agent", "B's left-work refusal", refusal!);
    // The box wraps a long row onto the next, inside its frame: read it unwrapped.
    const box = tandem(["status"], { cwd: repo, inside: B }).stdout;
    take("agent", "B's status box", box.replace(/\s*\|\n\|\s+/g, " "));
    take("agent", "a new session's start context", text(start(repo, agentShell(), "D")));

    // A gone session: its agent (not our child, so nobody keeps it a zombie) is gone without
    // ending, still holding f.txt, which it left dirty: one verdict, left work, with its fixes
    // (issue 38), not also a stale claim to release.
    const orphan = spawnSync("sh", ["-c", "sleep 600 >/dev/null 2>&1 & echo $!"], { encoding: "utf8" });
    const E = { CLAUDE_PID: orphan.stdout.trim() };
    start(repo, E, "E");
    expect(write(repo, E, "E", "f.txt", "E's f\n")).toBeNull();
    process.kill(Number(E.CLAUDE_PID));

    // What a person reads.
    const person = (args: string[]) => tandem(args, { cwd: repo, env: { ...PERSON, TANDEM_FRESHNESS: "1" } });
    const deadline = Date.now() + patient(30_000);
    let overview = person(["status"]).stdout;
    while (!overview.includes("f.txt: left by") && Date.now() < deadline)
      overview = person(["status"]).stdout;
    expect(overview).toContain("f.txt: left by");
    expect(overview).not.toContain("Stale sessions");
    take("person", "status overview", overview);
    const doctor = person(["doctor"]);
    take("person", "doctor", doctor.stdout);
    expect(doctor.stdout).not.toMatch(/release --session \S+ --force/);
    take("person", "recover --list", person(["recover", "--list"]).stdout);

    expect(printed.filter((p) => p.where === "B's status box").length).toBeGreaterThan(0);
    const kinds = new Set(printed.map((p) => p.command.split(" ").slice(0, 3).join(" ")));
    // The scenario printed recover, adopt, status for agents and recover, discard for people.
    for (const sub of ["recover", "adopt", "status"])
      expect([...kinds].join("\n")).toContain(`${agentLauncher} ${sub}`);
    for (const sub of ["recover", "discard"]) expect([...kinds].join("\n")).toContain(`npx tandem ${sub}`);

    const agentOf: Record<string, Agent> = {
      "B's clobber warning": B,
      "A's overwritten notice": A,
      "B's left-work refusal": B,
      "B's status box": B,
      "a new session's start context": B,
    };
    runEach(repo, printed, agentOf, { PATH: "g.txt", NAME: c, COMMAND: "true" });
  });

  it("in wiring drift, a sub-agent, a land and a read-only store: each text's commands run for its reader", () => {
    const repo = devDependencyRepo();
    const agentLauncher = shellQuote(join(repo, "node_modules/.bin/tandem"));
    const printed: Printed[] = [];
    const take = (reader: Printed["reader"], where: string, message: string) => {
      for (const command of harvest(message, reader === "agent" ? [agentLauncher] : ["npx tandem"]))
        printed.push({ reader, where, command });
      expect(harvest(message, ["tandem"]), `${where}: ${message}`).toEqual([]);
    };
    const person = (args: string[]) => tandem(args, { cwd: repo, env: PERSON });
    const A = agentShell();
    start(repo, A, "A");

    // A deleted git hook: doctor and init --check tell a person to re-run init; the next hook
    // puts it back and tells the agent.
    rmSync(join(repo, ".git", "hooks", "pre-commit"));
    const check = person(["init", "--check"]);
    expect(check.stdout).toMatch(/difference; run `npx tandem init` to fix them/);
    take("person", "init --check", check.stdout);
    const drift = person(["doctor"]).stdout;
    expect(drift).toMatch(/git hooks: .*pre-commit/);
    take("person", "doctor (wiring drift)", drift);
    const healed = hookAs(repo, A, "A", "user-prompt-submit", {
      hook_event_name: "UserPromptSubmit",
      prompt: "go",
    });
    take("agent", "A's heal notice", text(healed.stdout));

    // A sub-agent a person runs: its next steps.
    const sub = person([
      "sub",
      "run",
      "--client",
      "exec",
      "--name",
      "my fix",
      "--",
      "sh",
      "-c",
      "echo s > s.txt",
    ]);
    expect(sub.stdout).toMatch(/next .*`npx tandem sub apply 'my fix'`/);
    take("person", "sub run", sub.stdout);
    take("person", "sub list (none left)", "");

    // A land without an upstream, then with one and a local commit: land's fix and doctor's.
    const noUpstream = person(["land"]);
    expect(noUpstream.stdout).toMatch(/Fix: .*`npx tandem land`/);
    take("person", "land without an upstream", noUpstream.stdout);
    const remote = join(tempDir(), "origin.git");
    g(tempDir(), "init", "-q", "--bare", remote);
    g(repo, "remote", "add", "origin", remote);
    g(repo, "push", "-q", "-u", "origin", "HEAD");
    writeFileSync(join(repo, "landed.txt"), "landed\n");
    g(repo, "add", "landed.txt");
    g(repo, "commit", "-qm", "to land");
    const ahead = person(["doctor"]).stdout;
    expect(ahead).toMatch(/land: [\s\S]*not pushed yet\n\s+fix: run `npx tandem land`/);
    take("person", "doctor (commits to land)", ahead);

    // A read-only store: the agent's refusal and a person's overview say what to run.
    if (!canMakeReadOnly()) throw new Error("cannot make the store read-only here (root without chattr)");
    const B = agentShell();
    start(repo, B, "B");
    makeReadOnly(join(repo, ".git", "tandem", "state.db"));
    try {
      const refused = write(repo, B, "B", "g.txt", "B's g\n");
      expect(refused).toMatch(/read-only/);
      take("agent", "B's read-only refusal", refused!);
      const overview = person(["status"]).stdout;
      expect(overview).toMatch(/store: .*read-only/);
      take("person", "status (read-only store)", overview);
      const kinds = printed.map((p) => `${p.reader} ${p.command}`).join("\n");
      for (const want of [
        "person npx tandem init",
        `agent ${agentLauncher} deinit`,
        "person npx tandem sub apply",
        "person npx tandem land",
        `agent ${agentLauncher} doctor`,
        "person npx tandem doctor",
      ])
        expect(kinds).toContain(want);
      const agentOf = { "A's heal notice": A, "B's read-only refusal": B };
      runEach(repo, printed, agentOf, {
        LAUNCHER: "node_modules/.bin/tandem",
        WHEN: "1h",
        COMMAND: "true",
        NAME: "my fix",
        PATH: "g.txt",
      });
    } finally {
      undoFaults();
    }
  });
});
