// Issue 36: what the kernel jail costs, in one run (Done when, third bullet). One repository of
// 1,000 committed files and a tiny node:test project, with a live peer holding an uncommitted file,
// so each plan binds a peer's file as well as the state, the install and the wiring:
// 1. one command: `true` through the launcher the real pre-tool hook answers in `updatedInput`
//    (decision 0056) vs `bash -c true`, both as ratios to `node -e 0`; the added cost is the difference;
// 2. real work jailed vs plain: the project's `npm test`, a `git status` loop (bench/jail-work.mjs);
// 3. a claim change reaching every live `tandem run` jail (bench/jail-reach.mjs).
// Agents run as a user of their own, not root: run as root, the bench measures all three as an
// unprivileged user (created if missing, as the jail tests do), then the one command as root too,
// where the jail drops root's capabilities with one more exec (`setpriv`, decision 0079).
import { execFileSync, spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { claimReach, prepareReach } from "./jail-reach.mjs";
import { fillRepo, workRatios } from "./jail-work.mjs";
import { compare, median } from "./lib.mjs";

const REACH_JAILS = 4;
const REACH_ROUNDS = 8;

/** One Claude Code pre-tool hook of `session` (agent pid `agent`); its answer, parsed. */
function preTool(bin, repo, env, session, agent, tool, input, extra = {}) {
  const payload = {
    session_id: session,
    transcript_path: `/tmp/${session}.jsonl`,
    cwd: repo,
    hook_event_name: "PreToolUse",
    tool_name: tool,
    tool_input: input,
    tool_use_id: `toolu_${session}_${Date.now()}`,
  };
  const out = execFileSync(process.execPath, [bin, "hook", "claude-code", "pre-tool-use"], {
    cwd: repo,
    env: { ...env, CLAUDE_PID: String(agent), ...extra },
    input: JSON.stringify(payload),
    encoding: "utf8",
  });
  return out.trim() === "" ? {} : JSON.parse(out);
}

/** The launcher command the hook answers for `command` (guard kernel). */
function jailedFor(bin, repo, env, agent, command) {
  const out = preTool(bin, repo, env, "bench-jail", agent, "Bash", { command }, { TANDEM_GUARD: "kernel" });
  const jailed = out.hookSpecificOutput?.updatedInput?.command;
  if (!jailed) throw new Error(`the hook did not rewrite the command: ${JSON.stringify(out)}`);
  return jailed;
}

/** The plan the hook wrote for the session (the one binding the peer's file), and its size. */
function sessionPlan(repo) {
  const dir = join(repo, ".git/tandem/jail");
  const name = readdirSync(dir).find(
    (f) => f.endsWith(".plan") && readFileSync(join(dir, f), "utf8").includes("peer.txt"),
  );
  if (!name) throw new Error(`no plan binding the peer's file in ${dir}`);
  const file = join(dir, name);
  return { file, binds: readFileSync(file, "utf8").split("\0").filter(Boolean).length };
}

/** Ends the standing jails' holders (decision 0079); they would end with their agents anyway. */
function endHolders(repo) {
  const dir = join(repo, ".git/tandem/jail");
  for (const f of readdirSync(dir).filter((n) => n.endsWith(".holder"))) {
    try {
      process.kill(JSON.parse(readFileSync(join(dir, f), "utf8")).pid, "SIGKILL");
    } catch {
      // Gone already.
    }
  }
}

function oneCommand(repo, env, rounds, command, plan) {
  const run = (name, args) => ({ name, cmd: args[0], args: args.slice(1), cwd: repo, env });
  const launcher = join(repo, ".git/tandem/bin/jail");
  const result = compare(
    run("node -e 0", [process.execPath, "-e", "0"]),
    [
      run("bash -c true (plain)", ["bash", "-c", "true"]),
      run("jailed true (standing jail: nsenter)", ["bash", "-c", command]),
      run("jailed true (per command: launcher)", ["bash", launcher, plan.file, "true"]),
    ],
    rounds,
  );
  const [plain, jailed, perCommand] = result.cases;
  const binds = plan.binds;
  const base = result.baseline.median;
  const added = jailed.median - plain.median;
  const lines = [
    "| case | p50 ms | p95 ms | ratio to `node -e 0` |",
    "|---|---:|---:|---:|",
    `| node -e 0 (baseline) | ${base.toFixed(1)} | ${result.baseline.p95.toFixed(1)} | 1.00× |`,
    ...result.cases.map(
      (c) =>
        `| ${c.name} | ${c.median.toFixed(1)} | ${c.p95.toFixed(1)} | ${(c.median / base).toFixed(2)}× |`,
    ),
    "",
    `Added by the standing jail (decision 0079, what the hook answers when the agent is known): ${added.toFixed(1)} ms p50 (${(added / base).toFixed(2)}× \`node -e 0\`; target ≤ 5 ms, ≤ 0.05×), ${(jailed.p95 - plain.p95).toFixed(1)} ms p95; median of the per-round differences ${median(jailed.samples.map((s, i) => s - plain.samples[i])).toFixed(1)} ms. The plan binds ${binds} paths (a peer's uncommitted file, the state, git's config and hooks, the install, Node, the wiring), and the session's view of the secrets, made once per plan by one \`mount --all --fstab\` process. The per-command launcher (no agent pid known) adds ${(perCommand.median - plain.median).toFixed(1)} ms p50.`,
    "",
  ];
  return lines;
}

/** The jail's world (a repository, two agents, a live peer's file) and the sections measured in it. */
async function jailWorld(bin, rounds, full) {
  const work = mkdtempSync(join(tmpdir(), "tandem-bench-jail-"));
  const repo = join(work, "repo");
  const agents = [spawn("sleep", ["600"], { stdio: "ignore" }), spawn("sleep", ["600"], { stdio: "ignore" })];
  const [self, peer] = agents.map((a) => a.pid);
  try {
    execFileSync("git", ["init", "-q", "-b", "main", repo]);
    writeFileSync(join(repo, "README.md"), "bench\n");
    fillRepo(repo);
    // The files the peer will claim while the runs watch: untracked, there before any session.
    const reachFiles = prepareReach(repo, REACH_ROUNDS);
    const env = { ...process.env, XDG_CONFIG_HOME: join(work, "xdg"), TANDEM_SERVER: "0" };
    const init = [bin, "init", "--clients", "claude-code", "--command", `${process.execPath} ${bin}`];
    execFileSync(process.execPath, init, { cwd: repo, env, stdio: "ignore" });
    // The live peer: it claims a file and leaves it uncommitted.
    const claim = (file) => {
      const input = { file_path: join(repo, file), content: "x" };
      const out = preTool(bin, repo, env, "bench-peer", peer, "Write", input);
      if (out.hookSpecificOutput?.permissionDecision === "deny")
        throw new Error(`the peer's claim of ${file} was refused: ${JSON.stringify(out)}`);
    };
    claim("peer.txt");
    writeFileSync(join(repo, "peer.txt"), "the peer's work\n");
    const trueJailed = jailedFor(bin, repo, env, self, "true");
    const plan = sessionPlan(repo);
    const jailed = (command) => jailedFor(bin, repo, env, self, command);
    const heavy = Math.min(rounds, 30);
    const one = oneCommand(repo, env, rounds, trueJailed, plan);
    if (!full) return one.join("\n");
    return [
      "## Kernel jail: what it costs (issue 36)",
      "",
      `One command through the launcher, as ${process.getuid?.() === 0 ? "root" : "an unprivileged user"}:`,
      "",
      ...one,
      ...workRatios(repo, env, heavy, jailed),
      ...(await claimReach({ bin, repo, work, env, jails: REACH_JAILS, files: reachFiles, claim })),
    ].join("\n");
  } finally {
    endHolders(repo);
    for (const a of agents) a.kill();
    rmSync(work, { recursive: true, force: true });
  }
}

const USER = "tandemjail";

/** The unprivileged user the bench runs the jail as when started as root. */
function agentUser() {
  if (spawnSync("id", ["-u", USER]).status !== 0) {
    const made = spawnSync("useradd", ["-m", USER], { encoding: "utf8" });
    if (made.status !== 0) throw new Error(`cannot create the bench user ${USER}: ${made.stderr}`);
  }
  return USER;
}

export async function jailBench(bin, rounds) {
  if (process.getuid?.() !== 0) return jailWorld(bin, rounds, true);
  const user = agentUser();
  const home = `/home/${user}`;
  // A clean environment: npm's variables would point the user's `npm test` at root's cache. The
  // machine's NODE_EXTRA_CA_CERTS stays, so `node -e 0` costs what it does in the other sections.
  const env = {
    PATH: process.env.PATH ?? "/usr/bin:/bin",
    HOME: home,
    LANG: process.env.LANG ?? "C.UTF-8",
    ...(process.env.NODE_EXTRA_CA_CERTS ? { NODE_EXTRA_CA_CERTS: process.env.NODE_EXTRA_CA_CERTS } : {}),
  };
  const self = fileURLToPath(import.meta.url);
  const r = spawnSync("runuser", ["-u", user, "--", process.execPath, self, bin, String(rounds)], {
    cwd: tmpdir(),
    env,
    encoding: "utf8",
  });
  if (r.status !== 0) throw new Error(`the jail bench as ${user} failed (${r.status}): ${r.stderr}`);
  const asRoot = await jailWorld(bin, rounds, false);
  const ca = process.env.NODE_EXTRA_CA_CERTS
    ? "`node -e 0` here reads the machine's NODE_EXTRA_CA_CERTS, as every Node start on this machine does; without it Node starts in about a third of the time, and each ratio to it is about three times as large (the milliseconds are what the jail adds)."
    : "";
  return [
    r.stdout.trimEnd(),
    "",
    ...(ca ? [ca, ""] : []),
    `The same command as root, where the standing jail also runs \`setpriv\` to drop root's capabilities:`,
    "",
    asRoot,
  ].join("\n");
}

// Run as the unprivileged user by jailBench above: `node bench/jail.mjs <bin> <rounds>`.
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  process.stdout.write(`${await jailWorld(process.argv[2], Number(process.argv[3]), true)}\n`);
}
