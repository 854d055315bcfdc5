import { describe, expect, it } from "vitest";
import { claudeCode } from "../../../src/clients/claude-code/spec.js";
import { CLIENTS } from "../../../src/clients/index.js";
import { fstabText, LAUNCHER_MARK, launcherText, planFileText } from "../../../src/core/jail/launcher.js";
import {
  commandOf,
  guardNote,
  jailedCommand,
  type RewriteFacts,
  rewriteStep,
  rewrittenInput,
} from "../../../src/core/jail/rewrite.js";
import { PLAIN, type Printer } from "../../../src/core/printed.js";

const OK = { ok: true } as const;
const NO = { ok: false, why: "unshare, mount not found on PATH", fix: "install util-linux" } as const;
const facts = (over: Partial<RewriteFacts>): RewriteFacts => ({
  guard: "kernel",
  field: "command",
  input: { command: "npm test", description: "run the tests" },
  kernel: OK,
  ...over,
});

describe("whether the hook sends a command through the jail", () => {
  const cases: [string, Partial<RewriteFacts>, string][] = [
    ["kernel guard, a command, the kernel jails", {}, "rewrite npm test"],
    ["the reader guards (the default)", { guard: "reader" }, "none"],
    ["the reader guards even where the kernel cannot jail", { guard: "reader", kernel: NO }, "none"],
    ["a client whose answer cannot carry a command", { field: null }, "none"],
    ["an input with no command", { input: { file_path: "/r/a.txt" } }, "none"],
    ["an empty command", { input: { command: "  " } }, "none"],
    ["a command that is not a string", { input: { command: ["ls"] } }, "none"],
    ["no input at all", { input: null }, "none"],
    ["kernel guard where the kernel will not jail", { kernel: NO }, "refuse"],
  ];
  it.each(cases)("%s", (_what, over, want) => {
    const step = rewriteStep(facts(over));
    const got = step.kind === "rewrite" ? `rewrite ${step.command}` : step.kind;
    expect(got).toBe(want);
  });

  it("a refusal says why the jail cannot be set up and both ways out", () => {
    const step = rewriteStep(facts({ kernel: NO }));
    expect(step.kind === "refuse" && step.reason).toMatch(
      /before it ran.*"guard": "kernel".*unshare, mount not found on PATH.*install util-linux.*"guard": "reader"/s,
    );
  });
});

describe("the rewritten command", () => {
  const cases: [string, string, string, string][] = [
    ["plain words", "npm test", "bash /r/.git/tandem/bin/jail /r/.git/tandem/jail/s1.plan 'npm test'"],
    [
      "single quotes",
      "echo 'a b'",
      `bash /r/.git/tandem/bin/jail /r/.git/tandem/jail/s1.plan 'echo '\\''a b'\\'''`,
    ],
    [
      "a newline and $",
      'x=1\necho "$x"',
      `bash /r/.git/tandem/bin/jail /r/.git/tandem/jail/s1.plan 'x=1\necho "$x"'`,
    ],
    ["one safe word", "ls", "bash /r/.git/tandem/bin/jail /r/.git/tandem/jail/s1.plan ls"],
  ].map(([what, command, want]) => [what!, command!, "/r/.git/tandem/jail/s1.plan", want!]);
  it.each(cases)("%s", (_what, command, plan, want) => {
    expect(jailedCommand("/r/.git/tandem/bin/jail", plan, command)).toBe(want);
  });

  it("quotes a launcher or plan path with spaces", () => {
    expect(jailedCommand("/my repo/.git/tandem/bin/jail", "/my repo/p", "true")).toBe(
      "bash '/my repo/.git/tandem/bin/jail' '/my repo/p' true",
    );
  });

  it("replaces only the command in the input", () => {
    expect(rewrittenInput({ command: "ls", description: "list", timeout: 5 }, "command", "jailed")).toEqual({
      command: "jailed",
      description: "list",
      timeout: 5,
    });
    expect(commandOf({ command: "ls" }, "cmd")).toBeNull();
  });
});

describe("the launcher and its plan", () => {
  it("writes each path ended by a NUL, whatever bytes it holds", () => {
    expect(planFileText(["/r/a.txt", "/r/odd name\nx"])).toBe("/r/a.txt\0/r/odd name\nx\0");
    expect(planFileText([])).toBe("");
  });

  it("spells the plan as an fstab, escaping what would split a field", () => {
    expect(fstabText(["/r/a.txt", "/r/odd name\tx\ny\\z"])).toBe(
      "/r/a.txt /r/a.txt none bind,ro 0 0\n/r/odd\\040name\\011x\\012y\\134z /r/odd\\040name\\011x\\012y\\134z none bind,ro 0 0\n",
    );
    expect(fstabText([])).toBe("");
    expect(fstabText(["/s"], [{ source: "/s/views/a b", target: "/s" }])).toBe(
      "/s /s none bind,ro 0 0\n/s/views/a\\040b /s none bind,ro 0 0\n",
    );
  });

  it("the launcher is bash, marked as Tandem's, and refuses with exit 125 when it cannot jail", () => {
    const text = launcherText("tandem doctor");
    const lines = text.split("\n");
    expect(lines[0]).toBe("#!/usr/bin/env bash");
    expect(lines[1]).toBe(LAUNCHER_MARK);
    expect(text).toContain("exit 125");
    expect(text).toContain('bash -c "$1"');
    expect(text).toContain("--follow");
    expect(launcherText("npx tandem doctor")).toContain("run `npx tandem doctor` (kernel guard)");
  });
});

describe("the client's answer", () => {
  it("Claude Code gets updatedInput without a permission decision, so its own rules still ask", () => {
    const r = claudeCode.render("pre-tool", null, {
      allow: true,
      rule: null,
      reason: null,
      updatedInput: { command: "jailed" },
    });
    expect(JSON.parse(r.stdout)).toEqual({
      hookSpecificOutput: { hookEventName: "PreToolUse", updatedInput: { command: "jailed" } },
    });
    expect(r.exitCode).toBe(0);
  });

  it("every client says whether its hook can rewrite a command; only Claude Code's is used", () => {
    const used = Object.values(CLIENTS)
      .filter((c) => c.commandRewrite.used)
      .map((c) => c.name);
    expect(used).toEqual(["claude-code"]);
    for (const c of Object.values(CLIENTS)) expect(c.commandRewrite.field).toBe("command");
  });
});

describe("what init says", () => {
  const clients = [
    { label: "Claude Code", name: "claude-code", rewrites: true },
    { label: "Codex", name: "codex", rewrites: false },
  ];
  const cases: [string, Parameters<typeof guardNote>[0], typeof clients, RegExp][] = [
    [
      "kernel, both kinds",
      "kernel",
      clients,
      /^Kernel guard on .*Claude Code through the pre-tool hook; the others when started as `tandem run codex`\.$/,
    ],
    ["reader, both kinds", "reader", clients, /^Kernel guard off .*with "guard": "kernel"/],
    ["kernel, hook only", "kernel", clients.slice(0, 1), /through the pre-tool hook\.$/],
    [
      "kernel, run only",
      "kernel",
      clients.slice(1),
      /jail: the others when started as `tandem run codex`\.$/,
    ],
  ];
  it.each(cases)("%s", (_what, guard, list, want) => {
    expect(guardNote(guard, list, PLAIN)).toMatch(want);
  });
  it("spells run for a devDependency's person", () => {
    const person: Printer = { reader: "person", launcher: "npx tandem" };
    expect(guardNote("kernel", clients, person)).toContain("started as `npx tandem run codex`.");
  });
});
