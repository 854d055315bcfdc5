// Issue 37.7: big payloads at the speed of a copy. A Write of 1, 4, 20 and 50 MB, pre-tool-use and
// post-tool-use, through the wired thin client to the resident server (bash's loopback port, and
// curl over the socket) and through Node alone. The payload is piped in as a client pipes it.
// BENCH_PAYLOAD_MB=1,4 picks the sizes; a few rounds each (every round moves the payload twice).
import { spawn } from "node:child_process";
import { rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { median } from "./lib.mjs";
import { cpuMs, repoFixture, servedEnv, startServer, stopServer } from "./server-fixtures.mjs";

const SIZES = (process.env.BENCH_PAYLOAD_MB ?? "1,4,20,50").split(",").map(Number);

/** Text lines with a multibyte character now and then, `mb` MiB of content in all. */
function content(mb) {
  const line = "const value = 'payload line — ünïcödé';\n";
  return line.repeat(Math.ceil((mb * 1024 * 1024) / Buffer.byteLength(line)));
}

const payload = (repo, event, text, id) =>
  JSON.stringify({
    session_id: "bench-big",
    cwd: repo,
    hook_event_name: event,
    tool_name: "Write",
    tool_input: { file_path: join(repo, "big.txt"), content: text },
    // Claude's answer to a Write of a file that was there: the content twice more.
    ...(event === "PostToolUse"
      ? {
          tool_response: {
            type: "update",
            filePath: join(repo, "big.txt"),
            content: text,
            structuredPatch: [],
            originalFile: text,
            userModified: false,
          },
        }
      : {}),
    tool_use_id: id,
  });

/** CPU ms of the hook processes this bench reaped and of the server with the git it ran. */
function cpuUsed(serverPid) {
  const me = cpuMs();
  const server = cpuMs(serverPid);
  return me.children + server.own + server.children;
}

/** One hook process with `input` piped to its stdin; its wall time in ms, or throws on failure. */
function timed(cmd, args, cwd, env, input) {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(cmd, args, { cwd, env, stdio: ["pipe", "pipe", "pipe"] });
    let out = "";
    child.stdout.on("data", (c) => {
      out += c;
    });
    child.stderr.on("data", (c) => {
      out += c;
    });
    child.stdin.on("error", () => {});
    child.stdin.end(input);
    child.on("error", reject);
    child.on("close", (code) => {
      const ms = performance.now() - t0;
      if (code !== 0 || out.includes('"deny"')) reject(new Error(`${args.join(" ")} exited ${code}: ${out}`));
      else resolve(ms);
    });
  });
}

export async function payloadBench(bin, rounds) {
  const { work, repo, env } = repoFixture("tandem-bench-payloads-");
  const server = startServer(bin, repo, env);
  const thin = join(dirname(bin), "tandem");
  const paths = [
    ["server, bash loopback", thin, [], servedEnv(env)],
    ["server, curl socket", thin, [], { ...servedEnv(env), TANDEM_THIN_TRANSPORT: "curl" }],
    ["Node", process.execPath, [bin], { ...env, TANDEM_SERVER: "0" }],
  ];
  const rows = [];
  try {
    for (const mb of SIZES) {
      const text = content(mb);
      for (const [name, cmd, lead, penv] of paths) {
        const times = { pre: [], post: [] };
        for (let r = 0; r < rounds; r++) {
          const id = `toolu_${mb}_${r}_${name.length}`;
          const hook = (event, cli) =>
            timed(cmd, [...lead, "hook", "claude-code", cli], repo, penv, payload(repo, event, text, id));
          // CPU as well as wall time: on a loaded machine the wall time is mostly waiting for a core.
          const measured = async (event, cli) => {
            const before = cpuUsed(server.pid);
            const wall = await hook(event, cli);
            return { wall, cpu: cpuUsed(server.pid) - before };
          };
          const pre = await measured("PreToolUse", "pre-tool-use");
          writeFileSync(join(repo, "big.txt"), text);
          const post = await measured("PostToolUse", "post-tool-use");
          for (const [k, v] of Object.entries({ pre, post })) times[k].push(v);
        }
        const mid = (xs, k) => median(xs.map((x) => x[k]));
        rows.push({
          mb,
          name,
          pre: mid(times.pre, "wall"),
          post: mid(times.post, "wall"),
          preCpu: mid(times.pre, "cpu"),
          postCpu: mid(times.post, "cpu"),
        });
      }
    }
  } finally {
    stopServer(server);
    rmSync(work, { recursive: true, force: true });
  }
  const lines = [
    "## Big payloads (issue 37.7)",
    "",
    "A Claude Code Write of the given size piped to the wired command (its post-tool-use payload holds the",
    "content three times, as Claude sends it); median seconds of each hook: wall time, and the CPU time of",
    "the hook's processes and the server together.",
    "",
    "| MB | path | pre wall | pre CPU | post wall | post CPU |",
    "|---:|---|---:|---:|---:|---:|",
  ];
  const s = (ms) => (ms / 1000).toFixed(2);
  for (const r of rows)
    lines.push(`| ${r.mb} | ${r.name} | ${s(r.pre)} | ${s(r.preCpu)} | ${s(r.post)} | ${s(r.postCpu)} |`);
  return `${lines.join("\n")}\n`;
}
