// Issue 36: what the kernel jail adds to one shell command. The command is the one Claude Code
// runs with `guard: "kernel"`, taken from the real pre-tool hook's `updatedInput` (decision 0056):
// the bash launcher binds the plan read-only and runs `true`; plain is `bash -c true`. Both are
// ratios to `node -e 0`; the added cost is jailed minus plain.
import { execFileSync, spawn } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { compare, median } from "./lib.mjs";

function jailedTrue(bin, repo, env, agent) {
  const payload = {
    session_id: "bench-jail",
    transcript_path: "/tmp/bench-jail.jsonl",
    cwd: repo,
    hook_event_name: "PreToolUse",
    tool_name: "Bash",
    tool_input: { command: "true" },
    tool_use_id: "toolu_bench",
  };
  const out = execFileSync(process.execPath, [bin, "hook", "claude-code", "pre-tool-use"], {
    cwd: repo,
    env: { ...env, TANDEM_GUARD: "kernel", TANDEM_SERVER: "0", CLAUDE_PID: String(agent) },
    input: JSON.stringify(payload),
    encoding: "utf8",
  });
  const command = JSON.parse(out).hookSpecificOutput?.updatedInput?.command;
  if (!command) throw new Error(`the hook did not rewrite the command: ${out}`);
  const jail = join(repo, ".git/tandem/jail");
  const plan = readFileSync(
    join(
      jail,
      readdirSync(jail).find((f) => f.endsWith(".plan")),
    ),
    "utf8",
  );
  return { command, binds: plan.split("\0").filter(Boolean).length };
}

export function jailBench(bin, rounds) {
  const work = mkdtempSync(join(tmpdir(), "tandem-bench-jail-"));
  const repo = join(work, "repo");
  const agent = spawn("sleep", ["600"], { stdio: "ignore" });
  try {
    execFileSync("git", ["init", "-q", "-b", "main", repo]);
    writeFileSync(join(repo, "README.md"), "bench\n");
    const env = { ...process.env, XDG_CONFIG_HOME: join(work, "xdg") };
    execFileSync(
      process.execPath,
      [bin, "init", "--clients", "claude-code", "--command", `${process.execPath} ${bin}`],
      {
        cwd: repo,
        env,
        stdio: "ignore",
      },
    );
    const { command, binds } = jailedTrue(bin, repo, env, agent.pid);
    const run = (name, args) => ({ name, cmd: args[0], args: args.slice(1), cwd: repo, env });
    const result = compare(
      run("node -e 0", [process.execPath, "-e", "0"]),
      [
        run("bash -c true (plain)", ["bash", "-c", "true"]),
        run("jailed true (launcher)", ["bash", "-c", command]),
      ],
      rounds,
    );
    const [plain, jailed] = result.cases;
    const base = result.baseline.median;
    const added = jailed.median - plain.median;
    const p95Added = jailed.p95 - plain.p95;
    return [
      "## Kernel jail: one command through the launcher (issue 36)",
      "",
      "| case | p50 ms | p95 ms | ratio to `node -e 0` |",
      "|---|---:|---:|---:|",
      `| node -e 0 (baseline) | ${base.toFixed(1)} | ${result.baseline.p95.toFixed(1)} | 1.00× |`,
      ...result.cases.map(
        (c) =>
          `| ${c.name} | ${c.median.toFixed(1)} | ${c.p95.toFixed(1)} | ${(c.median / base).toFixed(2)}× |`,
      ),
      "",
      `Added by the jail: ${added.toFixed(1)} ms p50 (${(added / base).toFixed(2)}× \`node -e 0\`; target ≤ 5 ms, ≤ 0.05×), ${p95Added.toFixed(1)} ms p95; median of the per-round differences ${median(jailed.samples.map((s, i) => s - plain.samples[i])).toFixed(1)} ms. The plan binds ${binds} paths (the state, git's config and hooks, the install, Node, the wiring), and the session's view of the secrets, all from one \`mount --all --fstab\` process.`,
      "",
    ].join("\n");
  } finally {
    agent.kill();
    rmSync(work, { recursive: true, force: true });
  }
}
