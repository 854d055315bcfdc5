import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { geminiCli } from "../../src/clients/gemini-cli/spec.js";
import { FIXTURES } from "../helpers/fixtures.js";
import { claudeWrite, denied, ledger, type Payload } from "../helpers/hooks.js";
import { hook } from "../helpers/in-process.js";
import {
  type Answer,
  loadRecording,
  type Recording,
  recordingFiles,
  replayRecording,
} from "../helpers/recordings.js";
import { initRepo, tempDir } from "../helpers/repo.js";

/** A payload Gemini CLI 0.61.0 gave a hook (test/fixtures/gemini-cli, recorded by a logging hook). */
type Recorded = Recording;

const DIR = join(FIXTURES, "gemini-cli");
const FILES = recordingFiles("gemini-cli");
const load = (file: string, repo: string, home: string) => loadRecording("gemini-cli", file, repo, home);
const replay = (rec: Recorded, repo: string) => replayRecording("gemini-cli", rec, repo);

const context = (a: Answer) =>
  (a.out?.hookSpecificOutput as { additionalContext?: string } | undefined)?.additionalContext ?? "";

/** Gemini's own deny (and AfterAgent block): `{decision: "deny", reason}`, exit 0. */
const deniedWith = (a: Answer) => (a.code === 0 && a.out?.decision === "deny" ? String(a.out.reason) : null);

describe("Gemini CLI's recorded payloads through `tandem hook gemini-cli`", () => {
  it("replays every recording with the verdict its event and the other sessions call for", async () => {
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

    // Session 1baa6e06: writes hello.txt, runs a shell redirect, and ends its turn without the ritual.
    expect(context(await run("SessionStart-0.json"))).toContain("Tandem");
    expect(context(await run("BeforeAgent-0.json"))).toMatch(/tandem task/);
    for (const f of FILES.filter((f) =>
      /^(PreCompress|BeforeModel|BeforeToolSelection|AfterModel)-/.test(f),
    )) {
      expect(await run(f), f).toEqual({ code: 0, out: null });
    }
    expect(await run("BeforeTool-0.json")).toEqual({ code: 0, out: null });
    writeFileSync(join(repo, "hello.txt"), "hello from fake gemini\n");
    expect((await run("AfterTool-0.json")).code).toBe(0);
    expect(await run("BeforeTool-1.json")).toEqual({ code: 0, out: null });
    writeFileSync(join(repo, "shell.txt"), "shell-ran\n");
    expect((await run("AfterTool-1.json")).code).toBe(0);
    const stop = deniedWith(await run("AfterAgent-0.json"));
    // Gemini shows the reason as "Agent execution blocked: <reason>": Tandem's text, no marker line.
    expect(stop).toMatch(/^Tandem: this turn used tools, but the end-of-turn ritual is incomplete: /);
    expect(stop).toMatch(/no task was declared/);
    // ...and sends it back as a prompt, which is a repair turn of the same window, not a new one.
    const repair = load("BeforeAgent-0.json", repo, home);
    expect((await replay({ ...repair, stdin: { ...repair.stdin, prompt: stop } }, repo)).code).toBe(0);
    const prompts = ledger(repo).events.filter((e) => e.kind === "prompt.submitted");
    expect(prompts.at(-1)?.data).toMatchObject({ remediation: true });
    expect(prompts.at(-2)?.data).toMatchObject({ remediation: false });

    // Session 2633a6aa's `replace` of the file 1baa6e06 holds is refused in Gemini's own form, and
    // the same text is a system message: Gemini's UI hides a failed tool call, but prints that.
    const refused = await run("replace-BeforeTool-0.json");
    expect(deniedWith(refused)).toMatch(/hello\.txt: held by agent-\w+ \(gemini-cli/);
    expect(refused.out?.systemMessage).toBe(refused.out?.reason);
    // Session 301cc7e1's write_file of the file Claude holds is refused.
    expect(deniedWith(await run("deny-BeforeTool-0.json"))).toMatch(
      /denied\.txt: held by agent-\w+ \(claude-code/,
    );
    // Session 15afaa7a used no tool: its Stop after a block passes silently.
    expect(await run("stopblock-AfterAgent-1.json")).toEqual({ code: 0, out: null });

    // Ending 1baa6e06 leaves hello.txt as its left work (issue 26): the same `replace` is refused
    // once, naming the former owner, and passes when made again in the same turn.
    expect(await run("SessionEnd-0.json")).toEqual({ code: 0, out: null });
    expect(deniedWith(await run("replace-BeforeTool-0.json"))).toMatch(
      /left work[\s\S]*hello\.txt: left by agent-\w+ \(gemini-cli/,
    );
    expect(await run("replace-BeforeTool-0.json")).toEqual({ code: 0, out: null });

    expect([...seen].sort()).toEqual([...FILES].sort());
  });

  it("resolves a shell command's paths in its dir_path, and refuses a redirect there into a held file", async () => {
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
    const rec = load("BeforeTool-1.json", repo, home);
    const shell = (input: Payload) => replay({ ...rec, stdin: { ...rec.stdin, tool_input: input } }, repo);
    // In the project root, held.txt is a free file.
    expect(await shell({ command: "echo hi > held.txt" })).toEqual({ code: 0, out: null });
    expect(deniedWith(await shell({ command: "echo hi > held.txt", dir_path: "sub" }))).toMatch(
      /sub\/held\.txt: held by/,
    );
    expect(deniedWith(await shell({ command: "echo hi > held.txt", dir_path: join(repo, "sub") }))).toMatch(
      /sub\/held\.txt: held by/,
    );
  });
});

describe("Gemini's own wiring", () => {
  it("is protected: an agent's write_file or redirect into .gemini/settings.json is refused", async () => {
    const base = tempDir();
    const repo = initRepo(join(base, "repo"), { ".gemini/settings.json": "{}\n" });
    const rec = load("BeforeTool-0.json", repo, join(base, "home"));
    const settings = join(repo, ".gemini", "settings.json");
    const write = {
      ...rec.stdin,
      tool_input: { file_path: settings, content: '{"hooksConfig":{"enabled":false}}' },
    };
    expect(deniedWith(await replay({ ...rec, stdin: write }, repo))).toMatch(/\.gemini\/settings\.json/);
    const redirect = {
      ...rec.stdin,
      tool_name: "run_shell_command",
      tool_input: { command: "echo {} > settings.json", dir_path: ".gemini" },
    };
    expect(deniedWith(await replay({ ...rec, stdin: redirect }, repo))).toMatch(
      /settings\.json: it is Tandem's wiring \(Gemini CLI's hooks and settings\)/,
    );
  });
});

describe("the Gemini CLI module", () => {
  it("reads prompt_response as the reply and takes no prompt from AfterAgent", () => {
    const res = geminiCli.parse("after-agent", {
      session_id: "s",
      cwd: "/r",
      prompt: "the turn's first prompt",
      prompt_response: "All done.",
      stop_hook_active: true,
    });
    expect(res).toMatchObject({
      ok: true,
      input: { kind: "stop", prompt: null, lastAssistantMessage: "All done.", stopHookActive: true },
    });
  });

  it("reads the typed prompt without the SessionStart context Gemini put in front of it", () => {
    const rec = JSON.parse(readFileSync(join(DIR, "BeforeAgent-0.json"), "utf8")) as { stdin: Payload };
    expect(rec.stdin.prompt).toMatch(/^<hook_context>CTX-FROM-SessionStart<\/hook_context>/);
    expect(geminiCli.parse("before-agent", rec.stdin)).toMatchObject({
      ok: true,
      input: { kind: "prompt", prompt: "please create hello.txt" },
    });
  });

  it("rejects a payload without a session id", () => {
    expect(geminiCli.parse("before-tool", { cwd: "/r" })).toMatchObject({ ok: false, skip: false });
  });

  it("answers a pre-tool allow and a passing Stop with silence, and context in hookSpecificOutput", () => {
    const allow = { allow: true, rule: null, reason: null };
    const event = geminiCli.events.find((e) => e.native === "BeforeAgent")!;
    expect(geminiCli.render("pre-tool", null, allow)).toEqual({ exitCode: 0, stdout: "", stderr: "" });
    expect(geminiCli.render("stop", null, allow)).toEqual({ exitCode: 0, stdout: "", stderr: "" });
    expect(JSON.parse(geminiCli.render("prompt", event, { ...allow, context: "C" }).stdout)).toEqual({
      hookSpecificOutput: { hookEventName: "BeforeAgent", additionalContext: "C" },
    });
  });
});
