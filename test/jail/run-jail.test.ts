/**
 * `tandem run <client>` (docs/decisions/0056), as a non-root user: the whole client runs in the
 * kernel jail, and the read-only set follows the claims while it runs — a file a peer claims after
 * the start becomes read-only to it, and a peer that ends frees its files. The client here is a
 * python script standing in for Codex (`subagents.clients.codex.command`). Never skipped.
 */
import { type SpawnSyncReturns, spawn, spawnSync } from "node:child_process";
import {
  chmodSync,
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  realpathSync,
  renameSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { patient } from "../helpers/patience.js";
import { initRepo } from "../helpers/repo.js";
import { asRoot, asUser, DIST, fileTempDirs, jailEnv, jailUser, USER } from "./support.js";

const children: ReturnType<typeof spawn>[] = [];
let home = process.env.HOME ?? "/tmp";
let install: string;
let repo: string;
let flags: string;

const dirs = fileTempDirs();
const tempDir = dirs.make;

const env = (extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv => jailEnv(home, extra);

function run(argv: string[], extra: NodeJS.ProcessEnv = {}, input = ""): SpawnSyncReturns<string> {
  const [file, ...args] = asUser(argv);
  return spawnSync(file!, args, {
    cwd: repo,
    env: env(extra),
    input,
    encoding: "utf8",
    timeout: patient(60_000),
  });
}

function background(argv: string[]): ReturnType<typeof spawn> {
  const [file, ...args] = asUser(argv);
  const child = spawn(file!, args, { cwd: repo, env: env(), stdio: ["ignore", "pipe", "pipe"] });
  children.push(child);
  return child;
}

/** One Claude Code hook of the peer, whose agent is `pid`. */
function peerHook(event: string, pid: number, body: Record<string, unknown>): void {
  const payload = JSON.stringify({
    session_id: "peer-session",
    transcript_path: "/tmp/p.jsonl",
    cwd: repo,
    ...body,
  });
  const argv = [process.execPath, join(install, "tandem.cjs"), "hook", "claude-code", event];
  const r = run(argv, { CLAUDE_PID: String(pid) }, payload);
  expect(r.status, r.stderr).toBe(0);
  expect(r.stdout).not.toMatch(/"deny"/);
}

const claim = (pid: number, file: string) =>
  peerHook("pre-tool-use", pid, {
    hook_event_name: "PreToolUse",
    tool_name: "Write",
    tool_input: { file_path: join(repo, file), content: "peer\n" },
    tool_use_id: `toolu_${file}`,
  });

async function until(what: string, ok: () => boolean, said: () => string): Promise<void> {
  const deadline = Date.now() + patient(30_000);
  while (!ok()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; so far:\n${said()}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

// The stand-in client: writes each file when told, and says what the kernel answered.
const CLIENT = String.raw`
import os, sys, time
flags = sys.argv[1]
open(flags + "/pid", "w").write(str(os.getpid()))
step = 0
while True:
    step += 1
    go = "%s/go%d" % (flags, step)
    while not os.path.exists(go): time.sleep(0.02)
    name = open(go).read()
    if name == "end": sys.exit(3)
    try:
        open(name, "a").write("client\n")
        print(step, name, "ok", flush=True)
    except OSError as e:
        print(step, name, e.strerror, flush=True)
`;

beforeAll(() => {
  home = jailUser().home;
  install = tempDir("tandem-run-install-");
  cpSync(DIST, install, { recursive: true });
  chmodSync(install, 0o755);
  symlinkSync(realpathSync(join(DIST, "..", "node_modules")), join(install, "node_modules"));
  flags = tempDir("tandem-run-flags-");
  chmodSync(flags, 0o777);
  writeFileSync(join(flags, "client.py"), CLIENT);
  chmodSync(join(flags, "client.py"), 0o644);
  repo = initRepo(tempDir("tandem-run-repo-"), { "README.md": "hello\n", "mine.txt": "mine\n" });
  mkdirSync(join(repo, ".tandem"), { recursive: true });
  const launch = { command: "python3", args: [join(flags, "client.py"), flags] };
  writeFileSync(
    join(repo, ".tandem/config.jsonc"),
    JSON.stringify({ subagents: { clients: { codex: launch } } }),
  );
  if (asRoot) expect(spawnSync("chown", ["-R", USER, repo]).status).toBe(0);
});

afterAll(() => {
  for (const c of children) c.kill();
  dirs.removeAll();
});

it("tandem run jails the whole client, and the jail follows a claim taken and a peer ending while it runs", async () => {
  const peer = background(["sleep", "600"]).pid!;
  claim(peer, "early.txt");
  expect(run(["sh", "-c", "printf 'peer\\n' > early.txt && printf 'peer\\n' > late.txt"]).status).toBe(0);
  const client = background([process.execPath, join(install, "tandem.cjs"), "run", "codex"]);
  let out = "";
  client.stdout!.on("data", (d) => (out += d));
  client.stderr!.on("data", (d) => (out += d));
  const exited = new Promise<number | null>((res) => client.on("exit", (c) => res(c)));
  const said = () => out;
  await until("the jailed client", () => existsSync(join(flags, "pid")), said);
  const pid = readFileSync(join(flags, "pid"), "utf8");
  const mounted = (file: string) =>
    readFileSync(`/proc/${pid}/mountinfo`, "utf8").includes(` ${join(repo, file)} `);
  let step = 0;
  // By rename: the client polls for the name and must never read a half-written one.
  const tell = (n: number, what: string) => {
    writeFileSync(join(flags, "next"), what);
    renameSync(join(flags, "next"), join(flags, `go${n}`));
  };
  const attempt = async (file: string): Promise<string> => {
    step++;
    tell(step, file);
    await until(`attempt ${step}`, () => out.includes(`${step} ${file} `), said);
    return out
      .split("\n")
      .find((l) => l.startsWith(`${step} ${file} `))!
      .slice(`${step} ${file} `.length);
  };
  expect(await attempt("early.txt")).toMatch(/Read-only file system|Permission denied/);
  expect(await attempt("mine.txt")).toBe("ok");
  expect(await attempt("late.txt")).toBe("ok");
  // The peer claims late.txt while the client runs: the jail binds it within a moment.
  claim(peer, "late.txt");
  expect(run(["sh", "-c", "printf 'peer again\\n' > late.txt"]).status).toBe(0);
  await until("late.txt bound in the running jail", () => mounted("late.txt"), said);
  expect(await attempt("late.txt")).toMatch(/Read-only file system|Permission denied/);
  expect(readFileSync(join(repo, "late.txt"), "utf8")).toBe("peer again\n");
  // The peer's session ends: its files are no longer anyone's, and the jail lets them go.
  peerHook("session-end", peer, { hook_event_name: "SessionEnd", reason: "other" });
  await until("late.txt unbound", () => !mounted("late.txt"), said);
  expect(await attempt("late.txt")).toBe("ok");
  tell(step + 1, "end");
  expect(await exited).toBe(3);
  // The plan of the run is gone with it.
  expect(readdirSync(join(repo, ".git/tandem/jail")).filter((f) => f.startsWith("run-"))).toEqual([]);
});
