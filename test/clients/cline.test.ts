import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { hookFileText } from "../../src/clients/cline/hook-files.js";
import { clinePluginText } from "../../src/clients/cline/plugin.js";
import { cline } from "../../src/clients/cline/spec.js";
import { FIXTURES } from "../helpers/fixtures.js";
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

/** A payload Cline CLI 3.0.65 gave a hook file (test/fixtures/cline, recorded by a logging hook). */
type Recorded = Recording;

const DIR = join(FIXTURES, "cline");
const FILES = recordingFiles("cline");
const load = (file: string, repo: string, home: string) => loadRecording("cline", file, repo, home);
const replay = (rec: Recorded, repo: string) => replayRecording("cline", rec, repo);

/** Cline's refusal as Tandem gives it: the input replaced by the reason (the plugin skips it), and as context. */
const refusal = (a: Answer) => {
  const reason = (a.out?.overrideInput as { tandem_refusal?: unknown } | undefined)?.tandem_refusal;
  return a.code === 0 && a.out?.cancel === false && reason === a.out.contextModification
    ? String(reason)
    : null;
};

const EMPTY: Answer = { code: 0, out: {} };

describe("Cline CLI's recorded payloads through `tandem hook cline`", () => {
  it("replays every recording with the verdict its event and the other sessions call for", async () => {
    const base = tempDir();
    const repo = initRepo(join(base, "repo"), { "hello.txt": "hello from fake cline\n" });
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

    // Session 1796215535880_u0l4j: an editor write, a shell redirect, and a sub-agent's editor write.
    expect(await run("TaskStart-0.json")).toEqual(EMPTY);
    expect(await run("PreToolUse-0.json")).toEqual(EMPTY);
    writeFileSync(join(repo, "hello.txt"), "hello from fake cline, again\n");
    expect((await run("PostToolUse-0.json")).code).toBe(0);
    expect(await run("PreToolUse-1.json")).toEqual(EMPTY);
    writeFileSync(join(repo, "shell.txt"), "shell-ran\n");
    expect((await run("PostToolUse-1.json")).code).toBe(0);
    expect(await run("PreToolUse-2.json")).toEqual(EMPTY);
    // The sub-agent runs in Cline's process under the same root session: its start and end are not
    // the session's, and its write is claimed by the session.
    expect(await run("TaskStart-1.json")).toEqual(EMPTY);
    expect(await run("PreToolUse-3.json")).toEqual(EMPTY);
    writeFileSync(join(repo, "sub.txt"), "sub\n");
    expect((await run("PostToolUse-2.json")).code).toBe(0);
    expect(await run("TaskComplete-0.json")).toEqual(EMPTY);
    expect((await run("PostToolUse-3.json")).code).toBe(0);
    expect(await run("TaskComplete-1.json")).toEqual(EMPTY);

    const events = ledger(repo).events;
    const sessions = new Set(events.filter((e) => e.kind === "session.started").map((e) => e.session));
    expect(sessions.size).toBe(2);
    const claimed = ledger(repo).claims.map((c) => c.path);
    expect(claimed).toEqual(expect.arrayContaining(["hello.txt", "shell.txt", "sub.txt"]));
    // One turn ended: the sub-agent's TaskComplete was skipped, the session's was recorded.
    expect(events.filter((e) => e.kind === "turn.stopped")).toHaveLength(1);

    // Session deny: its editor call on the file Claude holds is refused, the reason for the model.
    expect(await run("deny-TaskStart-0.json")).toEqual(EMPTY);
    expect(refusal(await run("deny-PreToolUse-0.json"))).toMatch(
      /denied\.txt: held by agent-\w+ \(claude-code/,
    );
    expect((await run("deny-PostToolUse-0.json")).code).toBe(0);
    expect(await run("deny-TaskComplete-0.json")).toEqual(EMPTY);

    // Session patch (a gpt-5 model: apply_patch instead of editor): the patch adds patched.txt and
    // updates hello.txt, which the first session holds: refused whole.
    expect(await run("patch-TaskStart-0.json")).toEqual(EMPTY);
    expect(refusal(await run("patch-PreToolUse-0.json"))).toMatch(/hello\.txt: held by agent-\w+ \(cline/);
    expect((await run("patch-PostToolUse-0.json")).code).toBe(0);
    expect(await run("patch-TaskComplete-0.json")).toEqual(EMPTY);

    expect([...seen].sort()).toEqual([...FILES].sort());
  });

  it("tells each turn's first tool result the name and ritual, and judges each turn by its own ritual", async () => {
    const base = tempDir();
    const repo = initRepo(join(base, "repo"), { "hello.txt": "hi\n" });
    const home = join(base, "home");
    const run = (file: string) => replay(load(file, repo, home), repo);
    const stops = () =>
      ledger(repo)
        .events.filter((e) => e.kind === "turn.stopped")
        .map((e) => e.data as { verdict: string; enforcement: string });
    const turn = async (ritual: boolean) => {
      // TaskStart fires before every run of Cline's agent: each `cline` prompt is a turn.
      expect(await run("TaskStart-0.json")).toEqual(EMPTY);
      expect(await run("PreToolUse-0.json")).toEqual(EMPTY);
      // Cline drops what TaskStart answers: the turn's first tool result tells the name and the ritual.
      const brief = String((await run("PostToolUse-0.json")).out?.contextModification);
      expect(brief).toMatch(/^Tandem: you are agent-\w+\./);
      expect(brief).toMatch(/run `tandem status` and `tandem task "<what you are working on>"`/);
      expect(brief).toContain("No other live agent sessions right now.");
      // Told once a turn: the next tool result of the same turn carries nothing.
      expect(await run("PreToolUse-0.json")).toEqual(EMPTY);
      expect(await run("PostToolUse-0.json")).toEqual(EMPTY);
      if (ritual) {
        const session = ledger(repo).events.find((e) => e.kind === "session.started")!.session!;
        for (const args of [["task", "writing hello.txt"], ["status"]]) {
          const r = await cli([...args, "--session", session], { cwd: repo });
          expect(r.code, r.stderr).toBe(0);
        }
      }
      // A sub-agent starting inside the turn does not start a new turn.
      expect(await run("TaskStart-1.json")).toEqual(EMPTY);
      // TaskComplete runs detached: whatever Tandem decides, its answer is nothing Cline reads.
      expect(await run("TaskComplete-1.json")).toEqual(EMPTY);
    };
    await turn(true);
    expect(stops()).toEqual([expect.objectContaining({ verdict: "pass" })]);
    await turn(false);
    expect(stops()[1]).toEqual(expect.objectContaining({ verdict: "block", enforcement: "observe_only" }));
    // The board shows the skipped ritual as observed: nothing was blocked.
    const board = await cli(["watch", "--once"], { cwd: repo, env: { NO_COLOR: "1" } });
    expect(board.code, board.stderr).toBe(0);
    expect(board.stdout).toMatch(/turn\.stopped +observe status/);
    expect(board.stdout).not.toMatch(/block status/);
  });

  it("refuses a run_commands redirect into a held file, judging every command of the call", async () => {
    const base = tempDir();
    const repo = initRepo(join(base, "repo"), { "held.txt": "y\n", "sub/free.txt": "z\n" });
    expect(
      denied(
        await hook("claude-code", "pre-tool-use", claudeWrite(repo, "claude-A", "held.txt"), { cwd: repo }),
      ),
    ).toBeNull();
    const rec = load("PreToolUse-1.json", repo, join(base, "home"));
    const shell = (commands: string[]) => {
      const call = { ...(rec.stdin.tool_call as Payload), input: { commands } };
      return replay({ ...rec, stdin: { ...rec.stdin, tool_call: call } }, repo);
    };
    expect(await shell(["echo hi > free.txt"])).toEqual(EMPTY);
    expect(refusal(await shell(["echo ok > other.txt", "echo hi > held.txt"]))).toMatch(/held\.txt: held by/);
    // Each command starts in the workspace root: a `cd` in one does not move the next one's paths.
    expect(await shell(["cd sub && echo hi > held.txt", "echo ok > sub/free.txt"])).toEqual(EMPTY);
  });

  it("protects its hook files: an editor write or a redirect into .clinerules/hooks is refused", async () => {
    const base = tempDir();
    const repo = initRepo(join(base, "repo"), { ".clinerules/hooks/PreToolUse": "#!/bin/sh\n" });
    const rec = load("PreToolUse-0.json", repo, join(base, "home"));
    const call = (name: string, input: Payload) =>
      replay({ ...rec, stdin: { ...rec.stdin, tool_call: { id: "call_x", name, input } } }, repo);
    expect(
      refusal(await call("editor", { path: join(repo, ".clinerules/hooks/PreToolUse"), new_text: "" })),
    ).toMatch(/PreToolUse: it is Tandem's wiring \(Cline CLI's hook files\)/);
    expect(
      refusal(await call("run_commands", { commands: ["echo '{}' > .clinerules/hooks/TaskStart"] })),
    ).toMatch(/TaskStart: it is Tandem's wiring/);
  });
});

describe("the Cline CLI module", () => {
  const allow = { allow: true, rule: null, reason: null };

  it("takes the root session as the session, for the agent and the sub-agents it spawns", () => {
    const sub = JSON.parse(readFileSync(join(DIR, "PreToolUse-3.json"), "utf8")) as Recorded;
    const main = JSON.parse(readFileSync(join(DIR, "PreToolUse-0.json"), "utf8")) as Recorded;
    expect(sub.stdin.taskId).not.toBe(main.stdin.taskId);
    const a = cline.parse("pre-tool-use", main.stdin);
    const b = cline.parse("pre-tool-use", sub.stdin);
    expect(a).toMatchObject({
      ok: true,
      input: { sessionId: "1796215535880_u0l4j", cwd: "/home/user/repo" },
    });
    expect(b).toMatchObject({ ok: true, input: { sessionId: "1796215535880_u0l4j" } });
  });

  it("skips a sub-agent's start and end, and reads the reply from the main agent's TaskComplete", () => {
    const end = (f: string) => (JSON.parse(readFileSync(join(DIR, f), "utf8")) as Recorded).stdin;
    expect(cline.parse("task-complete", end("TaskComplete-0.json"))).toMatchObject({ ok: false, skip: true });
    expect(cline.parse("task-start", end("TaskStart-1.json"))).toMatchObject({ ok: false, skip: true });
    expect(cline.parse("task-complete", end("TaskComplete-1.json"))).toMatchObject({
      ok: true,
      input: { kind: "stop", lastAssistantMessage: "All done." },
    });
  });

  it("reads editor as an Edit of its path and run_commands as one script of subshells", () => {
    const p = { sessionContext: { rootSessionId: "s" }, workspaceRoots: ["/r"] };
    const edit = cline.parse("pre-tool-use", {
      ...p,
      tool_call: { id: "c1", name: "editor", input: { path: "/r/a" } },
    });
    expect(edit).toMatchObject({
      ok: true,
      input: { tool: { name: "Edit", input: { file_path: "/r/a" }, useId: "c1" } },
    });
    const sh = cline.parse("pre-tool-use", {
      ...p,
      tool_call: { id: "c2", name: "run_commands", input: { commands: ["a", "b"] } },
    });
    expect(sh).toMatchObject({
      ok: true,
      input: { tool: { name: "Bash", input: { command: "(\na\n)\n(\nb\n)" } } },
    });
  });

  it("rejects a payload without a session", () => {
    expect(cline.parse("pre-tool-use", { workspaceRoots: ["/r"] })).toMatchObject({ ok: false, skip: false });
  });

  it("answers every event with a JSON object, and context only where Cline reads it", () => {
    expect(JSON.parse(cline.render("pre-tool", null, allow).stdout)).toEqual({});
    expect(JSON.parse(cline.render("stop", null, { ...allow, block: true, reason: "R" }).stdout)).toEqual({});
    expect(JSON.parse(cline.render("post-tool", null, { ...allow, context: "C" }).stdout)).toEqual({
      cancel: false,
      contextModification: "C",
    });
    expect(
      JSON.parse(
        cline.render("pre-tool", null, { allow: false, rule: "claim-conflict", reason: "R" }).stdout,
      ),
    ).toEqual({
      cancel: false,
      overrideInput: { tandem_refusal: "R" },
      contextModification: "R",
    });
  });

  it("has a plugin that skips a call carrying Tandem's refusal with its reason, and leaves every other call alone", async () => {
    const text = clinePluginText("tandem", "pre-tool-use");
    const plugin = (await import(`data:text/javascript,${encodeURIComponent(text)}`)) as {
      default: {
        name: string;
        manifest: { capabilities: string[] };
        hooks: { beforeTool(ctx: unknown): unknown };
      };
    };
    const skipFor = plugin.default.hooks.beforeTool;
    expect(plugin.default.manifest.capabilities).toEqual(["hooks"]);
    expect(skipFor({ input: { tandem_refusal: "Tandem refused this edit: R" } })).toEqual({
      skip: true,
      reason: "Tandem refused this edit: R",
    });
    for (const input of [{ path: "/r/a.txt", new_text: "x" }, { commands: ["ls"] }, {}, "patch", null])
      expect(skipFor({ input }), JSON.stringify(input)).toBeUndefined();
    expect(text.split("\n")[0]).toMatch(/^\/\/ .*tandem hook cline pre-tool-use/);
  });

  it("fails closed in the PreToolUse file when Tandem gives no answer, and passes its answer through", () => {
    const gateWith = (launcher: string) => {
      const r = spawnSync("sh", ["-c", hookFileText("PreToolUse", "pre-tool-use", launcher, "npx tandem")], {
        input: '{"taskId":"t"}',
        encoding: "utf8",
      });
      return JSON.parse(r.stdout) as Record<string, unknown>;
    };
    // Missing launcher, a crash, and silence all refuse with the remedy, spelled for a
    // devDependency's person.
    for (const broken of ["/nonexistent/tandem", "false", "true"]) {
      expect(gateWith(broken), broken).toMatchObject({
        cancel: false,
        overrideInput: { tandem_refusal: expect.stringMatching(/npx tandem doctor/) },
      });
      expect(String(gateWith(broken).contextModification)).toContain(
        "Ask the person to run `npx tandem doctor` in this repository",
      );
    }
    // A working launcher's answer is printed untouched, and it read the payload from stdin.
    expect(gateWith("sh -c cat --")).toEqual({ taskId: "t" });
  });
});
