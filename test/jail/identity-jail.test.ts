/**
 * Identity from the kernel (issue 36 §3, decision 0064), as a non-root user with a real resident
 * server: a command Claude Code's hook sent into session B's jail finds B's key and no other, and
 * cannot act for session A however it asks — `release --session A --force`, a forged session-end
 * or prompt with A's CLAUDE_PID, a raw request on the server's socket, through a new session.
 * Each refusal is recorded. B's own requests still work through the jail's door. Never skipped.
 */
import { type SpawnSyncReturns, spawn, spawnSync } from "node:child_process";
import {
  chmodSync,
  cpSync,
  existsSync,
  readdirSync,
  readFileSync,
  realpathSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { jailedCommand } from "../../src/core/jail/rewrite.js";
import { shellQuote } from "../../src/core/quote.js";
import { inOtherUserNamespace } from "../../src/sessions/proc.js";
import { patient } from "../helpers/patience.js";
import { initRepo } from "../helpers/repo.js";
import { asRoot, asUser, DIST, endHolders, fileTempDirs, jailEnv, jailUser, USER } from "./support.js";

const FIXTURE = fileURLToPath(new URL("../fixtures/claude-code/bash-PreToolUse.json", import.meta.url));

let home: string;
let install: string;
let repo: string;
let peerPid: number;
let selfPid: number;
const agents: ReturnType<typeof spawn>[] = [];
const dirs = fileTempDirs();

/** The server on: hooks and commands go through the thin client, which starts it. */
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

function agentPid(): number {
  const [file, ...args] = asUser(["sleep", "600"]);
  const child = spawn(file!, args, { stdio: "ignore" });
  agents.push(child);
  return child.pid!;
}

function payload(session: string, event: string, body: Record<string, unknown>): string {
  const recorded = JSON.parse(readFileSync(FIXTURE, "utf8")) as Record<string, unknown>;
  return JSON.stringify({ ...recorded, session_id: session, cwd: repo, hook_event_name: event, ...body });
}

/** A Claude Code hook through the thin client (the server answers once it is up). */
function hook(event: string, session: string, pid: number, body: Record<string, unknown>, extra = {}) {
  const r = run(
    ["tandem", "hook", "claude-code", event],
    { CLAUDE_PID: String(pid), ...extra },
    payload(session, "PreToolUse", body),
  );
  expect(r.status, r.stderr).toBe(0);
  return r.stdout;
}

const write = (session: string, pid: number, file: string) =>
  hook("pre-tool-use", session, pid, {
    tool_name: "Write",
    tool_input: { file_path: join(repo, file), content: "x" },
  });

/** `command` run as Claude would run it after `session`'s pre-tool hook rewrote it into its jail. */
function inJail(
  command: string,
  extra: NodeJS.ProcessEnv = {},
  session = "self-session",
): SpawnSyncReturns<string> {
  const out = hook(
    "pre-tool-use",
    session,
    session === "self-session" ? selfPid : peerPid,
    { tool_name: "Bash", tool_input: { command, description: "t" } },
    { TANDEM_GUARD: "kernel" },
  );
  const rewritten = (JSON.parse(out) as { hookSpecificOutput?: { updatedInput?: { command?: string } } })
    .hookSpecificOutput?.updatedInput?.command;
  expect(rewritten, out).toMatch(/bin\/jail|nsenter/);
  return run(["bash", "-c", rewritten!], extra);
}

/** B's latest plan run by the launcher, as a session without a standing jail runs `command`. */
function perCommand(command: string): string {
  const dir = join(repo, ".git/tandem/jail");
  const holders = readdirSync(dir).filter((f) => f.endsWith(".holder"));
  const mine = holders.find(
    (f) => (JSON.parse(readFileSync(join(dir, f), "utf8")) as { agent: number }).agent === selfPid,
  );
  expect(mine, holders.join(", ")).toBeDefined();
  const plan = join(dir, mine!.replace(/\.holder$/, ".plan"));
  return jailedCommand(join(repo, ".git/tandem/bin/jail"), plan, command);
}

const claims = () => run(["tandem", "claims"]).stdout;
const jailEvents = () =>
  run(["node", join(install, "tandem.cjs"), "events", "--kind", "jail.refused", "--json"])
    .stdout.trim()
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l) as { data: { attempt: string; claimed: string | null } });

beforeAll(async () => {
  home = jailUser().home;
  install = dirs.make("tandem-idjail-install-");
  cpSync(DIST, install, { recursive: true });
  chmodSync(install, 0o755);
  symlinkSync(realpathSync(join(DIST, "..", "node_modules")), join(install, "node_modules"));
  repo = initRepo(dirs.make("tandem-idjail-repo-"), { "README.md": "hello\n", "mine.txt": "mine\n" });
  if (asRoot) expect(spawnSync("chown", ["-R", USER, repo]).status).toBe(0);
  peerPid = agentPid();
  selfPid = agentPid();
  write("peer-session", peerPid, "peer.txt");
  expect(run(["sh", "-c", "printf 'peer work\\n' > peer.txt"]).status).toBe(0);
  // The thin client started the server in the background: wait for its loopback door.
  const deadline = Date.now() + patient(30_000);
  while (!existsSync(join(repo, ".git/tandem/serve.tcp"))) {
    if (Date.now() > deadline) throw new Error("the resident server did not start");
    await new Promise((r) => setTimeout(r, 50));
  }
  write("self-session", selfPid, "mine.txt");
  // Each session's first jailed command gives it its key.
  expect(inJail("true", {}, "peer-session").status).toBe(0);
  expect(inJail("true").status).toBe(0);
});

afterAll(() => {
  run(["node", join(install, "tandem.cjs"), "serve", "--stop"]);
  for (const a of agents) a.kill();
  endHolders(repo);
  dirs.removeAll();
});

describe("identity from the kernel: inside B's jail (as a non-root user)", () => {
  it("the jail sees its own key and no other session's, not even through /proc", () => {
    const keys = run(["sh", "-c", "ls .git/tandem/secrets/*.key"]).stdout.trim().split("\n");
    // Outside every jail, both sessions' keys are there.
    expect(keys).toHaveLength(2);
    const r = inJail(
      `ls -A .git/tandem/secrets; cat ${keys.map(shellQuote).join(" ")}; ls /proc/${peerPid}/root${repo}/.git/tandem/secrets; ls .git/tandem/serve.hello`,
    );
    expect(r.stdout.trim().split("\n"), r.stderr).toEqual(["self"]);
    expect(r.stderr.match(/\.key: No such file/g)).toHaveLength(2);
    expect(r.stderr).toMatch(new RegExp(`/proc/${peerPid}/root.*Permission denied`));
    expect(r.stderr).toMatch(/serve\.hello.*Permission denied/);
  });

  const forgeries: [string, string, NodeJS.ProcessEnv, string, string | null][] = [
    [
      "release --session A --force",
      "tandem release peer.txt --session peer-session --force",
      {},
      "session",
      "peer-session",
    ],
    [
      "the same from a new terminal session",
      "setsid -w script -qec 'tandem release peer.txt --session peer-session --force' /dev/null",
      {},
      "session",
      "peer-session",
    ],
    [
      "TANDEM_SESSION naming A",
      "tandem release peer.txt --force",
      { TANDEM_SESSION: "peer-session" },
      "session",
      "peer-session",
    ],
  ];
  it.each(forgeries)("%s fails, and the attempt is recorded", (_what, command, extra, attempt, claimed) => {
    const before = jailEvents().length;
    const r = inJail(command, extra);
    expect(r.status).not.toBe(0);
    expect(`${r.stdout}${r.stderr}`).toMatch(/runs inside .*jail.*recorded/);
    expect(claims()).toMatch(/peer\.txt/);
    const events = jailEvents();
    expect(events.length).toBe(before + 1);
    expect(events.at(-1)!.data).toMatchObject({ attempt, claimed });
  });

  it("the issue's spelling, detached: setsid -f script -qc 'tandem release … --force' fails after its command ended", async () => {
    const before = jailEvents().length;
    const command = "setsid -f script -qc 'tandem release peer.txt --session peer-session --force' /dev/null";
    expect(inJail(command).status).toBe(0);
    const deadline = Date.now() + patient(20_000);
    while (jailEvents().length === before) {
      if (Date.now() > deadline) throw new Error("the detached release was never refused nor recorded");
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(jailEvents().at(-1)!.data).toMatchObject({ attempt: "session", claimed: "peer-session" });
    expect(claims()).toMatch(/peer\.txt/);
  });

  it.each(["session-end", "user-prompt-submit"])(
    "a forged %s with A's CLAUDE_PID fails and is recorded",
    (event) => {
      const before = jailEvents().length;
      const body = JSON.stringify({
        session_id: "peer-session",
        cwd: repo,
        hook_event_name: event,
        prompt: "x",
        reason: "other",
      });
      // Spelled so the reader does not see `tandem hook` (it refuses that up front): the kernel's turn.
      const r = inJail(
        `printf '%s' ${shellQuote(body)} | CLAUDE_PID=${peerPid} $(echo dGFuZGVt | base64 -d) hook claude-code ${event}`,
      );
      expect(r.status).not.toBe(0);
      expect(r.stderr).toMatch(/came from inside .*jailed command.*recorded/);
      expect(claims()).toMatch(/peer\.txt/);
      expect(jailEvents().length).toBe(before + 1);
      expect(jailEvents().at(-1)!.data.attempt).toBe("hook");
    },
  );

  it("a raw request on the server's socket naming A's agent is refused without the socket's token", () => {
    const build = /^build='([^']*)'/m.exec(readFileSync(join(install, "tandem"), "utf8"))![1]!;
    const fields = ["tandem-thin 1", build, String(peerPid), repo, "3", "release", "peer.txt", "--force", ""];
    const body = `${fields.join("\\0")}\\0`;
    const r = inJail(
      `printf ${shellQuote(body)} | curl -s -o /dev/null -w '%{http_code}' --unix-socket "$(cat .git/tandem/serve.addr)" --data-binary @- http://tandem/`,
    );
    expect(r.stdout).toBe("403");
    expect(claims()).toMatch(/peer\.txt/);
  });

  it("status shows the guard in force for the session and its peers", () => {
    const status = (extra: NodeJS.ProcessEnv) =>
      run(["node", join(install, "tandem.cjs"), "status", "--session", "self-session"], extra).stdout;
    expect(status({ TANDEM_GUARD: "kernel" })).toMatch(/guard {4}kernel; peers: \S+ kernel/);
    expect(status({ TANDEM_GUARD: "reader" })).toMatch(/guard {4}reader; peers: \S+ reader/);
  });

  it("an agent process inside a jail is told apart from one outside (tandem run's sessions)", async () => {
    const [file, ...args] = asUser(["unshare", "--map-current-user", "--mount", "sleep", "600"]);
    const jailed = spawn(file!, args, { stdio: "ignore" });
    agents.push(jailed);
    // runuser forks: the jailed sleep is its child once unshare has exec'd it.
    const sleeper = async (): Promise<number> => {
      const deadline = Date.now() + patient(10_000);
      for (;;) {
        const pids = spawnSync("pgrep", ["-P", String(jailed.pid), "-x", "sleep"], {
          encoding: "utf8",
        }).stdout;
        const direct = readFileSync(`/proc/${jailed.pid}/comm`, "utf8").trim() === "sleep";
        if (direct) return jailed.pid!;
        if (pids.trim()) return Number(pids.trim().split("\n")[0]);
        if (Date.now() > deadline) throw new Error("the jailed sleep did not start");
        await new Promise((r) => setTimeout(r, 20));
      }
    };
    expect(inOtherUserNamespace(await sleeper())).toBe(true);
    expect(inOtherUserNamespace(peerPid)).toBe(false);
  });

  it("binds from the plan's fstab, odd names included, and one at a time when a path is gone", () => {
    for (const name of ["odd name.txt", "gone.txt"]) {
      write("peer-session", peerPid, name);
      expect(run(["sh", "-c", `printf 'peer\\n' > '${name}'`]).status).toBe(0);
    }
    const attempt = `python3 -c 'open("odd name.txt", "w")' 2>&1 | tail -1; python3 -c 'open("peer.txt", "w")' 2>&1 | tail -1; ls -A .git/tandem/secrets`;
    // A mount on PATH that logs its arguments: the binds and the secrets' cover take one process.
    const shim = dirs.make("tandem-idjail-shim-");
    const real = spawnSync("sh", ["-c", "command -v mount"], { encoding: "utf8" }).stdout.trim();
    writeFileSync(join(shim, "mount"), `#!/bin/sh\necho "$1" >> ${shim}/log\nexec ${real} "$@"\n`);
    chmodSync(shim, 0o777);
    chmodSync(join(shim, "mount"), 0o755);
    // The per-command jail (a session without a standing one, decision 0079): B's plan, as the
    // hook wrote it, through the launcher.
    inJail("true");
    const once = run(["bash", "-c", perCommand(attempt)], { PATH: `${shim}:${install}:${process.env.PATH}` });
    expect(once.stdout.match(/Read-only file system/g), once.stdout + once.stderr).toHaveLength(2);
    expect(readFileSync(join(shim, "log"), "utf8").split("\n").filter(Boolean)).toEqual(["--all"]);
    expect(readdirSync(join(repo, ".git/tandem/jail")).filter((f) => f.endsWith(".fstab"))).toHaveLength(2);
    // The plan still lists gone.txt; removed after the hook wrote it, the one mount process fails.
    const command = perCommand(attempt);
    expect(run(["rm", "gone.txt"]).status).toBe(0);
    const after = run(["bash", "-c", command]);
    expect(after.stdout.match(/Read-only file system/g), after.stdout + after.stderr).toHaveLength(2);
    // One at a time, the secrets are still covered: the jail's own key alone.
    expect(after.stdout.trim().split("\n").at(-1)).toBe("self");
    expect(readFileSync(join(repo, "odd name.txt"), "utf8")).toBe("peer\n");
  });

  it("B's own requests go through the jail's door as B", () => {
    const status = inJail("tandem status");
    expect(status.status, status.stderr).toBe(0);
    const r = inJail("CLAUDE_PID=1 tandem release mine.txt");
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toBe("released mine.txt\n");
    expect(claims()).not.toMatch(/mine\.txt/);
    expect(claims()).toMatch(/peer\.txt/);
  });
});
