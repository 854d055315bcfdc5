import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { request } from "node:http";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { openDb } from "../../src/store/db.js";
import { listEvents } from "../../src/store/events/list.js";
import { raw } from "../../src/store/handle.js";
import type { RunResult } from "../helpers/cli.js";
import { claudeBash, claudeWrite, denied, type Payload } from "../helpers/hooks.js";
import { initRepo } from "../helpers/repo.js";
import { Agent } from "../server/agents.js";
import { cleanEnv, type Env, run, scratch, startServer, stateDir, THIN, waitFor } from "../server/support.js";

/**
 * Issue 25 item 2: a command run inside agent B's process that names session A acts as B, and
 * what it would do for A (release A's claims, set A's task, prove A's end of turn) is refused and
 * recorded. Agents are live processes named like the client; every command runs as their child,
 * through the real `tandem` command (the thin client), by the Node path and by the resident server.
 */
type Way = "node" | "server";
/** The server only: a thin client that fell back to Node would find none and exit 127. */
const WAYS: Record<Way, Env> = {
  node: { TANDEM_SERVER: "0" },
  server: { TANDEM_NODE: "/nonexistent/node-must-not-run" },
};

interface World {
  repo: string;
  env: Env;
  a: Agent;
  b: Agent;
}

function hookAs(agent: Agent, w: { repo: string; env: Env }, event: string, payload: Payload) {
  return agent.run(THIN, ["hook", "claude-code", event], {
    cwd: w.repo,
    env: w.env,
    input: JSON.stringify(payload),
  });
}

/** A holds f.txt with uncommitted bytes; B is a second live Claude session in the same checkout. */
async function world(way: Way, opts: { bTerminal?: boolean } = {}): Promise<World> {
  const repo = initRepo(join(scratch(), "repo"), { "f.txt": "committed\n" });
  const bin = join(scratch(), "bin");
  mkdirSync(bin);
  symlinkSync(THIN, join(bin, "tandem"));
  if (way === "server") await startServer(repo);
  const env = cleanEnv({ PATH: `${bin}:${process.env.PATH}`, ...WAYS[way] });
  const dir = scratch("tandem-agents-");
  const b = Agent.start("claude", dir, { terminal: opts.bTerminal ?? false });
  const w = { repo, env, a: Agent.start("claude", dir), b };
  const write = claudeWrite(repo, "A", "f.txt", "A's precious edit\n");
  expect(denied(await hookAs(w.a, w, "pre-tool-use", write))).toBeNull();
  writeFileSync(join(repo, "f.txt"), "A's precious edit\n");
  await hookAs(w.a, w, "post-tool-use", { ...write, hook_event_name: "PostToolUse" });
  const prompt = { session_id: "B", cwd: repo, hook_event_name: "UserPromptSubmit", prompt: "tidy up" };
  await hookAs(w.b, w, "user-prompt-submit", prompt);
  return w;
}

/**
 * COMMAND as a person types it into a terminal: `script` gives it a new session whose controlling
 * terminal is a pseudo-terminal; its output goes to files, not through the terminal.
 */
async function atTerminal(w: { repo: string; env: Env }, command: string): Promise<RunResult> {
  const dir = scratch("tandem-person-");
  const line = `${command} >${dir}/out 2>${dir}/err`;
  const r = await run("script", ["-qec", line, "/dev/null"], { cwd: w.repo, env: w.env });
  const read = (f: string) => readFileSync(join(dir, f), "utf8");
  return { code: r.code, stdout: read("out"), stderr: read("err") };
}

/** `sh -c COMMAND` as B's tool call would run it: a child of B's process. */
const inB = (w: World, command: string): Promise<RunResult> =>
  w.b.run("/bin/sh", ["-c", command], { cwd: w.repo, env: w.env });

function ledger(repo: string) {
  const db = openDb(stateDir(repo));
  try {
    const names = raw(db).prepare("SELECT id, name, native_id AS native, task FROM sessions").all() as {
      id: string;
      name: string;
      native: string;
      task: string | null;
    }[];
    const native = (id: unknown) => names.find((s) => s.id === id)?.native;
    const claims = raw(db)
      .prepare("SELECT c.path, s.native_id AS holder FROM claims c JOIN sessions s ON s.id = c.session_id")
      .all();
    const refused = listEvents(db)
      .filter((e) => e.kind === "identity.refused")
      .map((e) => {
        const d = e.data as { claimed: string; actual: string; command: string; via: string };
        return { claimed: native(d.claimed), actual: native(d.actual), command: d.command, via: d.via };
      });
    const denials = listEvents(db)
      .filter((e) => e.kind === "claim.denied")
      .flatMap((e) => (e.data as { refused: { reason: string }[] }).refused);
    const places = listEvents(db)
      .filter((e) => e.kind === "identity.refused")
      .map((e) => (e.data as { place?: string }).place);
    const nameOf = (native: string) => names.find((s) => s.native === native)!.name;
    const taskOfA = names.find((s) => s.native === "A")?.task ?? null;
    return { claims, refused, places, taskOfA, nameOf, denials };
  } finally {
    db.close();
  }
}

/** Every way B's command can say it is A, each as B's agent would run it. */
const NAMING_A: [string, string, string][] = [
  ["TANDEM_SESSION=A before the command", "TANDEM_SESSION=A tandem release f.txt", "TANDEM_SESSION"],
  [
    "an exported TANDEM_SESSION, with --force",
    "export TANDEM_SESSION=A; tandem release --force f.txt",
    "TANDEM_SESSION",
  ],
  ["--session A", "tandem release f.txt --session A --force", "flag"],
  ["Claude's own session variable", "CLAUDE_CODE_SESSION_ID=A tandem release f.txt", "client-env"],
  [
    "a child process whose environment names A",
    `python3 -c "import os, subprocess; os.environ['TANDEM_SESSION'] = 'A'; raise SystemExit(subprocess.run(['tandem', 'release', 'f.txt']).returncode)"`,
    "TANDEM_SESSION",
  ],
];

describe.each(["node", "server"] as Way[])("a command inside B naming session A (%s path)", (way) => {
  it("is refused and recorded however it names A, B's next Write is still refused, and A's bytes stay", async () => {
    const w = await world(way);
    for (const [what, command, via] of NAMING_A) {
      const r = await inB(w, command);
      expect({ what, code: r.code, stdout: r.stdout }).toEqual({ what, code: 1, stdout: "" });
      expect(r.stderr).toMatch(/runs inside agent-\S+'s agent process but names session agent-\S+/);
      expect(r.stderr).toMatch(/`tandem release` changed nothing/);
      expect(ledger(w.repo).refused.at(-1)).toEqual({ claimed: "A", actual: "B", command: "release", via });
    }
    expect(ledger(w.repo).refused).toHaveLength(NAMING_A.length);
    expect(ledger(w.repo).claims).toEqual([{ path: "f.txt", holder: "A" }]);

    const next = await hookAs(w.b, w, "pre-tool-use", claudeWrite(w.repo, "B", "f.txt"));
    expect(denied(next)).toMatch(/f\.txt/);
    expect(readFileSync(join(w.repo, "f.txt"), "utf8")).toBe("A's precious edit\n");
  });

  it("refuses setting A's task or proving A's end of turn, and a read acts as B and says so", async () => {
    const w = await world(way);
    const task = await inB(w, `TANDEM_SESSION=A tandem task "hijacked"`);
    expect(task.code).toBe(1);
    const endTurn = await inB(w, "tandem status --end-turn --session A");
    expect(endTurn.code).toBe(1);
    expect(ledger(w.repo).refused.map((r) => r.command)).toEqual(["task", "status --end-turn"]);
    expect(ledger(w.repo).taskOfA).toBeNull();

    const status = await inB(w, "TANDEM_SESSION=A tandem status --json");
    expect(status.code).toBe(0);
    const shown = JSON.parse(status.stdout) as { session: { name: string } };
    expect(status.stderr).toMatch(new RegExp(`acts as ${shown.session.name}, not as agent-`));
    const own = JSON.parse((await inB(w, "tandem status --json")).stdout) as { session: { name: string } };
    expect(shown.session.name).toBe(own.session.name);
  });

  it("B's pre-tool hook refuses a command that sets A's identity, and lets one that names B or nobody", async () => {
    const w = await world(way);
    const a = ledger(w.repo).nameOf("A");
    const b = ledger(w.repo).nameOf("B");
    const asked = (command: string) => hookAs(w.b, w, "pre-tool-use", claudeBash(w.repo, "B", command));
    for (const command of [
      `TANDEM_SESSION=${a} tandem release f.txt`,
      "export TANDEM_SESSION=A && tandem release f.txt",
      `python3 -c "import os; os.environ['TANDEM_SESSION'] = '${a}'; os.system('tandem release f.txt')"`,
    ]) {
      expect(denied(await asked(command))).toMatch(
        new RegExp(`sets TANDEM_SESSION to name ${a}, another live session`),
      );
    }
    expect(denied(await asked(`TANDEM_SESSION=${b} tandem status`))).toBeNull();
    expect(denied(await asked("TANDEM_SESSION=agent-nobody tandem status"))).toBeNull();
    const refusals = ledger(w.repo).denials.filter((d) => d.reason === "identity");
    expect(refusals).toHaveLength(3);
  });

  it("still lets a person's shell, at a terminal with no agent among its ancestors, name A", async () => {
    const w = await world(way);
    const r = await atTerminal(w, "TANDEM_SESSION=A tandem release f.txt");
    expect(r).toEqual({ code: 0, stdout: "released f.txt\n", stderr: "" });
    expect(ledger(w.repo).claims).toEqual([]);
    expect(ledger(w.repo).refused).toEqual([]);
  });
});

/**
 * Issue 25 item 2, decision 0045: a command inside B that leaves B's process tree is re-parented to
 * init, so its ancestry shows no agent. The release for A hides in a script file, where the hook's
 * text rule cannot see it; B's command only starts it, detached, and returns.
 */
const LEAVING_B: [string, (script: string) => string][] = [
  ["setsid -f", (x) => `setsid -f sh ${x}`],
  ["a double fork", (x) => `(sh ${x} &)`],
  ["nohup … & from a subshell that ends", (x) => `sh -c 'nohup sh ${x} >/dev/null 2>&1 &'`],
];

/** A script that releases f.txt for A, its outcome in files beside it; returns the script and a wait for the outcome. */
function releaseForA(): { script: string; outcome: () => Promise<RunResult> } {
  const dir = scratch("tandem-detached-");
  const script = join(dir, "x.sh");
  writeFileSync(
    script,
    `TANDEM_SESSION=A tandem release f.txt >${dir}/out 2>${dir}/err\necho $? >${dir}/code.tmp\nmv ${dir}/code.tmp ${dir}/code\n`,
  );
  const read = (f: string) => readFileSync(join(dir, f), "utf8");
  const outcome = async () => {
    await waitFor("the detached script to finish", () => existsSync(join(dir, "code")), 120_000);
    return { code: Number(read("code")), stdout: read("out"), stderr: read("err") };
  };
  return { script, outcome };
}

describe.each(["node", "server"] as Way[])("a command that leaves B's process tree (%s path)", (way) => {
  it.each(LEAVING_B)(
    "%s: its release for A is refused and recorded, and A keeps its claim",
    async (_how, detach) => {
      const w = await world(way);
      const { script, outcome } = releaseForA();
      expect((await inB(w, detach(script))).code).toBe(0);
      const r = await outcome();
      expect({ code: r.code, stdout: r.stdout }).toEqual({ code: 1, stdout: "" });
      expect(r.stderr).toMatch(/runs outside every agent's process and has no terminal/);
      expect(r.stderr).toMatch(/`tandem release` changed nothing and the attempt was recorded/);
      expect(r.stderr).toMatch(/A person: run it from your terminal/);
      const l = ledger(w.repo);
      expect(l.refused).toEqual([
        { claimed: "A", actual: undefined, command: "release", via: "TANDEM_SESSION" },
      ]);
      expect(l.places).toEqual(["none"]);
      expect(l.claims).toEqual([{ path: "f.txt", holder: "A" }]);
      expect(denied(await hookAs(w.b, w, "pre-tool-use", claudeWrite(w.repo, "B", "f.txt")))).toMatch(
        /f\.txt/,
      );
      expect(readFileSync(join(w.repo, "f.txt"), "utf8")).toBe("A's precious edit\n");
    },
  );

  it("refuses it too when B runs in a terminal and what it left behind keeps B's terminal session", async () => {
    const w = await world(way, { bTerminal: true });
    const { script, outcome } = releaseForA();
    expect((await inB(w, `(sh ${script} &)`)).code).toBe(0);
    const r = await outcome();
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/runs outside every agent's process but in a live agent's terminal session/);
    expect(ledger(w.repo).places).toEqual(["agent-session"]);
    expect(ledger(w.repo).claims).toEqual([{ path: "f.txt", holder: "A" }]);
  });
});

/** A request written straight to the server's socket, as the thin client writes it, from `pid`. */
function rawRequest(repo: string, pid: number, args: string[], env: string[]): Promise<number> {
  const build = /^build='([^']*)'/m.exec(readFileSync(THIN, "utf8"))![1]!;
  const fields = ["tandem-thin 1", build, String(pid), repo, String(args.length), ...args, ...env, ""];
  const socketPath = readFileSync(join(stateDir(repo), "serve.addr"), "utf8").trim();
  // The socket's token, which a process outside every jail can read (decision 0064).
  const [name, value] = readFileSync(join(stateDir(repo), "secrets/socket-header"), "utf8")
    .trim()
    .split(": ");
  return new Promise((resolve, reject) => {
    const req = request({ socketPath, method: "POST", path: "/", headers: { [name!]: value } }, (res) => {
      res.resume();
      res.on("end", () => resolve(res.statusCode ?? 0));
    });
    req.on("error", reject);
    req.end(`${fields.join("\0")}\0`);
  });
}

describe("the resident server and a caller it cannot see", () => {
  it("declines a release from a process that is gone instead of taking it for a person's shell", async () => {
    const w = await world("server");
    const gone = spawnSync("true").pid!;
    expect(await rawRequest(w.repo, gone, ["release", "f.txt"], ["TANDEM_SESSION=A"])).toBe(421);
    expect(ledger(w.repo).claims).toEqual([{ path: "f.txt", holder: "A" }]);
  });
});
