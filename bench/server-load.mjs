// The server under load for bench/server.mjs: 16 agents firing hooks at once through the wired
// command, and the server's resident memory over 10,000 hooks.
import { spawn } from "node:child_process";
import { rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { percentile } from "./lib.mjs";
import {
  buildOf,
  cpuMs,
  postThin,
  reapStopped,
  repoFixture,
  SHELL_MIX,
  servedEnv,
  serverMemory,
  shellPayload,
  startServer,
  stopServer,
  thinRequest,
  writePayload,
} from "./server-fixtures.mjs";

/** Agent `k`'s `i`-th hook: a Write of its own file, then a shell command's pre-tool-use and post-tool-use. */
function agentStep(repo, k, i) {
  const session = `agent-${k}`;
  const id = `call-${k}-${Math.floor(i / 3)}`;
  const command = `echo ${i} > agents/${k}.txt`;
  switch (i % 3) {
    case 0:
      return [
        "claude-code",
        "pre-tool-use",
        writePayload(repo, `${session}-w`, `agents/${k}-w.txt`, `t${i}`),
      ];
    case 1:
      return ["codex", "pre-tool-use", shellPayload(repo, session, "PreToolUse", command, id)];
    default:
      return ["codex", "post-tool-use", shellPayload(repo, session, "PostToolUse", command, id)];
  }
}

function run(cmd, args, { cwd, env, input }) {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { cwd, env, stdio: ["pipe", "pipe", "pipe"] });
    let out = "";
    child.stdout.on("data", (c) => {
      out += c;
    });
    child.stderr.resume();
    child.on("close", (code) => resolve({ code, out }));
    child.stdin.end(input);
  });
}

const serverCpu = (pid) => {
  if (!pid) return 0;
  const c = cpuMs(pid);
  return c.own + c.children;
};

/**
 * `agents` loops, each firing its next hook as soon as the last one answered, for `ms`. Also the
 * CPU the hooks took: the hook processes (all their children included) and the server, if any.
 */
export async function drive(thin, repo, env, agents, ms, serverPid = null) {
  const latencies = [];
  const failures = [];
  await reapStopped();
  const cpu0 = { hooks: cpuMs().children, server: serverCpu(serverPid) };
  const start = performance.now();
  const deadline = start + ms;
  await Promise.all(
    Array.from({ length: agents }, async (_, k) => {
      for (let i = 0; performance.now() < deadline; i++) {
        const [client, event, payload] = agentStep(repo, k, i);
        const t0 = performance.now();
        const res = await run(thin, ["hook", client, event], {
          cwd: repo,
          env,
          input: JSON.stringify(payload),
        });
        latencies.push(performance.now() - t0);
        if (res.code !== 0 || res.out.includes("deny"))
          failures.push(`exit ${res.code}: ${res.out.slice(0, 200)}`);
      }
    }),
  );
  const seconds = (performance.now() - start) / 1000;
  return {
    clientCpu: (cpuMs().children - cpu0.hooks) / latencies.length,
    serverCpu: (serverCpu(serverPid) - cpu0.server) / latencies.length,
    hooks: latencies.length,
    rate: latencies.length / seconds,
    p50: percentile(latencies, 0.5),
    p95: percentile(latencies, 0.95),
    failures,
  };
}

/** 16 agents through the server, then the same through Node (TANDEM_SERVER=0) for comparison. */
export async function loadBench(bin, { agents = 16, seconds = 4 } = {}) {
  const { work, repo, env } = repoFixture();
  const thin = join(dirname(bin), "tandem");
  const server = startServer(bin, repo, env);
  let served;
  try {
    served = await drive(thin, repo, servedEnv(env), agents, seconds * 1000, server.pid);
  } finally {
    stopServer(server);
  }
  const node = await drive(thin, repo, { ...env, TANDEM_SERVER: "0" }, agents, seconds * 1000);
  rmSync(work, { recursive: true, force: true });
  const row = (name, r) =>
    `| ${name} | ${r.hooks} | ${r.rate.toFixed(1)} | ${r.p50.toFixed(0)} | ${r.p95.toFixed(0)} | ${r.clientCpu.toFixed(0)} | ${r.serverCpu.toFixed(0)} | ${r.failures.length} |`;
  const failed = [...served.failures, ...node.failures];
  return [
    "### 16 agents at once",
    "",
    `${agents} concurrent loops for ${seconds} s each, every loop firing its next hook through \`dist/tandem\` as soon`,
    "as the last answered: a Write's pre-tool-use, then a shell command's pre-tool-use and post-tool-use, each",
    "agent in its own session and files. Then the same with `TANDEM_SERVER=0` (every hook a Node process).",
    "CPU per hook is from /proc: the hook processes with all their children (sh, cat, curl or node), and the",
    "server with the git processes it ran. On a machine shared with other work, hooks/s follows the CPU left over.",
    "",
    "| path | hooks | hooks/s | p50 ms | p95 ms | CPU ms per hook, client | CPU ms per hook, server | failed |",
    "|---|---:|---:|---:|---:|---:|---:|---:|",
    row("server (dist/tandem)", served),
    row("Node (TANDEM_SERVER=0 dist/tandem)", node),
    "",
    ...(failed.length ? [`First failure: \`${failed[0]}\``, ""] : []),
  ].join("\n");
}

/** A Claude Code file tool's pre-tool-use or post-tool-use. */
const fileTool = (repo, session, event, tool, file, id) => ({
  session_id: session,
  cwd: repo,
  hook_event_name: event,
  tool_name: tool,
  tool_input:
    tool === "Edit"
      ? { file_path: join(repo, file), old_string: "a", new_string: "b" }
      : { file_path: join(repo, file) },
  ...(event === "PostToolUse" ? { tool_response: { success: true } } : {}),
  tool_use_id: id,
});

/**
 * Hook `n` of the memory run: 16 sessions, each cycling through four tool calls (Write, Read, Edit,
 * and a shell command from the mix), each call's pre-tool-use then post-tool-use.
 */
function memoryStep(repo, n) {
  const k = n % 16;
  const i = Math.floor(n / 16);
  const call = Math.floor(i / 2);
  const event = i % 2 === 0 ? "PreToolUse" : "PostToolUse";
  const cli = i % 2 === 0 ? "pre-tool-use" : "post-tool-use";
  const id = `m-${k}-${call}`;
  const session = `mem-${k}`;
  switch (call % 4) {
    case 0:
      return [
        "claude-code",
        cli,
        { ...writePayload(repo, session, `mem/${k}-w.txt`, id), hook_event_name: event },
      ];
    case 1:
      return ["claude-code", cli, fileTool(repo, session, event, "Read", "README.md", id)];
    case 2:
      return ["claude-code", cli, fileTool(repo, session, event, "Edit", `mem/${k}-e.txt`, id)];
    default: {
      const command = `${SHELL_MIX[(call >> 2) % SHELL_MIX.length]} && echo ${call} > mem/${k}.txt`;
      return ["codex", cli, shellPayload(repo, `${session}-sh`, event, command, id)];
    }
  }
}

/**
 * A fresh server's resident memory over `total` hooks, posted straight to its socket in the thin
 * client's format (4 at a time) so the run takes a minute or two rather than the many minutes of as
 * many `sh` + `curl` processes.
 */
export async function memoryBench(bin, { total = 10_000, every = 2_000 } = {}) {
  const { work, repo, env } = repoFixture();
  const build = buildOf(bin);
  const server = startServer(bin, repo, env);
  const samples = [{ hooks: 0, ...serverMemory(server.pid) }];
  const forwarded = { XDG_CONFIG_HOME: env.XDG_CONFIG_HOME, PATH: env.PATH, HOME: env.HOME };
  const start = performance.now();
  let next = 0;
  let failed = 0;
  try {
    const worker = async () => {
      while (next < total) {
        const n = next++;
        const [client, event, payload] = memoryStep(repo, n);
        const body = thinRequest(build, repo, forwarded, ["hook", client, event], JSON.stringify(payload));
        const res = await postThin(server.socket, body);
        if (res.status !== 200 || !res.text.startsWith("tandem-answer 0 ")) failed++;
        if ((n + 1) % every === 0 || n === 99) samples.push({ hooks: n + 1, ...serverMemory(server.pid) });
      }
    };
    await Promise.all([worker(), worker(), worker(), worker()]);
  } finally {
    stopServer(server);
    rmSync(work, { recursive: true, force: true });
  }
  const seconds = (performance.now() - start) / 1000;
  samples.sort((a, b) => a.hooks - b.hooks);
  return [
    "### Server memory over 10,000 hooks",
    "",
    `A fresh server; ${total.toLocaleString("en")} hooks (16 sessions, each cycling through a Write, a Read, an Edit`,
    "and a shell command of the mix, each call's pre-tool-use and post-tool-use) posted straight to its socket in the",
    `thin client's format, 4 in flight, in ${seconds.toFixed(0)} s (${(total / seconds).toFixed(0)} hooks/s); ${failed} not answered \`exit 0\`.`,
    "RSS and its peak (VmHWM) from /proc after the given number of hooks.",
    "",
    "| hooks | RSS MiB | peak RSS MiB |",
    "|---:|---:|---:|",
    ...samples.map((s) => `| ${s.hooks.toLocaleString("en")} | ${s.rss.toFixed(1)} | ${s.hwm.toFixed(1)} |`),
    "",
  ].join("\n");
}
