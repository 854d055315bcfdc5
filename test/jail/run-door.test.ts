/**
 * A `tandem run` jail's key (decision 0071), as a non-root user with a real resident server: a
 * client started by `tandem run codex` (a python stand-in that sends Codex's hooks through the
 * thin client from inside its jail) reaches the server through the jails' door — its hooks claim,
 * its agent's `tandem status` and `release` act as its session — while what it names outside the
 * run's process tree (a peer's session, a peer's agent) is refused and recorded. Never skipped.
 */
import { type SpawnSyncReturns, spawn, spawnSync } from "node:child_process";
import {
  chmodSync,
  cpSync,
  existsSync,
  readFileSync,
  realpathSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, expect, it } from "vitest";
import { patient } from "../helpers/patience.js";
import { initRepo } from "../helpers/repo.js";
import { asRoot, asUser, DIST, fileTempDirs, jailEnv, jailUser, USER } from "./support.js";

const fixture = (name: string) =>
  JSON.parse(
    readFileSync(fileURLToPath(new URL(`../fixtures/codex/${name}`, import.meta.url)), "utf8"),
  ) as Record<string, unknown>;

let home: string;
let install: string;
let repo: string;
let flags: string;
let peerPid: number;
const agents: ReturnType<typeof spawn>[] = [];
const dirs = fileTempDirs();

const env = (extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv => ({
  ...jailEnv(home, { PATH: `${install}:${process.env.PATH}`, TANDEM_SERVER_IDLE_SECONDS: "300", ...extra }),
  TANDEM_SERVER: "1",
});

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

const jailEvents = () =>
  run(["node", join(install, "tandem.cjs"), "events", "--kind", "jail.refused", "--json"])
    .stdout.trim()
    .split("\n")
    .filter(Boolean)
    .map(
      (l) => JSON.parse(l) as { session: string | null; data: { attempt: string; claimed: string | null } },
    );

// The stand-in client: runs each step's shell command as its agent would, and records what came back.
const CLIENT = String.raw`
import json, subprocess, sys
flags = sys.argv[1]
steps = json.load(open(flags + "/steps.json"))
out = {}
for name, command, stdin in steps:
    r = subprocess.run(["bash", "-c", command], input=stdin, capture_output=True, text=True)
    out[name] = {"code": r.returncode, "stdout": r.stdout, "stderr": r.stderr}
json.dump(out, open(flags + "/results.json", "w"))
`;

type Result = { code: number; stdout: string; stderr: string };

beforeAll(async () => {
  home = jailUser().home;
  install = dirs.make("tandem-rundoor-install-");
  cpSync(DIST, install, { recursive: true });
  chmodSync(install, 0o755);
  symlinkSync(realpathSync(join(DIST, "..", "node_modules")), join(install, "node_modules"));
  flags = dirs.make("tandem-rundoor-flags-");
  chmodSync(flags, 0o777);
  writeFileSync(join(flags, "client.py"), CLIENT);
  chmodSync(join(flags, "client.py"), 0o644);
  repo = initRepo(dirs.make("tandem-rundoor-repo-"), { "README.md": "hello\n", "mine.txt": "mine\n" });
  const launch = { command: "python3", args: [join(flags, "client.py"), flags] };
  spawnSync("mkdir", ["-p", join(repo, ".tandem")]);
  writeFileSync(
    join(repo, ".tandem/config.jsonc"),
    JSON.stringify({ subagents: { clients: { codex: launch } } }),
  );
  if (asRoot) expect(spawnSync("chown", ["-R", USER, repo]).status).toBe(0);
  const [file, ...args] = asUser(["sleep", "600"]);
  const peer = spawn(file!, args, { stdio: "ignore" });
  agents.push(peer);
  peerPid = peer.pid!;
  // A Claude Code peer outside the run claims peer.txt and writes it.
  const body = JSON.stringify({
    session_id: "peer-session",
    transcript_path: "/tmp/p.jsonl",
    cwd: repo,
    hook_event_name: "PreToolUse",
    tool_name: "Write",
    tool_input: { file_path: join(repo, "peer.txt"), content: "x" },
    tool_use_id: "toolu_peer",
  });
  const r = run(["tandem", "hook", "claude-code", "pre-tool-use"], { CLAUDE_PID: String(peerPid) }, body);
  expect(r.status, r.stderr).toBe(0);
  expect(run(["sh", "-c", "printf 'peer work\\n' > peer.txt"]).status).toBe(0);
  const deadline = Date.now() + patient(30_000);
  while (!existsSync(join(repo, ".git/tandem/serve.tcp"))) {
    if (Date.now() > deadline) throw new Error("the resident server did not start");
    await new Promise((res) => setTimeout(res, 50));
  }
});

afterAll(() => {
  run(["node", join(install, "tandem.cjs"), "serve", "--stop"]);
  for (const a of agents) a.kill();
  dirs.removeAll();
});

it("a client under tandem run reaches the server as its own session, and no further", () => {
  const session = "0192aaaa-0000-7000-8000-00000000run1";
  const codex = (name: string, body: Record<string, unknown>) =>
    JSON.stringify({ ...fixture(name), session_id: session, cwd: repo, ...body });
  const patch = (file: string) => `*** Begin Patch\n*** Add File: ${file}\n+run\n*** End Patch\n`;
  const peerEnd = JSON.stringify({
    session_id: "peer-session",
    cwd: repo,
    hook_event_name: "SessionEnd",
    reason: "other",
  });
  const steps: [string, string, string][] = [
    ["start", "tandem hook codex session-start", codex("write-SessionStart.json", {})],
    [
      "claim",
      "tandem hook codex pre-tool-use",
      codex("write-PreToolUse.json", { tool_input: { command: patch("own.txt") } }),
    ],
    ["status", "tandem status", ""],
    ["release-peer", "tandem release peer.txt --session peer-session --force", ""],
    ["peer-hook", `CLAUDE_PID=${peerPid} tandem hook claude-code session-end`, peerEnd],
    [
      "forged-agent",
      `CLAUDE_PID=${peerPid} tandem hook claude-code session-start`,
      peerEnd.replace("peer-session", "new-one"),
    ],
    ["write-peer", "printf 'run\\n' > peer.txt", ""],
    ["release-own", "tandem release own.txt", ""],
  ];
  writeFileSync(join(flags, "steps.json"), JSON.stringify(steps));
  chmodSync(join(flags, "steps.json"), 0o644);
  const before = jailEvents().length;
  const r = run([process.execPath, join(install, "tandem.cjs"), "run", "codex"]);
  expect(r.status, r.stderr).toBe(0);
  const got = JSON.parse(readFileSync(join(flags, "results.json"), "utf8")) as Record<string, Result>;
  const said = (name: string) => JSON.stringify(got[name]);
  // Its own hooks work from inside: the session starts and its claim is taken.
  expect(got.start!.code, said("start")).toBe(0);
  expect(got.claim!.code, said("claim")).toBe(0);
  expect(got.claim!.stdout).not.toMatch(/"deny"/);
  expect(got.status!.code, said("status")).toBe(0);
  expect(got.status!.stdout).toMatch(/own\.txt/);
  // What names the peer is refused, and the kernel keeps the peer's bytes.
  expect(got["release-peer"]!.code).not.toBe(0);
  expect(got["release-peer"]!.stderr).toMatch(/names session peer-session.*recorded/s);
  expect(got["peer-hook"]!.code).not.toBe(0);
  expect(got["peer-hook"]!.stderr).toMatch(/not one the run started.*recorded/s);
  expect(got["forged-agent"]!.code).not.toBe(0);
  expect(got["forged-agent"]!.stderr).toMatch(/not one the run started/);
  expect(got["write-peer"]!.stderr).toMatch(/Read-only file system|Permission denied/);
  expect(readFileSync(join(repo, "peer.txt"), "utf8")).toBe("peer work\n");
  const claims = run(["tandem", "claims"]).stdout;
  expect(claims).toMatch(/peer\.txt/);
  // Its own release went through the door as its session.
  expect(got["release-own"]!.code, said("release-own")).toBe(0);
  expect(claims).not.toMatch(/own\.txt/);
  const events = jailEvents().slice(before);
  expect(events.map((e) => e.data.attempt)).toEqual(["session", "hook", "hook"]);
  expect(events[0]!.data.claimed).toBe("peer-session");
  // The run's key goes with it.
  expect(run(["sh", "-c", "ls .git/tandem/secrets"]).stdout).not.toMatch(/run-/);
});
