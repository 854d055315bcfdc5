/**
 * The world the breaks tables run in (issue 36, Done when, first bullet), as a non-root user: an
 * installed Tandem, a repository where live peer A holds uncommitted files and peer C works in its
 * own linked worktree, and session B whose pre-tool hook sent a command into its kernel jail (the
 * launcher and B's plan, as Claude Code's `updatedInput` carries them). Hooks are the real built
 * ones, in Node; agents are real processes.
 */
import { type SpawnSyncReturns, spawn, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import {
  chmodSync,
  cpSync,
  existsSync,
  readdirSync,
  readFileSync,
  realpathSync,
  statSync,
  symlinkSync,
} from "node:fs";
import { join } from "node:path";
import { expect } from "vitest";
import { patient } from "../helpers/patience.js";
import { initRepo } from "../helpers/repo.js";
import { asRoot, asUser, DIST, endHolders, fileTempDirs, jailEnv, jailUser, USER } from "./support.js";

export interface WorldAsk {
  /** Committed first; A then claims each and leaves it changed ("peer work"). */
  peerTracked?: readonly string[];
  /** A claims and creates each, never committed. */
  peerUntracked?: readonly string[];
}

export interface World {
  repo: string;
  peerTree: string;
  install: string;
  launcher: string;
  plan: string;
  /** `argv` as the jail's user, in the repository, with the installed Tandem first on PATH. */
  run(argv: string[], extra?: NodeJS.ProcessEnv, input?: string): SpawnSyncReturns<string>;
  /** B's post-tool hook after a jailed command printed `r`, as Claude Code 2.1.332 sends it. */
  postTool(command: string, r: SpawnSyncReturns<string>): { event: string; out: string };
  /** The `jail.write.refused` records so far. */
  kernelEvents(): { data: { paths: { path: string; why: string }[] } }[];
  close(): void;
}

/** Each file's sha256 with its mode and mtime (a chmod or `touch -d` changes those), or "missing". */
export function digests(files: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const f of files) {
    if (!existsSync(f)) {
      out[f] = "missing";
      continue;
    }
    const st = statSync(f);
    const sum = st.isFile() ? createHash("sha256").update(readFileSync(f)).digest("hex") : "not a file";
    out[f] = `${sum} ${st.mode.toString(8)} ${st.mtimeMs}`;
  }
  return out;
}

export function makeWorld(ask: WorldAsk = {}): World {
  const dirs = fileTempDirs();
  const agents: ReturnType<typeof spawn>[] = [];
  const home = jailUser().home;
  const install = dirs.make("tandem-breaks-install-");
  cpSync(DIST, install, { recursive: true });
  chmodSync(install, 0o755);
  symlinkSync(realpathSync(join(DIST, "..", "node_modules")), join(install, "node_modules"));
  const work = dirs.make("tandem-breaks-");
  const tracked = ask.peerTracked ?? [];
  const repo = initRepo(join(work, "repo"), {
    "README.md": "hello\n",
    "mine.txt": "mine\n",
    ".tandem/config.jsonc": "{}\n",
    ...Object.fromEntries(tracked.map((f) => [f, "committed\n"])),
  });
  const peerTree = join(work, "peer-tree");
  expect(spawnSync("git", ["-C", repo, "worktree", "add", "-q", "-b", "peer", peerTree]).status).toBe(0);
  if (asRoot) expect(spawnSync("chown", ["-R", USER, work]).status).toBe(0);
  chmodSync(work, 0o755);

  const run: World["run"] = (argv, extra = {}, input = "") => {
    const env = jailEnv(home, { PATH: `${install}:${process.env.PATH}`, ...extra });
    const [file, ...args] = asUser(argv);
    return spawnSync(file!, args, { cwd: repo, env, input, encoding: "utf8", timeout: patient(60_000) });
  };
  const agentPid = (): number => {
    const [file, ...args] = asUser(["sleep", "600"]);
    const child = spawn(file!, args, { stdio: "ignore" });
    agents.push(child);
    return child.pid!;
  };
  const hook = (event: string, pid: number, payload: object, extra = {}): string => {
    const argv = [process.execPath, join(install, "tandem.cjs"), "hook", "claude-code", event];
    const r = run(argv, { CLAUDE_PID: String(pid), ...extra }, JSON.stringify(payload));
    expect(r.status, r.stderr).toBe(0);
    return r.stdout;
  };
  const preTool = (session: string, pid: number, cwd: string, tool: string, input: object, extra = {}) =>
    hook(
      "pre-tool-use",
      pid,
      {
        session_id: session,
        transcript_path: "/tmp/t.jsonl",
        cwd,
        hook_event_name: "PreToolUse",
        tool_name: tool,
        tool_input: input,
        tool_use_id: `toolu_${session}_${tool}`,
      },
      extra,
    );

  // Peer A holds peer.txt and the tables' files with uncommitted bytes (one Bash call claims them
  // all); peer C works in its own linked worktree. A squatter's target: a serve.tcp as a server leaves it.
  const a = agentPid();
  const held = ["peer.txt", ...tracked, ...(ask.peerUntracked ?? [])];
  const write = `printf 'peer work\\n' | tee ${held.join(" ")}`;
  expect(preTool("peer-a", a, repo, "Bash", { command: write })).not.toMatch(/"deny"/);
  expect(run(["sh", "-c", `${write} >/dev/null`]).status).toBe(0);
  preTool("peer-c", agentPid(), peerTree, "Write", { file_path: join(peerTree, "theirs.txt"), content: "x" });
  expect(run(["sh", "-c", `printf 'theirs\\n' > '${peerTree}/theirs.txt'`]).status).toBe(0);
  expect(run(["sh", "-c", "printf '1 0123456789abcdef\\n' > .git/tandem/serve.tcp"]).status).toBe(0);
  // B's hook rewrites its command into its jail (the launcher and B's plan); the command being
  // opaque, the safety net first copies A's dirty files to the blobs, which a break may target.
  const selfB = agentPid();
  const out = preTool(
    "self-b",
    selfB,
    repo,
    "Bash",
    { command: "python3 -c pass" },
    { TANDEM_GUARD: "kernel" },
  );
  const command = (JSON.parse(out) as { hookSpecificOutput: { updatedInput: { command: string } } })
    .hookSpecificOutput.updatedInput.command;
  // The hook wrote B's plan (and started B's standing jail, decision 0079); each break runs in a
  // jail made from that plan by the launcher, the per-command way, so one cannot spoil the next's.
  expect(command).toMatch(/nsenter|bin\/jail/);
  const launcher = join(repo, ".git/tandem/bin/jail");
  const jails = join(repo, ".git/tandem/jail");
  const plan = join(
    jails,
    readdirSync(jails).find(
      (f) => f.endsWith(".plan") && readFileSync(join(jails, f), "utf8").includes("peer.txt"),
    )!,
  );
  expect(readdirSync(join(repo, ".git/tandem/blobs")).length).toBeGreaterThan(0);

  const postTool: World["postTool"] = (toolCommand, r) => {
    const failed = r.status !== 0;
    const base = {
      session_id: "self-b",
      transcript_path: "/tmp/t.jsonl",
      cwd: repo,
      hook_event_name: failed ? "PostToolUseFailure" : "PostToolUse",
      tool_name: "Bash",
      tool_input: { command: toolCommand },
      tool_use_id: "toolu_self-b_post",
    };
    // A failure carries the output in `error`: `Exit code N`, then the command's output (as the
    // real 2.1.332 sent it: test/fixtures/claude-code/fail-PostToolUseFailure.json); a success its
    // `tool_response`.
    const error = [`Exit code ${r.status}`, r.stdout, r.stderr].filter(Boolean).join("\n");
    const payload = failed
      ? { ...base, error, is_interrupt: false, duration_ms: 40 }
      : {
          ...base,
          tool_response: { stdout: r.stdout, stderr: r.stderr, interrupted: false, isImage: false },
        };
    const answer = hook(failed ? "post-tool-use-failure" : "post-tool-use", selfB, payload);
    return { event: base.hook_event_name, out: answer };
  };
  const kernelEvents: World["kernelEvents"] = () =>
    run([process.execPath, join(install, "tandem.cjs"), "events", "--kind", "jail.write.refused", "--json"])
      .stdout.trim()
      .split("\n")
      .filter(Boolean)
      .map((l) => JSON.parse(l));
  return {
    repo,
    peerTree,
    install,
    launcher,
    plan,
    run,
    postTool,
    kernelEvents,
    close() {
      for (const c of agents) c.kill();
      endHolders(repo);
      dirs.removeAll();
    },
  };
}
