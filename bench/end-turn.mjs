// `node bench/end-turn.mjs` (after `npm run build`): the cost of `tandem status --end-turn` over
// 1,000 owned paths in 3 repositories (one a submodule), against one `git status --porcelain` per
// repository, plus how many git processes one check spawns at 100 and at 1,000 paths.
import { execFileSync, spawnSync } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { compare, table } from "./lib.mjs";

const bin = fileURLToPath(new URL("../dist/tandem.cjs", import.meta.url));
const IDENTITY = [
  "-c",
  "user.name=Bench",
  "-c",
  "user.email=bench@tandem.invalid",
  "-c",
  "protocol.file.allow=always",
];

function git(cwd, ...args) {
  return execFileSync("git", [...IDENTITY, ...args], {
    cwd,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
  });
}

function bareWithClone(base, name) {
  const remote = join(base, `${name}.git`);
  const seed = join(base, `${name}-seed`);
  mkdirSync(seed);
  git(seed, "init", "-q", "-b", "main");
  writeFileSync(join(seed, "README.md"), `${name}\n`);
  git(seed, "add", "-A");
  git(seed, "commit", "-q", "-m", "initial");
  git(base, "init", "-q", "--bare", "-b", "main", remote);
  git(seed, "push", "-q", remote, "main");
  git(base, "clone", "-q", remote, join(base, name));
  return { repo: join(base, name), remote };
}

/**
 * The workspace: `main` (the coordination root) with submodule `main/sub`, and a sibling git root
 * `sib`. `count` owned paths, split across the three, claimed by one Codex apply_patch through the
 * real hook, then committed and pushed so the check passes.
 */
export function workspace(count) {
  const base = mkdtempSync(join(tmpdir(), "tandem-bench-endturn-"));
  const { repo: main } = bareWithClone(base, "main");
  const { remote: libRemote } = bareWithClone(base, "lib");
  const { repo: sib } = bareWithClone(base, "sib");
  git(main, "submodule", "add", "-q", libRemote, "sub");
  mkdirSync(join(main, ".tandem"));
  writeFileSync(
    join(main, ".tandem", "config.jsonc"),
    JSON.stringify({ agents: { finalizationRoots: [{ path: "../sib", disposition: "git" }] } }),
  );
  const where = ["", "sub/", "../sib/"];
  const files = Array.from({ length: count }, (_, i) => `${where[i % 3]}dir ${i % 10}/file-${i}.txt`);
  const patch = `*** Begin Patch\n${files.map((f) => `*** Add File: ${f}\n+x`).join("\n")}\n*** End Patch\n`;
  const payload = {
    session_id: "bench-session",
    turn_id: "t1",
    cwd: main,
    hook_event_name: "PreToolUse",
    tool_name: "apply_patch",
    tool_input: { command: patch },
    tool_use_id: "call_1",
  };
  const env = benchEnv(base);
  const res = spawnSync(process.execPath, [bin, "hook", "codex", "pre-tool-use"], {
    cwd: main,
    env,
    input: JSON.stringify(payload),
    encoding: "utf8",
  });
  if (res.status !== 0 || res.stdout.includes("deny"))
    throw new Error(`claiming failed: ${res.stdout}${res.stderr}`);
  for (const f of files) {
    const abs = join(main, f);
    mkdirSync(dirname(abs), { recursive: true });
    writeFileSync(abs, `${f}\n`);
  }
  for (const repo of [join(main, "sub"), sib, main]) {
    git(repo, "add", "-A");
    git(repo, "commit", "-q", "-m", "work");
    git(repo, "push", "-q");
  }
  const check = {
    cmd: process.execPath,
    args: [bin, "status", "--end-turn", "--session", "bench-session"],
    cwd: main,
    env,
  };
  const ok = spawnSync(check.cmd, check.args, { cwd: main, env, encoding: "utf8" });
  if (ok.status !== 0) throw new Error(`the end-turn check should pass:\n${ok.stderr}`);
  return { base, repos: [main, join(main, "sub"), sib], check };
}

function benchEnv(base) {
  return { ...process.env, XDG_CONFIG_HOME: join(base, "xdg") };
}

/** A `git` first on PATH that appends one line per process to a file, then runs the real git. */
function gitCount(ws) {
  const real = spawnSync("sh", ["-c", "command -v git"], { encoding: "utf8" }).stdout.trim();
  const shimDir = join(ws.base, "shim");
  const log = join(ws.base, "git-count.log");
  mkdirSync(shimDir, { recursive: true });
  writeFileSync(join(shimDir, "git"), `#!/bin/sh\necho "$1" >> "${log}"\nexec "${real}" "$@"\n`);
  chmodSync(join(shimDir, "git"), 0o755);
  rmSync(log, { force: true });
  const env = { ...ws.check.env, PATH: `${shimDir}:${process.env.PATH}` };
  const res = spawnSync(ws.check.cmd, ws.check.args, { cwd: ws.check.cwd, env, encoding: "utf8" });
  if (res.status !== 0) throw new Error(res.stderr);
  const calls = readFileSync(log, "utf8").split("\n").filter(Boolean);
  const by = {};
  for (const c of calls) by[c] = (by[c] ?? 0) + 1;
  return { total: calls.length, by };
}

/** Runs the benchmark and returns a markdown section for bench/RESULTS.md. */
export function endTurnBench({ rounds = Number(process.env.BENCH_ROUNDS ?? 15) } = {}) {
  const small = workspace(100);
  const large = workspace(1000);
  try {
    const node = { name: "node -e 0", cmd: process.execPath, args: ["-e", "0"], cwd: large.base };
    const statusAll = {
      name: "git status --porcelain × 3 repositories",
      cmd: "sh",
      args: ["-c", large.repos.map((r) => `git -C '${r}' status --porcelain >/dev/null`).join(" && ")],
      cwd: large.base,
    };
    const endTurn = { name: "tandem status --end-turn (1,000 owned paths)", ...large.check };
    const plain = {
      ...endTurn,
      name: "tandem status (no Git check)",
      args: endTurn.args.filter((a) => a !== "--end-turn"),
    };
    const result = compare(node, [statusAll, plain, endTurn], rounds);
    const [gitCase, plainCase, tandemCase] = result.cases;
    const counts = [
      [100, gitCount(small)],
      [1000, gitCount(large)],
    ];
    return [
      "## End-turn check",
      "",
      `1,000 owned paths across 3 repositories (the coordination repository, its submodule, and a sibling \`git\` root),`,
      `all committed and pushed, so the check passes; ${rounds} alternating rounds, medians.`,
      "",
      table(result),
      "",
      `- \`--end-turn\` / one \`git status --porcelain\` per repository: **${(tandemCase.median / gitCase.median).toFixed(2)}×**`,
      `- time above \`node -e 0\` / one \`git status --porcelain\` per repository (the issue's measure, target ≤ 5×): **${((tandemCase.median - result.baseline.median) / gitCase.median).toFixed(2)}×**`,
      `- \`--end-turn\` above \`node -e 0\`: **${(tandemCase.median - result.baseline.median).toFixed(1)} ms**` +
        ` (above plain \`tandem status\`: ${(tandemCase.median - plainCase.median).toFixed(1)} ms)`,
      "",
      "| owned paths | git processes per `--end-turn` | by subcommand |",
      "|---:|---:|---|",
      ...counts.map(
        ([n, c]) =>
          `| ${n} | ${c.total} | ${Object.entries(c.by)
            .map(([k, v]) => `${k} ${v}`)
            .join(", ")} |`,
      ),
      "",
    ].join("\n");
  } finally {
    rmSync(small.base, { recursive: true, force: true });
    rmSync(large.base, { recursive: true, force: true });
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.stdout.write(`${endTurnBench()}\n`);
}
