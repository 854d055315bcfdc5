// The hook cases of bench/server.mjs: pre-tool-use and post-tool-use through the wired command
// (dist/tandem, the thin client) with a server up, against `node -e 0`, and the server's own share
// of each (the same requests posted to its socket from this process).
import { execFileSync, spawn } from "node:child_process";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { compare, median, percentile } from "./lib.mjs";
import {
  buildOf,
  git,
  patchPayload,
  postThin,
  repoFixture,
  SHELL_MIX,
  servedEnv,
  shellPayload,
  startServer,
  stopServer,
  thinRequest,
  writePayload,
} from "./server-fixtures.mjs";

const CLAUDE_PRE = ["claude-code", "pre-tool-use"];
const CODEX_PRE = ["codex", "pre-tool-use"];
export const nodeZero = (env, cwd) => ({
  name: "node -e 0",
  cmd: process.execPath,
  args: ["-e", "0"],
  cwd,
  env,
});

/** Files the shell mix reads and edits, committed so the read-only commands find something. */
export function seedShellFiles(repo) {
  mkdirSync(join(repo, "notes"), { recursive: true });
  mkdirSync(join(repo, "src"), { recursive: true });
  writeFileSync(join(repo, "README.md"), "bench\n".repeat(40));
  writeFileSync(join(repo, "notes", "config.txt"), "alpha\n");
  writeFileSync(join(repo, "notes", "log.txt"), "");
  writeFileSync(join(repo, "src", "a.ts"), "// TODO: nothing\n");
  git(repo, "add", "-A");
  git(repo, "commit", "-q", "-m", "seed");
}

function spawnTimed(cmd, args, opts) {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(cmd, args, { ...opts, stdio: "ignore" });
    child.on("error", reject);
    child.on("close", () => resolve(performance.now() - t0));
  });
}

/**
 * The server's own time for the same requests: posted straight to its socket from this process in
 * the thin client's format, so no `sh`, `cat` or `curl` process starts; alternating, round by round,
 * with a `node -e 0` for the ratio.
 */
async function serverTimes(server, bin, repo, env, cases, rounds) {
  const build = buildOf(bin);
  const forwarded = { XDG_CONFIG_HOME: env.XDG_CONFIG_HOME, PATH: env.PATH, HOME: env.HOME };
  const base = [];
  const samples = cases.map(() => []);
  for (let r = 0; r < rounds; r++) {
    base.push(await spawnTimed(process.execPath, ["-e", "0"], { cwd: repo, env }));
    for (const [i, c] of cases.entries()) {
      c.before?.();
      const body = thinRequest(build, repo, forwarded, c.args, c.input);
      const t0 = performance.now();
      const res = await postThin(server.socket, body);
      samples[i].push(performance.now() - t0);
      if (res.status !== 200 || !res.text.startsWith("tandem-answer 0 "))
        throw new Error(`${c.name}: ${res.status} ${res.text}`);
    }
  }
  const b = median(base);
  return cases.map((c, i) => ({
    name: c.name,
    p50: percentile(samples[i], 0.5),
    p95: percentile(samples[i], 0.95),
    ratio: percentile(samples[i], 0.5) / b,
    baseline: b,
  }));
}

/** The four hook cases through the thin client, with the server up, and the server's share of each. */
export async function hookCases(bin, rounds) {
  const { work, repo, env } = repoFixture();
  seedShellFiles(repo);
  const thin = join(dirname(bin), "tandem");
  const served = servedEnv(env);
  const server = startServer(bin, repo, env);
  try {
    const call = (name, target, [client, event], payload) => ({
      name,
      target,
      cmd: thin,
      args: ["hook", client, event],
      cwd: repo,
      env: served,
      input: payload && JSON.stringify(payload),
    });
    const write = call("pre-tool-use, 1-file Write", 0.2, CLAUDE_PRE, writePayload(repo, "b-w", "w.txt"));
    // The same call the way shells without bash 4 take it (macOS's /bin/sh): curl over the socket.
    const writeCurl = {
      ...call(
        "the same Write through curl (no bash 4)",
        undefined,
        CLAUDE_PRE,
        writePayload(repo, "b-w", "w.txt"),
      ),
      env: { ...served, TANDEM_THIN_TRANSPORT: "curl" },
    };
    let n = 0;
    const shell = call("pre-tool-use, shell command (mix)", 0.2, CODEX_PRE);
    shell.before = () => {
      const command = SHELL_MIX[n % SHELL_MIX.length];
      shell.input = JSON.stringify(shellPayload(repo, "b-sh", "PreToolUse", command, `call-sh-${n++}`));
    };
    // Each round: the pre-tool-use (untimed), the command's write, then the timed post-tool-use.
    let m = 0;
    const post = call("post-tool-use after a shell command", 0.3, ["codex", "post-tool-use"]);
    post.before = () => {
      const id = `call-post-${m++}`;
      const command = "date +%N > notes/post.txt";
      execFileSync(thin, ["hook", "codex", "pre-tool-use"], {
        cwd: repo,
        env: served,
        input: JSON.stringify(shellPayload(repo, "b-post", "PreToolUse", command, id)),
      });
      writeFileSync(join(repo, "notes", "post.txt"), `${process.hrtime.bigint()}\n`);
      post.input = JSON.stringify(shellPayload(repo, "b-post", "PostToolUse", command, id));
    };
    const files = Array.from({ length: 100 }, (_, i) => `p/f${i}.txt`);
    const patch = call(
      "pre-tool-use, 100-file apply_patch",
      0.25,
      CODEX_PRE,
      patchPayload(repo, "b-p", files),
    );
    // The floor of this design: curl posting to the socket, which the server refuses at once (400).
    const floor = {
      name: "floor: curl posting to the socket (answered 400 at once)",
      cmd: "curl",
      args: [
        "-s",
        "-o",
        "/dev/null",
        "--unix-socket",
        server.socket,
        "--data-binary",
        "@-",
        "http://tandem/",
      ],
      cwd: repo,
      env,
      input: "x",
    };
    // Warm-up (claims taken, the server's caches filled), as for an agent that has been working.
    for (const c of [write, writeCurl, shell, post, patch]) {
      c.before?.();
      execFileSync(c.cmd, c.args, { cwd: repo, env: c.env, input: c.input });
    }
    const result = compare(nodeZero(env, repo), [write, writeCurl, shell, post, patch, floor], rounds);
    return { result, server: await serverTimes(server, bin, repo, env, [write, shell, post, patch], rounds) };
  } finally {
    stopServer(server);
    rmSync(work, { recursive: true, force: true });
  }
}
