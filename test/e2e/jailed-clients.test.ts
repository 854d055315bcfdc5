/**
 * The kernel guard with the real Claude Code (issue 36, done-when 2), as the non-root user the jail
 * needs (test/jail/support.ts): with `guard: "kernel"` its pre-tool hook sends each Bash command
 * through the jail launcher, so the fake model's command that writes a peer's uncommitted file —
 * spelled so no reader understands it — fails in the kernel, and the tool result the model gets
 * says so, and its post-tool hook tells whose file it was (issue 36 §5), while its own write from
 * the same session succeeds. Codex the same, started whole by
 * `tandem run codex`: its hooks reach the server through the run's key (decision 0071) and its
 * exec of the same write fails in the kernel, and it is told whose file that was. Never skipped.
 */
import { type SpawnSyncReturns, spawn, spawnSync } from "node:child_process";
import { chmodSync, mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { afterAll, afterEach, beforeAll, expect, it } from "vitest";
import { THIN_BIN } from "../helpers/cli.js";
import { patient } from "../helpers/patience.js";
import { asRoot, asUser, jailUser, USER } from "../jail/support.js";
import { type AnthropicFake, startAnthropicFake } from "./harness/anthropic-fake.js";
import { type ClientBins, ensureClients } from "./harness/install-clients.js";
import { type ResponsesFake, startResponsesFake } from "./harness/responses-fake.js";
import { runClaude } from "./harness/run-claude.js";
import { runCodex } from "./harness/run-codex.js";
import { initProject, newSessionId, type Project } from "./support.js";

/** By its path: PATH here is the agent's, which may lack the sbin directories. */
const RUNUSER =
  spawnSync("sh", ["-c", "command -v runuser"], { encoding: "utf8" }).stdout.trim() || "runuser";
let bins: ClientBins;
let anthropic: AnthropicFake;
let responses: ResponsesFake;
let p: Project;
const agents: ReturnType<typeof spawn>[] = [];

function asJail(argv: string[], env: Record<string, string> = {}, input = ""): SpawnSyncReturns<string> {
  const [file, ...args] = asUser([
    "env",
    ...Object.entries({ ...p.env, HOME: join(p.base, "home"), ...env }).map(([k, v]) => `${k}=${v}`),
    ...argv,
  ]);
  return spawnSync(file!, args, { cwd: p.repo, input, encoding: "utf8", timeout: patient(60_000) });
}

beforeAll(async () => {
  jailUser();
  bins = await ensureClients();
  anthropic = await startAnthropicFake();
  responses = await startResponsesFake();
});

/** A project of the jail's user (temp dirs go after each test), a peer holding peer.txt in it. */
function setUp(): void {
  p = initProject("claude-code,codex");
  mkdirSync(join(p.base, "claude-home"));
  mkdirSync(join(p.base, "codex-home"));
  if (asRoot) expect(spawnSync("chown", ["-R", USER, p.base]).status).toBe(0);
  chmodSync(p.base, 0o755);
  // A peer outside (an agent process of the same user) holds peer.txt with uncommitted bytes.
  const [file, ...args] = asUser(["sleep", "600"]);
  const peer = spawn(file!, args, { stdio: "ignore" });
  agents.push(peer);
  const payload = JSON.stringify({
    session_id: "peer-session",
    transcript_path: "/tmp/p.jsonl",
    cwd: p.repo,
    hook_event_name: "PreToolUse",
    tool_name: "Write",
    tool_input: { file_path: join(p.repo, "peer.txt"), content: "x" },
    tool_use_id: "toolu_peer",
  });
  const hook = asJail(
    [THIN_BIN, "hook", "claude-code", "pre-tool-use"],
    { CLAUDE_PID: String(peer.pid) },
    payload,
  );
  expect(hook.status, hook.stderr).toBe(0);
  expect(asJail(["sh", "-c", "printf 'peer work\\n' > peer.txt"]).status).toBe(0);
}

afterEach(() => {
  asJail([THIN_BIN, "serve", "--stop"]);
  for (const a of agents.splice(0)) a.kill();
});

afterAll(async () => {
  await anthropic?.close();
  await responses?.close();
});

it("Claude Code's Bash write of a peer's file fails in the jail, and its own write succeeds", async () => {
  setUp();
  const S = newSessionId();
  anthropic.script(
    [
      // Opaque to the reader: only the kernel can stop it. It exits 1, so Claude sends it to
      // PostToolUseFailure (the output in `error`), whose hook tells whose file the kernel kept.
      { tool: "Bash", input: { command: `python3 -c 'open("peer.txt", "w").write("lost")'` } },
      { tool: "Bash", input: { command: `python3 -c 'open("own.txt", "w").write("mine")' && echo wrote` } },
      // Exits 0, so Claude sends it to PostToolUse, whose hook tells whose file the kernel kept.
      { tool: "Bash", input: { command: `python3 -c 'open("peer.txt", "w")'; echo tried` } },
      { text: "Done." },
    ],
    { session: S },
  );
  const run = await runClaude({
    bin: bins.claude,
    cwd: p.repo,
    prompt: "write both files",
    baseUrl: anthropic.url,
    home: join(p.base, "claude-home"),
    env: { ...p.env, TANDEM_GUARD: "kernel", TANDEM_STOP_RITUAL: "off" },
    sessionId: S,
    ...(asRoot ? { asUser: USER } : {}),
  });
  expect(run.exitCode, run.stderr).toBe(0);
  const requests = anthropic.requestsFor(S);
  expect(requests[1]!.text).toMatch(/Read-only file system: 'peer\.txt'/);
  expect(requests[1]!.text).toMatch(
    /kernel refused that command's write to peer\.txt \(agent-\S+'s uncommitted file\)/,
  );
  expect(requests[2]!.text).toMatch(/wrote/);
  expect(requests[3]!.text).toMatch(
    /kernel refused that command's write to peer\.txt \(agent-\S+'s uncommitted file\)/,
  );
  expect(p.read("peer.txt")).toBe("peer work\n");
  expect(p.read("own.txt")).toBe("mine");
  expect(anthropic.errors).toEqual([]);
});

it("Codex under tandem run: its exec writing a peer's file fails in the kernel, its own write succeeds", async () => {
  setUp();
  responses.script(
    [
      { exec: `python3 -c 'open("peer.txt", "w").write("lost")'` },
      // Its agent's own tandem reaches the server through the run's door, as its session.
      { exec: "tandem status" },
      { exec: `python3 -c 'open("codex.txt", "w").write("mine")' && echo wrote` },
      { text: "Done." },
    ],
    { match: (r) => r.text.includes("codex in the jail") },
  );
  // PATH finds the installed Codex as `codex`, the command `tandem run codex` starts.
  const env = {
    ...p.env,
    HOME: join(p.base, "home"),
    PATH: `${dirname(bins.codex)}:${p.env.PATH}`,
    TANDEM_STOP_RITUAL: "off",
  };
  const run = await runCodex({
    bin: bins.codex,
    cwd: p.repo,
    prompt: "codex in the jail",
    baseUrl: responses.url,
    codexHome: join(p.base, "codex-home"),
    bypassHookTrust: true,
    env,
    wrap: (_bin, args, all) => {
      const tandemRun = [THIN_BIN, "run", "codex", "--", ...args];
      const pairs = Object.entries(all).flatMap(([k, v]) => (v === undefined ? [] : [`${k}=${v}`]));
      return asRoot
        ? [RUNUSER, ["-u", USER, "--", "env", ...pairs, ...tandemRun]]
        : [tandemRun[0]!, tandemRun.slice(1)];
    },
  });
  expect(run.exitCode, run.stderr).toBe(0);
  const seen = responses.requests.filter((r) => r.text.includes("codex in the jail") && !r.auxiliary);
  expect(seen[1]?.text, run.stderr).toMatch(/Read-only file system: 'peer\.txt'/);
  // The run's hooks reached the server from inside the jail: its session is known, its guard the kernel.
  // Its post-tool hook, from inside the jail too, told it whose file the kernel kept.
  expect(seen[1]?.text).toMatch(
    /kernel refused that command's write to peer\.txt \(agent-\S+'s uncommitted file\)/,
  );
  expect(seen[2]?.text).toMatch(/tandem status: agent-\S+.*\(codex\)[^\n]*\n[^\n]*guard {4}kernel/s);
  expect(seen[3]?.text).toMatch(/wrote/);
  expect(p.read("peer.txt")).toBe("peer work\n");
  expect(p.read("codex.txt")).toBe("mine");
  expect(responses.errors).toEqual([]);
});
