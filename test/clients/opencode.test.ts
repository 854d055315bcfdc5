import { chmodSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { launcherWords } from "../../src/clients/launcher-words.js";
import { PLUGIN_FILE } from "../../src/clients/opencode/plugin.js";
import { opencode } from "../../src/clients/opencode/spec.js";
import { ownedCommands } from "../../src/clients/owned-file.js";
import { REMEDIATION_MARKER } from "../../src/core/ritual/verdict.js";
import { claudeWrite, denied, fakeAgent, ledger, type Payload } from "../helpers/hooks.js";
import { hook } from "../helpers/in-process.js";
import {
  type Answer,
  loadRecording,
  type Recording,
  recordingFiles,
  replayRecording,
} from "../helpers/recordings.js";
import { initRepo, tempDir } from "../helpers/repo.js";

/** A call Tandem's opencode plugin made under opencode 1.18.33 (test/fixtures/opencode). */
type Recorded = Recording;

const FILES = recordingFiles("opencode").sort();
const load = (file: string, repo: string, home: string) => loadRecording("opencode", file, repo, home);
// opencode's plugin names its events as Tandem does: no kebab-casing.
const replay = (rec: Recorded, repo: string) => replayRecording("opencode", rec, repo, rec.event);

const SILENT = { code: 0, out: null };
const deny = (a: Answer) => (a.code === 0 && typeof a.out?.deny === "string" ? a.out.deny : null);

describe("opencode's recorded plugin calls through `tandem hook opencode`", () => {
  it("claims its writes, refuses a live peer's file by tool and by shell redirect, also from its sub-agent, and sends the ritual back as a follow-up", async () => {
    const base = tempDir();
    const repo = initRepo(join(base, "repo"), { "peer.txt": "peer\n" });
    const home = join(base, "home");
    const run = (file: string) => replay(load(file, repo, home), repo);
    // A live Claude Code session holds peer.txt.
    const claude = claudeWrite(repo, "claude-A", "peer.txt");
    expect(
      denied(await hook("claude-code", "pre-tool-use", claude, { cwd: repo, env: fakeAgent() })),
    ).toBeNull();

    expect(String((await run("01-session-start.json")).out?.context)).toContain("Tandem");
    expect(String((await run("02-chat-message.json")).out?.context)).toMatch(/tandem task/);
    expect(await run("03-tool-before.json")).toEqual(SILENT);
    writeFileSync(join(repo, "a.txt"), "hello\n");
    expect((await run("04-tool-after.json")).code).toBe(0);
    expect(await run("05-tool-before.json")).toEqual(SILENT);
    writeFileSync(join(repo, "a.txt"), "hello there\n");
    expect((await run("06-tool-after.json")).code).toBe(0);
    expect(await run("07-tool-before.json")).toEqual(SILENT);
    writeFileSync(join(repo, "b.txt"), "hi\n");
    expect((await run("08-tool-after.json")).code).toBe(0);
    // The write tool and a shell redirect into the peer's file: the reason is what the model reads.
    expect(deny(await run("09-tool-before.json"))).toMatch(/peer\.txt: held by agent-\w+ \(claude-code/);
    expect(deny(await run("11-tool-before.json"))).toMatch(/peer\.txt: held by agent-\w+ \(claude-code/);
    // The task tool's child session: its write is the parent session's claim, its clobber refused.
    expect(await run("13-tool-before.json")).toEqual(SILENT);
    writeFileSync(join(repo, "c.txt"), "from the sub-agent\n");
    expect((await run("14-tool-after.json")).code).toBe(0);
    expect(deny(await run("15-tool-before.json"))).toMatch(/peer\.txt: held by agent-\w+ \(claude-code/);
    const parent = String(load("13-tool-before.json", repo, home).stdin.session_id);
    const claims = ledger(repo).claims;
    expect(claims.filter((c) => c.holder === parent).map((c) => c.path)).toEqual(["a.txt", "b.txt", "c.txt"]);
    expect(claims.find((c) => c.path === "peer.txt")?.holder).toBe("claude-A");

    // The turn ends without the ritual: the plugin is told to send the reminder as the next prompt,
    // whose marker makes it a repair of the same turn.
    const followUp = String((await run("17-session-idle.json")).out?.followUp);
    expect(followUp.startsWith(REMEDIATION_MARKER)).toBe(true);
    expect(followUp).toMatch(/no task was declared/);
    const prompt = load("02-chat-message.json", repo, home);
    const output = { ...(prompt.stdin.output as Payload), parts: [{ type: "text", text: followUp }] };
    expect((await replay({ ...prompt, stdin: { ...prompt.stdin, output } }, repo)).code).toBe(0);
    const prompts = ledger(repo).events.filter((e) => e.kind === "prompt.submitted");
    expect(prompts.map((e) => (e.data as { remediation: boolean }).remediation)).toEqual([false, true]);

    expect(await run("18-session-end.json")).toEqual(SILENT);
    expect(ledger(repo).events.at(-1)?.kind).toBe("session.ended");
  });

  it("lets every recorded call through silently or with context when no peer holds anything", async () => {
    const base = tempDir();
    const repo = initRepo(join(base, "repo"), { "peer.txt": "peer\n" });
    for (const file of FILES) {
      const a = await replay(load(file, repo, join(base, "home")), repo);
      expect(a.code, file).toBe(0);
      expect(deny(a), file).toBeNull();
    }
  });
});

describe("the opencode module", () => {
  it("reads opencode's tool arguments as the shapes the target reader knows, and skips tools that write nothing", () => {
    const at = (tool: string, args: unknown) =>
      opencode.parse("tool-before", {
        session_id: "s",
        directory: "/r",
        input: { tool, sessionID: "s", callID: "c1" },
        output: { args },
      });
    expect(at("bash", { command: "echo x > f", workdir: "sub" })).toMatchObject({
      ok: true,
      input: { tool: { name: "Bash", input: { command: "echo x > f" }, cwd: "/r/sub", useId: "c1" } },
    });
    expect(at("apply_patch", { patchText: "*** Begin Patch" })).toMatchObject({
      ok: true,
      input: { tool: { name: "apply_patch", input: "*** Begin Patch" } },
    });
    expect(at("read", { filePath: "f" })).toEqual({ ok: false, skip: true, reason: "read writes nothing" });
    expect(opencode.parse("tool-before", { directory: "/r" })).toEqual({
      ok: false,
      skip: false,
      error: "payload has no session_id",
    });
  });

  it("splits the launcher into words the plugin starts without a shell", () => {
    const cases: [string, string[]][] = [
      ["tandem", ["tandem"]],
      ["npx tandem", ["npx", "tandem"]],
      ["'/opt/my tools/node' '/a b/tandem.cjs'", ["/opt/my tools/node", "/a b/tandem.cjs"]],
      ["'/it'\\''s/tandem'", ["/it's/tandem"]],
      ['"/x \\"y\\"/tandem"', ['/x "y"/tandem']],
    ];
    for (const [launcher, words] of cases) expect(launcherWords(launcher), launcher).toEqual(words);
  });

  it("writes a plugin whose marks name each hook command it runs", () => {
    const [file] = opencode.hookFiles!("npx tandem", "npx tandem");
    expect(file?.path).toBe(PLUGIN_FILE);
    expect(ownedCommands(file!.text)).toEqual(
      opencode.events.map((e) => `npx tandem hook opencode ${e.cli}`),
    );
  });
});

/** The plugin as opencode loads it: the module's export called with a stand-in of its context. */
async function loadPlugin(launcher: string, person = "tandem", toasts: unknown[] = []) {
  const dir = tempDir();
  const path = join(dir, "tandem.mjs");
  writeFileSync(path, opencode.hookFiles!(launcher, person)[0]!.text);
  const mod = (await import(pathToFileURL(path).href)) as {
    TandemPlugin: (ctx: unknown) => Promise<Record<string, (...a: unknown[]) => Promise<void>>>;
  };
  const client = {
    session: { get: async () => ({ data: { parentID: null } }), promptAsync: async () => ({}) },
    tui: {
      showToast: async (o: unknown) => {
        toasts.push(o);
        return {};
      },
    },
  };
  return { dir, hooks: await mod.TandemPlugin({ client, directory: dir }) };
}

/** A launcher named `tandem` that answers every hook with `answer` and the exit code `code`. */
function fakeLauncher(answer: string, code = 0): string {
  const dir = tempDir();
  const path = join(dir, "tandem");
  writeFileSync(path, `#!/bin/sh\ncat > "${dir}/stdin-$3.json"\nprintf '%s' '${answer}'\nexit ${code}\n`);
  chmodSync(path, 0o755);
  return path;
}

describe("the plugin (run by Node as opencode's Bun would)", () => {
  const toolCall = (tool: string) => [
    { tool, sessionID: "ses_1", callID: "c1" },
    { args: { filePath: "f" } },
  ];

  it("throws the refusal's reason, which opencode hands the model as the tool's error", async () => {
    const { hooks } = await loadPlugin(fakeLauncher('{"deny":"f: held by agent-jay"}'));
    await expect(hooks["tool.execute.before"]!(...toolCall("write"))).rejects.toThrow("f: held by agent-jay");
  });

  it("shows the person the refusal's reason as a toast, since the TUI shows the model's error to no one", async () => {
    const toasts: unknown[] = [];
    const { hooks } = await loadPlugin(fakeLauncher('{"deny":"f: held by agent-jay"}'), "tandem", toasts);
    await expect(hooks["tool.execute.before"]!(...toolCall("edit"))).rejects.toThrow("f: held by agent-jay");
    expect(toasts).toEqual([
      {
        body: expect.objectContaining({
          title: "Tandem",
          message: "f: held by agent-jay",
          variant: "warning",
        }),
      },
    ]);
    const allowed = await loadPlugin(fakeLauncher(""), "tandem", toasts);
    await allowed.hooks["tool.execute.before"]!(...toolCall("write"));
    expect(toasts).toHaveLength(1);
  });

  it("fails closed: a hook that cannot run or answers garbage refuses the write", async () => {
    // A devDependency's person starts Tandem with npx: the refusal asks for exactly that.
    const missing = await loadPlugin("/nonexistent/tandem", "npx tandem");
    await expect(missing.hooks["tool.execute.before"]!(...toolCall("edit"))).rejects.toThrow(
      /Tandem could not check this edit call \(.*ENOENT.*\), so it is refused; ask the person to run `npx tandem doctor`/,
    );
    const broken = await loadPlugin(fakeLauncher("not json"));
    await expect(broken.hooks["tool.execute.before"]!(...toolCall("bash"))).rejects.toThrow(
      /unreadable answer/,
    );
    const crashed = await loadPlugin(fakeLauncher("", 1));
    await expect(crashed.hooks["tool.execute.before"]!(...toolCall("write"))).rejects.toThrow(/exit 1/);
  });

  it("lets a tool that writes nothing run without asking Tandem", async () => {
    const { hooks } = await loadPlugin("/nonexistent/tandem");
    await expect(hooks["tool.execute.before"]!(...toolCall("read"))).resolves.toBeUndefined();
  });

  it("names the top session in the agent's shell", async () => {
    const { hooks } = await loadPlugin(fakeLauncher(""));
    const out = { env: {} as Record<string, string> };
    await hooks["shell.env"]!({ cwd: "/r", sessionID: "ses_1" }, out);
    expect(out.env.OPENCODE_SESSION_ID).toBe("ses_1");
  });
});
