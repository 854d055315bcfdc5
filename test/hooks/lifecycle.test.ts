import { appendFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { claudeBash, claudeWrite, denied, ledger } from "../helpers/hooks.js";
import { hook } from "../helpers/in-process.js";
import { initRepo, tempDir, writeFiles } from "../helpers/repo.js";

const start = (repo: string, session: string) => ({
  session_id: session,
  cwd: repo,
  hook_event_name: "SessionStart",
  source: "startup",
});
const context = (stdout: string) =>
  (JSON.parse(stdout) as { hookSpecificOutput: { additionalContext: string } }).hookSpecificOutput
    .additionalContext;

describe("session lifecycle hooks", () => {
  it("tells a starting session its name, the ritual, and live peers with their claims", async () => {
    const repo = initRepo(join(tempDir(), "repo"));
    await hook("claude-code", "pre-tool-use", claudeWrite(repo, "A", "src/a.ts"), { cwd: repo });
    const r = await hook("claude-code", "session-start", start(repo, "B"), { cwd: repo });
    const text = context(r.stdout);
    expect(text).toMatch(/^Tandem: you are agent-\w+\./);
    expect(text).toContain("tandem status");
    expect(text).toMatch(/- agent-\w+ \(claude-code, no task declared, holds src\/a\.ts; seen \d+s ago\)/);
  });

  it("tells a sub-agent who its parent is and exempts it from the ritual", async () => {
    const repo = initRepo(join(tempDir(), "repo"));
    await hook("claude-code", "session-start", start(repo, "P"), { cwd: repo });
    const parent = ledger(repo).events[0]!.session!;
    const r = await hook("claude-code", "session-start", start(repo, "C"), {
      cwd: repo,
      env: { TANDEM_PARENT_SESSION: parent },
    });
    expect(context(r.stdout)).toMatch(/You are a sub-agent of agent-\w+/);
    expect(context(r.stdout)).not.toContain("Before ending a turn");
  });

  it("releases every claim of a session when it ends", async () => {
    const repo = initRepo(join(tempDir(), "repo"));
    await hook("claude-code", "pre-tool-use", claudeWrite(repo, "A", "a.ts"), { cwd: repo });
    await hook("claude-code", "pre-tool-use", claudeWrite(repo, "A", "b.ts"), { cwd: repo });
    await hook(
      "claude-code",
      "session-end",
      { session_id: "A", cwd: repo, hook_event_name: "SessionEnd", reason: "other" },
      { cwd: repo },
    );
    const { claims, events } = ledger(repo);
    expect(claims).toEqual([]);
    expect(
      events.filter((e) => e.kind === "claim.released").map((e) => (e.data as { reason: string }).reason),
    ).toEqual(["session_end", "session_end"]);
    expect(events.at(-1)!.kind).toBe("session.ended");
    expect(
      denied(await hook("claude-code", "pre-tool-use", claudeWrite(repo, "B", "a.ts"), { cwd: repo })),
    ).toBeNull();
  });

  it("records what an opaque shell command changed as touched by its session", async () => {
    const repo = initRepo(join(tempDir(), "repo"));
    writeFiles(repo, { "gen.sh": "echo generated > out.txt\necho more >> README.md\n" });
    const cmd = "sh gen.sh";
    expect(
      denied(await hook("claude-code", "pre-tool-use", claudeBash(repo, "A", cmd), { cwd: repo })),
    ).toBeNull();
    writeFileSync(join(repo, "out.txt"), "generated\n");
    appendFileSync(join(repo, "README.md"), "more\n");
    await hook("claude-code", "post-tool-use", claudeBash(repo, "A", cmd, "PostToolUse"), { cwd: repo });
    const touched = ledger(repo).events.find((e) => e.kind === "files.touched")!.data as { paths: string[] };
    expect(touched.paths).toEqual(["README.md", "out.txt"]);
  });

  it("warns, without blocking, when a shell command changed a file a peer holds, and keeps it out of its scope", async () => {
    const repo = initRepo(join(tempDir(), "repo"));
    await hook("claude-code", "pre-tool-use", claudeWrite(repo, "A", "README.md"), { cwd: repo });
    await hook("claude-code", "pre-tool-use", claudeBash(repo, "B", "sh tool.sh"), { cwd: repo });
    appendFileSync(join(repo, "README.md"), "b was here\n");
    const post = await hook(
      "claude-code",
      "post-tool-use",
      claudeBash(repo, "B", "sh tool.sh", "PostToolUse"),
      {
        cwd: repo,
      },
    );
    expect(post.code).toBe(0);
    expect(context(post.stdout)).toMatch(
      /changed files another live agent holds: README\.md \(held by agent-\w+\)/,
    );
    const touched = ledger(repo).events.find((e) => e.kind === "files.touched")!.data as {
      paths: string[];
      unattributed: string[];
    };
    expect(touched).toMatchObject({ paths: [], unattributed: ["README.md"] });
  });
});

describe("bad input to hooks", () => {
  it("fails open on a malformed payload for a gate by default and records the error", async () => {
    const repo = initRepo(join(tempDir(), "repo"));
    const r = await hook("claude-code", "pre-tool-use", "{not json", { cwd: repo });
    expect(r).toMatchObject({ code: 0, stdout: "" });
    const err = ledger(repo).events.find((e) => e.kind === "hook.error")!.data as {
      message: string;
      failed: string;
    };
    expect(err).toMatchObject({ failed: "open" });
    expect(err.message).toMatch(/payload is not JSON/);
  });

  it("fails closed on a malformed gate payload when agents.failClosed is set", async () => {
    const repo = initRepo(join(tempDir(), "repo"));
    writeFiles(repo, { ".tandem/config.jsonc": '{ "agents": { "failClosed": true } }' });
    const r = await hook("claude-code", "pre-tool-use", { cwd: repo, tool_name: "Write" }, { cwd: repo });
    expect(denied(r)).toMatch(/could not check this edit .*payload has no session_id.*tandem doctor/);
    expect(ledger(repo).events.find((e) => e.kind === "hook.error")!.data).toMatchObject({
      failed: "closed",
    });
  });

  it("keeps observational hooks open even when failClosed is set", async () => {
    const repo = initRepo(join(tempDir(), "repo"));
    writeFiles(repo, { ".tandem/config.jsonc": '{ "agents": { "failClosed": true } }' });
    expect(await hook("codex", "post-tool-use", "garbage", { cwd: repo })).toMatchObject({
      code: 0,
      stdout: "",
      stderr: "",
    });
  });

  it("closes the gate on corrupt state whatever failClosed says, and logs beside the store", async () => {
    const repo = initRepo(join(tempDir(), "repo"));
    await hook("claude-code", "pre-tool-use", claudeWrite(repo, "A", "a.ts"), { cwd: repo });
    writeFileSync(join(repo, ".git", "tandem", "state.db"), "garbage".repeat(100));
    const r = await hook("claude-code", "pre-tool-use", claudeWrite(repo, "A", "b.ts"), { cwd: repo });
    expect(denied(r)).toMatch(/state\.db is corrupt .*tandem doctor/);
    expect(
      (
        await hook(
          "claude-code",
          "stop",
          { session_id: "A", cwd: repo, hook_event_name: "Stop" },
          { cwd: repo },
        )
      ).code,
    ).toBe(0);
  });

  it("answers an unknown client or missing event as bad usage", async () => {
    const repo = initRepo(join(tempDir(), "repo"));
    expect((await hook("vim", "pre-tool-use", "{}", { cwd: repo })).code).toBe(2);
    expect((await hook("codex", "", "{}", { cwd: repo })).code).toBe(2);
  });

  it("answers a mistyped event without a payload with 'unknown event', exit 2, and records it", async () => {
    const repo = initRepo(join(tempDir(), "repo"));
    const r = await hook("claude-code", "bogus-event", "", { cwd: repo });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      /^tandem: unknown event "bogus-event" for claude-code; Tandem wires .*pre-tool-use/,
    );
    expect(r.stderr).not.toMatch(/session_id/);
    const errors = ledger(repo).events.filter((e) => e.kind === "hook.error");
    expect(errors.map((e) => (e.data as { message: string }).message)).toEqual([
      expect.stringMatching(/^unknown event "bogus-event"/),
    ]);
  });

  it("records an unknown event and answers with the client's neutral allow", async () => {
    const repo = initRepo(join(tempDir(), "repo"));
    const r = await hook(
      "codex",
      "pre-compact",
      { session_id: "X", cwd: repo, hook_event_name: "PreCompact", trigger: "auto" },
      { cwd: repo },
    );
    expect(r).toMatchObject({ code: 0, stdout: "", stderr: "" });
    expect(ledger(repo).events.map((e) => e.kind)).toEqual(["session.started", "activity.set"]);
  });
});

describe("a Stop hook that fails", () => {
  it("lets the turn end and records turn.stopped as fail_open beside the error", async () => {
    const repo = initRepo(join(tempDir(), "repo"));
    await hook(
      "claude-code",
      "user-prompt-submit",
      { session_id: "A", cwd: repo, hook_event_name: "UserPromptSubmit", prompt: "go" },
      { cwd: repo },
    );
    // A broken index makes the turn's dirty-set probe fail.
    writeFileSync(join(repo, ".git", "index"), "not an index");
    const r = await hook(
      "claude-code",
      "stop",
      { session_id: "A", cwd: repo, hook_event_name: "Stop", stop_hook_active: false },
      { cwd: repo },
    );
    expect(r).toMatchObject({ code: 0, stdout: "", stderr: "" });
    const events = ledger(repo).events;
    expect(events.find((e) => e.kind === "hook.error")!.data).toMatchObject({
      event: "stop",
      failed: "open",
    });
    expect(events.find((e) => e.kind === "turn.stopped")!.data).toMatchObject({
      verdict: "pass",
      enforcement: "fail_open",
    });
  });
});
