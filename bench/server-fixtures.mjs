// Fixtures for bench/server.mjs: repositories, the resident server started and stopped by hand,
// the thin client as the wired hook command, and the payloads the cases send.
import { execFileSync, spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, openSync, readFileSync, writeFileSync } from "node:fs";
import { request } from "node:http";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";

const IDENTITY = ["-c", "user.name=Bench", "-c", "user.email=bench@tandem.invalid"];

export const git = (cwd, ...args) =>
  execFileSync("git", [...IDENTITY, ...args], { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });

/** A repository with one empty commit in a fresh temporary directory, and an environment of its own. */
export function repoFixture(prefix = "tandem-bench-server-") {
  const work = mkdtempSync(join(tmpdir(), prefix));
  const repo = join(work, "repo");
  mkdirSync(repo);
  git(repo, "init", "-q", "-b", "main");
  git(repo, "commit", "-q", "--allow-empty", "-m", "i");
  return { work, repo, env: { ...process.env, XDG_CONFIG_HOME: join(work, "xdg") } };
}

/**
 * The thin client's environment for a measured call. TANDEM_NODE names no program, so a call the
 * server does not answer (it fell back to Node) fails with 127 instead of being timed as served.
 */
export const servedEnv = (env) => ({ ...env, TANDEM_NODE: "/nonexistent/tandem-bench-no-fallback" });

const servers = new Set();
const stopped = new Set();
// A bench that throws must not leave a server behind; `--stop` is the orderly way, this the last resort.
process.on("exit", () => {
  for (const s of servers) s.child.kill("SIGTERM");
});

const sleep = (ms) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

/**
 * `tandem serve` in `repo`, started by hand; returns once its address is published. `nodeArgs`
 * (e.g. `--cpu-prof`) are for profiling the server with the bench's own load.
 */
export function startServer(bin, repo, env, { nodeArgs = [] } = {}) {
  const stateDir = join(repo, ".git", "tandem");
  mkdirSync(stateDir, { recursive: true });
  const log = openSync(join(dirname(repo), "serve.log"), "a");
  // Idle exit far beyond the bench: every server is stopped explicitly.
  const child = spawn(process.execPath, [...nodeArgs, bin, "serve"], {
    cwd: repo,
    env: { ...env, TANDEM_SERVER_IDLE_SECONDS: "1800" },
    stdio: ["ignore", log, log],
  });
  const server = { child, repo, env, bin, pid: child.pid, socket: null };
  servers.add(server);
  const addr = join(stateDir, "serve.addr");
  for (let i = 0; i < 400 && !existsSync(addr); i++) sleep(25);
  if (!existsSync(addr)) throw new Error(`tandem serve did not start in ${repo}:\n${serverLog(repo)}`);
  server.socket = readFileSync(addr, "utf8").trim();
  return server;
}

export function stopServer(server) {
  const res = spawnSync(process.execPath, [server.bin, "serve", "--stop"], {
    cwd: server.repo,
    env: server.env,
    encoding: "utf8",
  });
  if (res.status !== 0) {
    server.child.kill("SIGKILL");
    throw new Error(`tandem serve --stop failed: ${res.stdout}${res.stderr}`);
  }
  servers.delete(server);
  stopped.add(server);
}

/**
 * Resolves once every stopped server's process has been reaped, so the CPU they and their git
 * processes used is counted among this process's children before a measurement starts, not in it.
 */
export async function reapStopped() {
  const exited = ({ child }) =>
    child.exitCode !== null || child.signalCode !== null
      ? null
      : new Promise((resolve) => child.once("exit", () => resolve()));
  await Promise.all([...stopped].map(exited));
  stopped.clear();
}

export const serverLog = (repo) => {
  const file = join(dirname(repo), "serve.log");
  return existsSync(file) ? readFileSync(file, "utf8") : "";
};

/** The server's resident set and its peak so far, in MiB, from /proc. */
export function serverMemory(pid) {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kib = (field) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(status)?.[1] ?? Number.NaN);
  return { rss: kib("VmRSS") / 1024, hwm: kib("VmHWM") / 1024 };
}

/**
 * CPU time in ms from /proc (clock ticks of 10 ms): the process's own, and that of its children it
 * has reaped (git processes run by the server; the hook processes the bench ran and their children).
 */
export function cpuMs(pid = "self") {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  const f = stat
    .slice(stat.lastIndexOf(") ") + 2)
    .split(" ")
    .map(Number);
  return { own: (f[11] + f[12]) * 10, children: (f[13] + f[14]) * 10 };
}

/** The build the thin client beside `bin` announces (a server answers its own build only). */
export const buildOf = (bin) =>
  /^build='([^']*)'/m.exec(readFileSync(join(dirname(bin), "tandem"), "utf8"))?.[1];

/** The thin client's request (src/core/server/thin-protocol.ts), as `printf` in dist/tandem writes it. */
export function thinRequest(build, cwd, env, args, payload) {
  const vars = Object.entries(env).map(([k, v]) => `${k}=${v}`);
  const head = ["tandem-thin 1", build, String(process.pid), cwd, String(args.length), ...args, ...vars, ""];
  return Buffer.concat([Buffer.from(`${head.join("\0")}\0`), Buffer.from(payload)]);
}

/**
 * The socket's token header (decision 0064) as the thin client sends it, from the file beside the
 * socket; none when a server before that decision left no such file.
 */
function tokenHeader(socket) {
  const file = join(dirname(socket), "secrets", "socket-header");
  if (!existsSync(file)) return {};
  const line = readFileSync(file, "utf8").trim();
  const at = line.indexOf(":");
  return { [line.slice(0, at).trim()]: line.slice(at + 1).trim() };
}

export function postThin(socket, body) {
  return new Promise((resolve, reject) => {
    const headers = { "content-length": body.length, ...tokenHeader(socket) };
    const req = request({ socketPath: socket, path: "/", method: "POST", headers }, (res) => {
      let text = "";
      res.on("data", (c) => {
        text += c;
      });
      res.on("end", () => resolve({ status: res.statusCode, text }));
    });
    req.on("error", reject);
    req.end(body);
  });
}

export const writePayload = (repo, session, file, id = "t1") => ({
  session_id: session,
  cwd: repo,
  hook_event_name: "PreToolUse",
  tool_name: "Write",
  tool_input: { file_path: join(repo, file), content: "x" },
  tool_use_id: id,
});

/** Codex sends nearly every action through its shell tool, named Bash in its hook payloads. */
export const shellPayload = (repo, session, event, command, id) => ({
  session_id: session,
  turn_id: "turn-1",
  cwd: repo,
  hook_event_name: event,
  model: "gpt-5.5",
  permission_mode: "default",
  tool_name: "Bash",
  tool_input: { command },
  ...(event === "PostToolUse" ? { tool_response: "ok\n" } : {}),
  tool_use_id: id,
});

export const patchPayload = (repo, session, files) => ({
  session_id: session,
  turn_id: "turn-1",
  cwd: repo,
  hook_event_name: "PreToolUse",
  model: "gpt-5.5",
  permission_mode: "default",
  tool_name: "apply_patch",
  tool_input: {
    command: `*** Begin Patch\n${files.map((f) => `*** Add File: ${f}\n+x`).join("\n")}\n*** End Patch\n`,
  },
  tool_use_id: "call-patch",
});

/** What agents run through their shell: half only read, half write files (none opaque). */
export const SHELL_MIX = [
  "ls -la",
  "git status --short && git diff --stat",
  "cat README.md | head -n 20",
  "grep -rn 'TODO' src || true",
  "echo done > notes/out.txt",
  "sed -i 's/alpha/beta/' notes/config.txt",
  "mkdir -p build && touch build/stamp",
  "printf 'line\\n' >> notes/log.txt && wc -l notes/log.txt",
];

/**
 * One repository with 1,000 paths owned by one Codex session (claimed by one apply_patch through
 * the Node path), all committed and pushed, so `status --end-turn` passes.
 */
export function endTurnFixture(bin, count = 1000) {
  const work = mkdtempSync(join(tmpdir(), "tandem-bench-server-endturn-"));
  const seed = join(work, "seed");
  const remote = join(work, "repo.git");
  const repo = join(work, "repo");
  mkdirSync(seed);
  git(seed, "init", "-q", "-b", "main");
  writeFileSync(join(seed, "README.md"), "bench\n");
  git(seed, "add", "-A");
  git(seed, "commit", "-q", "-m", "initial");
  git(work, "init", "-q", "--bare", "-b", "main", remote);
  git(seed, "push", "-q", remote, "main");
  git(work, "clone", "-q", remote, repo);
  const env = { ...process.env, XDG_CONFIG_HOME: join(work, "xdg") };
  const files = Array.from({ length: count }, (_, i) => `dir ${i % 10}/file-${i}.txt`);
  const claim = spawnSync(process.execPath, [bin, "hook", "codex", "pre-tool-use"], {
    cwd: repo,
    env,
    input: JSON.stringify({ ...patchPayload(repo, "bench-session", files), turn_id: "t1" }),
    encoding: "utf8",
  });
  if (claim.status !== 0 || claim.stdout.includes("deny"))
    throw new Error(`claiming failed: ${claim.stdout}${claim.stderr}`);
  for (const f of files) {
    mkdirSync(dirname(join(repo, f)), { recursive: true });
    writeFileSync(join(repo, f), `${f}\n`);
  }
  git(repo, "add", "-A");
  git(repo, "commit", "-q", "-m", "work");
  git(repo, "push", "-q");
  return { work, repo, env, args: ["status", "--end-turn", "--session", "bench-session"] };
}
