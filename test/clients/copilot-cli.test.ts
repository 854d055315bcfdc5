import { existsSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLIENTS } from "../../src/clients/index.js";
import { FIXTURES } from "../helpers/fixtures.js";
import { claudeBash, claudeWrite, ledger } from "../helpers/hooks.js";
import { hook } from "../helpers/in-process.js";
import { initRepo, tempDir } from "../helpers/repo.js";

/** Every recorded Copilot CLI 1.0.102 payload, both hook formats (test/fixtures/copilot-cli/README.md). */
const DIR = join(FIXTURES, "copilot-cli");
const FILES = readdirSync(DIR).filter((f) => f.endsWith(".json"));

interface Recorded {
  event: string;
  stdin: Record<string, unknown>;
}

/** The recorded payload with its machine's repositories replaced by `repo`. */
function payload(file: string, repo: string): Record<string, unknown> {
  const rec = JSON.parse(readFileSync(join(DIR, file), "utf8")) as Recorded;
  return JSON.parse(JSON.stringify(rec.stdin).replace(/\/home\/user\/repo2?(?=[/"])/g, repo));
}

/** The wired event each recorded native or Claude-format event arrives through. */
const CLI: Record<string, string> = {
  sessionStart: "session-start",
  SessionStart: "session-start",
  userPromptSubmitted: "user-prompt-submitted",
  UserPromptSubmit: "user-prompt-submitted",
  preToolUse: "pre-tool-use",
  PreToolUse: "pre-tool-use",
  postToolUse: "post-tool-use",
  PostToolUse: "post-tool-use",
  agentStop: "agent-stop",
  Stop: "agent-stop",
  sessionEnd: "session-end",
  SessionEnd: "session-end",
  permissionRequest: "permission-request",
  PermissionRequest: "permission-request",
};

function eventOf(file: string): string {
  return (JSON.parse(readFileSync(join(DIR, file), "utf8")) as Recorded).event;
}

type Expect = "deny" | "context" | "block" | "silent";

/**
 * Replayed in name order into one repository where a live Claude Code peer holds every file the
 * recordings write: each write is refused in Copilot's own answer, session start and prompts carry
 * top-level context, and the Claude-format Stop blocks (its session's recorded PostToolUse events
 * ran tools with no ritual); the native agentStops come from sessions that ran none here.
 */
function expected(file: string): Expect {
  if (file === "claude-format-Stop-0.json") return "block";
  const event = eventOf(file);
  if (/^(preToolUse|PreToolUse)$/.test(event)) return "deny";
  if (/^(sessionStart|SessionStart|userPromptSubmitted|UserPromptSubmit)$/.test(event)) return "context";
  return "silent";
}

async function peerHolds(repo: string, files: string[]): Promise<void> {
  for (const f of files) {
    const r = await hook("claude-code", "pre-tool-use", claudeWrite(repo, "peer", f), { cwd: repo });
    expect(r.stdout).toBe("");
  }
  await hook("claude-code", "pre-tool-use", claudeBash(repo, "peer", "true"), { cwd: repo });
}

describe("Copilot CLI recorded payloads through the real hook entry", () => {
  it("has every recorded event of both formats", () => {
    const events = new Set(FILES.map(eventOf));
    for (const e of Object.keys(CLI)) expect(events, e).toContain(e);
    expect(FILES.length).toBe(30);
  });

  // One repository for every replay: a refusal changes no claim, so the replays cannot disturb each other.
  let repo = "";
  beforeAll(async () => {
    repo = initRepo(join(realpathSync(mkdtempSync(join(tmpdir(), "tandem-copilot-"))), "repo"));
    await peerHolds(repo, ["hello.txt", "shell.txt", "patched-a.txt"]);
  });
  afterAll(() => rmSync(dirname(repo), { recursive: true, force: true }));

  it.each(FILES)("replays %s with the expected verdict", async (file) => {
    const p = payload(file, repo);
    const r = await hook("copilot-cli", CLI[eventOf(file)]!, p, { cwd: repo });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toBe("");
    const kind = expected(file);
    if (kind === "silent") {
      expect(r.stdout).toBe("");
      return;
    }
    const out = JSON.parse(r.stdout) as Record<string, unknown>;
    if (kind === "block") {
      expect(out.decision).toBe("block");
      expect(String(out.reason)).toMatch(/^\[tandem:stop-remediation rule=status\]\n/);
    } else if (kind === "deny") {
      expect(out.permissionDecision).toBe("deny");
      expect(String(out.permissionDecisionReason)).toMatch(/held by agent-\w+ \(claude-code/);
      expect(ledger(repo).claims.every((c) => c.holder === "peer")).toBe(true);
    } else {
      // Copilot ignores hookSpecificOutput.additionalContext: only the top-level field reaches the model.
      expect(Object.keys(out)).toEqual(["additionalContext"]);
      expect(String(out.additionalContext)).toMatch(/Tandem/);
    }
  });

  it.each(FILES.filter((f) => expected(f) === "deny"))(
    "lets %s through in a repository nobody holds",
    async (file) => {
      const repo = initRepo(join(tempDir(), "repo"));
      const p = payload(file, repo);
      const r = await hook("copilot-cli", "pre-tool-use", p, { cwd: repo });
      expect(r.stdout).toBe("");
      expect(ledger(repo).claims.length).toBeGreaterThan(0);
    },
  );
});

describe("Copilot CLI payload parser", () => {
  const parse = CLIENTS["copilot-cli"].parse;

  it("reads create and edit under their own argument names, both formats alike", () => {
    for (const file of ["preToolUse-0.json", "claude-format-PreToolUse-0.json"]) {
      const res = parse("pre-tool-use", payload(file, "/r"));
      expect(res).toMatchObject({
        ok: true,
        input: { kind: "pre-tool", tool: { name: "Write", input: { file_path: "/r/hello.txt" } } },
      });
    }
    const edit = parse("pre-tool-use", payload("preToolUse-1.json", "/r"));
    expect(edit).toMatchObject({
      ok: true,
      input: { tool: { name: "Edit", input: { file_path: "/r/hello.txt", old_string: "hello" } } },
    });
  });

  it("keeps apply_patch's raw patch text for the patch parser", () => {
    const res = parse("pre-tool-use", payload("apply_patch-preToolUse-0.json", "/r"));
    expect(res).toMatchObject({ ok: true, input: { tool: { name: "apply_patch" } } });
    if (res.ok) expect(String(res.input.tool?.input)).toMatch(/^\*\*\* Begin Patch\n\*\*\* Add File: \/r\//);
  });

  it("skips tools that cannot write, and permission requests, without touching the store", () => {
    const view = { sessionId: "s", cwd: "/r", toolName: "view", toolArgs: { path: "/r/a" } };
    expect(parse("pre-tool-use", view)).toMatchObject({ ok: false, skip: true });
    expect(parse("permission-request", payload("permissionRequest-0.json", "/r"))).toMatchObject({
      ok: false,
      skip: true,
    });
  });

  it("carries the session-end reason and stop_hook_active", () => {
    expect(parse("session-end", payload("sessionEnd-0.json", "/r"))).toMatchObject({
      ok: true,
      input: { kind: "session-end", source: "complete" },
    });
    expect(parse("agent-stop", payload("stopblock-agentStop-1.json", "/r"))).toMatchObject({
      ok: true,
      input: { kind: "stop", stopHookActive: true },
    });
  });

  it("rejects a payload without a session id", () => {
    expect(parse("agent-stop", { cwd: "/r" })).toMatchObject({ ok: false, skip: false });
  });

  it("renders a deny Copilot shows the model, not exit 2 (which loses the reason)", () => {
    const r = CLIENTS["copilot-cli"].render("pre-tool", null, {
      allow: false,
      rule: "claim-conflict",
      reason: "R",
    });
    expect(r).toEqual({
      exitCode: 0,
      stdout: '{"permissionDecision":"deny","permissionDecisionReason":"R"}\n',
      stderr: "",
    });
    const stop = CLIENTS["copilot-cli"].render("stop", null, {
      allow: false,
      block: true,
      rule: "status",
      reason: "Q",
    });
    expect(JSON.parse(stop.stdout)).toEqual({ decision: "block", reason: "Q" });
  });

  it("leaves the written file untouched on a refusal (the hook never writes)", async () => {
    const repo = initRepo(join(tempDir(), "repo"));
    await peerHolds(repo, ["hello.txt"]);
    await hook("copilot-cli", "pre-tool-use", payload("preToolUse-0.json", repo), { cwd: repo });
    expect(existsSync(join(repo, "hello.txt"))).toBe(false);
  });
});
