import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { qwenCode } from "../../src/clients/qwen-code/spec.js";
import { PIN } from "../helpers/cli.js";
import { claudeWrite, denied, ledger, type Payload } from "../helpers/hooks.js";
import { hook } from "../helpers/in-process.js";
import { cli } from "../helpers/in-process-cli.js";
import {
  type Answer,
  loadRecording,
  type Recording,
  recordingFiles,
  replayRecording,
} from "../helpers/recordings.js";
import { initRepo, tempDir } from "../helpers/repo.js";

/** A payload Qwen Code 0.24.4 gave a hook (test/fixtures/qwen-code, recorded by a logging hook). */
type Recorded = Recording;

const FILES = recordingFiles("qwen-code");
const load = (file: string, repo: string, home: string) => loadRecording("qwen-code", file, repo, home);
const replay = (rec: Recorded, repo: string) => replayRecording("qwen-code", rec, repo);

const context = (a: Answer) =>
  (a.out?.hookSpecificOutput as { additionalContext?: string } | undefined)?.additionalContext ?? "";

/** Claude's deny shape, which Qwen reads: `hookSpecificOutput.permissionDecision: "deny"`, exit 0. */
function deniedWith(a: Answer): string | null {
  const h = a.out?.hookSpecificOutput as
    | { permissionDecision?: string; permissionDecisionReason?: string }
    | undefined;
  return a.code === 0 && h?.permissionDecision === "deny" ? String(h.permissionDecisionReason) : null;
}

/** A blocked Stop: `{decision: "block", reason}`, which Qwen sends on as the next user message. */
const blockedWith = (a: Answer) =>
  a.code === 0 && a.out?.decision === "block" ? String(a.out.reason) : null;

const prompts = (repo: string) => ledger(repo).events.filter((e) => e.kind === "prompt.submitted");

describe("Qwen Code's recorded payloads through `tandem hook qwen-code`", () => {
  it("replays the recorded run: claims its writes, refuses a peer's file, and blocks the Stop without the ritual", async () => {
    const base = tempDir();
    const repo = initRepo(join(base, "repo"));
    const home = join(base, "home");
    const seen = new Set<string>();
    const run = (file: string) => {
      seen.add(file);
      return replay(load(file, repo, home), repo);
    };
    // A Claude Code session already holds denied.txt.
    expect(
      denied(
        await hook("claude-code", "pre-tool-use", claudeWrite(repo, "claude-A", "denied.txt"), { cwd: repo }),
      ),
    ).toBeNull();

    // Session e2bd…: writes hello.txt, runs a shell redirect, is refused denied.txt, edits hello.txt.
    expect(context(await run("SessionStart-0.json"))).toContain("Tandem");
    expect(context(await run("UserPromptSubmit-0.json"))).toMatch(/tandem task/);
    expect(await run("PreToolUse-0.json")).toEqual({ code: 0, out: null });
    writeFileSync(join(repo, "hello.txt"), "hello\n");
    expect((await run("PostToolUse-0.json")).code).toBe(0);
    // Qwen's UserPromptSubmit before each later model request (empty prompt) is no prompt.
    expect(await run("UserPromptSubmit-1.json")).toEqual({ code: 0, out: null });
    expect(await run("PreToolUse-1.json")).toEqual({ code: 0, out: null });
    writeFileSync(join(repo, "shell.txt"), "shell-ran\n");
    expect((await run("PostToolUse-1.json")).code).toBe(0);
    expect(await run("UserPromptSubmit-2.json")).toEqual({ code: 0, out: null });
    expect(deniedWith(await run("PreToolUse-2.json"))).toMatch(
      /denied\.txt: held by agent-\w+ \(claude-code/,
    );
    expect(await run("UserPromptSubmit-3.json")).toEqual({ code: 0, out: null });
    expect(await run("PreToolUse-3.json")).toEqual({ code: 0, out: null });
    writeFileSync(join(repo, "hello.txt"), "hello edited\n");
    expect((await run("PostToolUse-2.json")).code).toBe(0);
    expect(await run("UserPromptSubmit-4.json")).toEqual({ code: 0, out: null });
    // One prompt so far: the continuations opened no window of their own.
    expect(prompts(repo)).toHaveLength(1);

    const stop = blockedWith(await run("Stop-0.json"));
    expect(stop).toMatch(/^Tandem: this turn used tools, but the end-of-turn ritual is incomplete: /);
    expect(stop).toMatch(/no task was declared/);
    // Qwen sends the reason on as the next user message and fires UserPromptSubmit with it: a repair
    // turn of the same window, not a new prompt (the recording carries the logging hook's text).
    const echo = load("UserPromptSubmit-5.json", repo, home);
    expect(echo.stdin.submitted_prompt).toBeUndefined();
    seen.add(echo.file);
    expect((await replay({ ...echo, stdin: { ...echo.stdin, prompt: stop } }, repo)).code).toBe(0);
    expect(prompts(repo).at(-1)?.data).toMatchObject({ remediation: true });
    // The repair did not run the ritual either: still blocked (stop_hook_active: true), same window.
    expect(blockedWith(await run("Stop-1.json"))).toMatch(/no task was declared/);

    expect(ledger(repo).claims.map((c) => c.path)).toEqual(
      expect.arrayContaining(["hello.txt", "shell.txt"]),
    );
    expect(FILES.filter((f) => !f.startsWith("sub-") && !seen.has(f))).toEqual([]);
  });

  it("claims a sub-agent's write_file for the session that started it (same session_id, an agent_id)", async () => {
    const base = tempDir();
    const repo = initRepo(join(base, "repo"));
    const home = join(base, "home");
    const run = (file: string) => replay(load(file, repo, home), repo);
    expect(context(await run("sub-SessionStart-0.json"))).toContain("Tandem");
    await run("sub-UserPromptSubmit-0.json");
    const write = load("sub-PreToolUse-2.json", repo, home);
    expect(write.stdin.agent_id).toBe("general-purpose-call_2");
    // A Claude session holding sub.txt refuses the sub-agent's write in the parent's name.
    expect(
      denied(
        await hook("claude-code", "pre-tool-use", claudeWrite(repo, "claude-B", "sub.txt"), { cwd: repo }),
      ),
    ).toBeNull();
    expect(deniedWith(await replay(write, repo))).toMatch(/sub\.txt: held by agent-\w+ \(claude-code/);
    // Every other recorded hook of that run is answered without an error.
    for (const f of FILES.filter((f) => f.startsWith("sub-") && f !== "sub-PreToolUse-2.json")) {
      expect((await run(f)).code, f).toBe(0);
    }
    // The main agent's files (its shell's env.txt) are held by the one Qwen session.
    const own = ledger(repo).claims.filter((c) => c.holder !== "claude-B");
    expect(own.map((c) => c.path)).toContain("env.txt");
    expect(new Set(own.map((c) => c.holder))).toEqual(new Set([String(write.stdin.session_id)]));
  });

  it("resolves a shell command's paths in its `directory`, and refuses a redirect there into a held file", async () => {
    const base = tempDir();
    const repo = initRepo(join(base, "repo"), { "sub/held.txt": "x\n", "held.txt": "y\n" });
    const home = join(base, "home");
    expect(
      denied(
        await hook("claude-code", "pre-tool-use", claudeWrite(repo, "claude-A", "sub/held.txt"), {
          cwd: repo,
        }),
      ),
    ).toBeNull();
    const rec = load("PreToolUse-1.json", repo, home);
    const shell = (input: Payload, name = "run_shell_command") =>
      replay({ ...rec, stdin: { ...rec.stdin, tool_name: name, tool_input: input } }, repo);
    expect(await shell({ command: "echo hi > held.txt" })).toEqual({ code: 0, out: null });
    expect(deniedWith(await shell({ command: "echo hi > held.txt", directory: join(repo, "sub") }))).toMatch(
      /sub\/held\.txt: held by/,
    );
    // `monitor` runs a shell command too.
    expect(
      deniedWith(await shell({ command: "echo hi > sub/held.txt", description: "m" }, "monitor")),
    ).toMatch(/sub\/held\.txt: held by/);
    // `edit` and `notebook_edit` name their files as Claude's Edit and NotebookEdit do.
    expect(
      deniedWith(
        await shell({ file_path: join(repo, "sub/held.txt"), old_string: "x", new_string: "z" }, "edit"),
      ),
    ).toMatch(/sub\/held\.txt: held by/);
    expect(
      deniedWith(
        await shell({ notebook_path: join(repo, "sub/held.txt"), new_source: "1" }, "notebook_edit"),
      ),
    ).toMatch(/sub\/held\.txt: held by/);
  });
});

describe("Qwen Code's PermissionRequest, before its approval dialog", () => {
  /** Qwen 0.24.4's PermissionRequest payload: the base fields and the call, no tool_use_id. */
  function permissionRequest(rec: Recorded, file: string): Recorded {
    const { tool_use_id: _u, tool_call_id: _c, ...rest } = rec.stdin;
    const stdin = { ...rest, hook_event_name: "PermissionRequest", permission_mode: "default" };
    return {
      ...rec,
      event: "PermissionRequest",
      stdin: { ...stdin, tool_input: { file_path: file, content: "q\n" } },
    };
  }
  /** Qwen's deny: `hookSpecificOutput.decision.behavior: "deny"`, its message the call's result. */
  const deniedBefore = (a: Answer) => {
    const d = (
      a.out?.hookSpecificOutput as { decision?: { behavior?: string; message?: string } } | undefined
    )?.decision;
    return a.code === 0 && d?.behavior === "deny" ? String(d.message) : null;
  };

  it("refuses a peer's file before Qwen asks, and leaves a free file's question to the person", async () => {
    const base = tempDir();
    const repo = initRepo(join(base, "repo"));
    const home = join(base, "home");
    expect(
      denied(
        await hook("claude-code", "pre-tool-use", claudeWrite(repo, "claude-A", "held.txt"), { cwd: repo }),
      ),
    ).toBeNull();
    const rec = load("PreToolUse-0.json", repo, home);
    const held = await replay(permissionRequest(rec, join(repo, "held.txt")), repo);
    expect(deniedBefore(held)).toMatch(
      /Tandem refused this edit[\s\S]*held\.txt: held by agent-\w+ \(claude-code/,
    );
    expect(ledger(repo).events.filter((e) => e.kind === "claim.denied")).toHaveLength(1);
    // No decision for a free file: Qwen shows its dialog; after "Yes", PreToolUse finds the claim taken.
    expect(await replay(permissionRequest(rec, join(repo, "free.txt")), repo)).toEqual({
      code: 0,
      out: null,
    });
    expect(await replay(rec, repo)).toEqual({ code: 0, out: null });
    const free = ledger(repo).claims.find((c) => c.path === "free.txt");
    expect(free?.holder).toBe(String(rec.stdin.session_id));
  });

  it("is wired for the file tools only: a shell command is checked once, by PreToolUse", () => {
    const wired = qwenCode.events.find((e) => e.native === "PermissionRequest");
    expect(wired).toMatchObject({ kind: "pre-tool", matcher: "^(write_file|edit|notebook_edit)$" });
    const re = new RegExp(wired!.matcher!);
    expect(["write_file", "edit", "notebook_edit"].every((t) => re.test(t))).toBe(true);
    expect(re.test("run_shell_command")).toBe(false);
    const allow = { allow: true, rule: null, reason: null };
    expect(qwenCode.render("pre-tool", wired!, allow)).toEqual({ exitCode: 0, stdout: "", stderr: "" });
    expect(
      JSON.parse(qwenCode.render("pre-tool", wired!, { ...allow, allow: false, reason: "R" }).stdout),
    ).toEqual({
      hookSpecificOutput: {
        hookEventName: "PermissionRequest",
        decision: { behavior: "deny", message: "R" },
      },
    });
  });
});

describe("Qwen Code's own wiring", () => {
  it("is protected: an agent's write_file or redirect into .qwen/settings.json is refused", async () => {
    const base = tempDir();
    const repo = initRepo(join(base, "repo"), { ".qwen/settings.json": "{}\n" });
    const rec = load("PreToolUse-0.json", repo, join(base, "home"));
    const settings = join(repo, ".qwen", "settings.json");
    const write = { ...rec.stdin, tool_input: { file_path: settings, content: '{"disableAllHooks":true}' } };
    expect(deniedWith(await replay({ ...rec, stdin: write }, repo))).toMatch(/\.qwen\/settings\.json/);
    const redirect = {
      ...rec.stdin,
      tool_name: "run_shell_command",
      tool_input: { command: "echo {} > .qwen/settings.json" },
    };
    expect(deniedWith(await replay({ ...rec, stdin: redirect }, repo))).toMatch(
      /settings\.json: it is Tandem's wiring \(Qwen Code's hooks and settings\)/,
    );
  });

  it("carries Qwen's settings $version from init on, so Qwen never rewrites the committed file; deinit removes it whole", async () => {
    const repo = initRepo(join(tempDir(), "repo"));
    const settings = join(repo, ".qwen", "settings.json");
    expect((await cli(["init", ...PIN, "--clients", "qwen-code"], { cwd: repo })).code).toBe(0);
    // Qwen 0.24.4 persists `"$version": 4` into any project settings file that lacks it.
    expect(JSON.parse(readFileSync(settings, "utf8")).$version).toBe(4);
    // A file wired before the key existed gets it from the next init, hooks untouched.
    const { $version: _v, ...older } = JSON.parse(readFileSync(settings, "utf8")) as Record<string, unknown>;
    writeFileSync(settings, `${JSON.stringify(older, null, 2)}\n`);
    expect((await cli(["init", "--check", "--clients", "qwen-code"], { cwd: repo })).code).not.toBe(0);
    expect((await cli(["init", ...PIN, "--clients", "qwen-code"], { cwd: repo })).code).toBe(0);
    expect(JSON.parse(readFileSync(settings, "utf8"))).toEqual({ ...older, $version: 4 });
    expect((await cli(["deinit", "--clients", "qwen-code"], { cwd: repo })).code).toBe(0);
    expect(existsSync(settings)).toBe(false);
  });
});

describe("the Qwen Code module", () => {
  const base = { session_id: "s", cwd: "/r", prompt_id: "s########0" };

  it("takes the person's prompt, skips the empty continuations, and keeps a Stop's echoed reason", () => {
    expect(
      qwenCode.parse("user-prompt-submit", { ...base, prompt: "do it", submitted_prompt: "do it" }),
    ).toMatchObject({
      ok: true,
      input: { kind: "prompt", prompt: "do it", turnId: "s########0" },
    });
    expect(qwenCode.parse("user-prompt-submit", { ...base, prompt: "" })).toMatchObject({
      ok: false,
      skip: true,
    });
    expect(qwenCode.parse("user-prompt-submit", { ...base, prompt: "Tandem: fix it" })).toMatchObject({
      ok: true,
      input: { kind: "prompt", prompt: "Tandem: fix it" },
    });
  });

  it("reads the Stop's last message for the status box", () => {
    expect(
      qwenCode.parse("stop", { ...base, stop_hook_active: true, last_assistant_message: "All done." }),
    ).toMatchObject({
      ok: true,
      input: { kind: "stop", lastAssistantMessage: "All done.", stopHookActive: true },
    });
  });

  it("rejects a payload without a session id", () => {
    expect(qwenCode.parse("pre-tool-use", { cwd: "/r" })).toMatchObject({ ok: false, skip: false });
  });

  it("answers an allow and a passing Stop with silence, a block in Claude's Stop shape", () => {
    const allow = { allow: true, rule: null, reason: null };
    expect(qwenCode.render("pre-tool", null, allow)).toEqual({ exitCode: 0, stdout: "", stderr: "" });
    expect(qwenCode.render("stop", null, allow)).toEqual({ exitCode: 0, stdout: "", stderr: "" });
    expect(
      JSON.parse(qwenCode.render("stop", null, { ...allow, allow: false, block: true, reason: "R" }).stdout),
    ).toEqual({ decision: "block", reason: "R" });
  });
});
