import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { CLIENT_NAMES, CLIENTS } from "../../src/clients/index.js";
import type { HookKind, Verdict } from "../../src/clients/types.js";
import { tandem } from "../helpers/cli.js";
import { claudeWrite, codexPatch, denied, fakeAgent, hook } from "../helpers/hooks.js";
import { initRepo, tempDir } from "../helpers/repo.js";

/** A refusal line as long as real ones get (a held file, its holder, task and age). */
const LONG =
  "- src/a/deeply/nested/module/file.ts: held by agent-snipe (claude-code, task: refactor the parser and its tests, last seen 1m ago)";
const REASON = `Tandem refused this edit; nothing was changed.\n${LONG}\nWhat to do: work on other files`;

/** Every string anywhere in a hook's answer (JSON fields, or the raw text), which is what a model reads. */
function texts(stdout: string, stderr: string): string[] {
  const out = [stderr];
  const walk = (v: unknown): void => {
    if (typeof v === "string") out.push(v);
    else if (v && typeof v === "object") for (const x of Object.values(v)) walk(x);
  };
  try {
    walk(JSON.parse(stdout));
  } catch {
    out.push(stdout);
  }
  return out;
}

const CASES: [string, HookKind, Verdict][] = CLIENT_NAMES.flatMap((name) => [
  [name, "pre-tool", { allow: false, rule: "claim-conflict", reason: REASON }] as [string, HookKind, Verdict],
  [name, "stop", { allow: true, rule: "status", reason: REASON, block: true }] as [string, HookKind, Verdict],
]);

describe("reasons Tandem gives a model are never broken into lines for a terminal", () => {
  it.each(CASES)("%s %s keeps a long line of the reason whole", (name, kind, verdict) => {
    const client = CLIENTS[name as keyof typeof CLIENTS];
    const event = client.events.find((e) => e.kind === kind) ?? null;
    const r = client.render(kind, event, verdict);
    // A client whose ritual is only observed (Codex, Cline) never blocks a Stop: its answer carries
    // no reason (nothing, or an empty object), so there is nothing to wrap.
    if (client.ritual.form === "observed" && kind === "stop")
      return expect(`${r.stdout}${r.stderr}`).not.toContain("Tandem refused");
    expect(r.stdout === "" && r.stderr === "").toBe(false);
    expect(texts(r.stdout, r.stderr).some((t) => t.includes(LONG))).toBe(true);
  });

  it("Codex's refusal of a held file reads `last seen … ago)` on one line, however long the line", () => {
    const repo = initRepo(join(tempDir(), "repo"), { "f.txt": "committed\n" });
    const a = fakeAgent();
    const write = claudeWrite(repo, "A", "f.txt", "A's edit\n");
    hook("claude-code", "pre-tool-use", write, { cwd: repo, env: a });
    writeFileSync(join(repo, "f.txt"), "A's edit\n");
    hook("claude-code", "post-tool-use", { ...write, hook_event_name: "PostToolUse" }, { cwd: repo, env: a });
    const task = "refactor the parser, its error messages and every test that covers them";
    expect(tandem(["task", task], { cwd: repo, env: { ...a, CLAUDE_SESSION_ID: "A" } }).code).toBe(0);

    const patch = "*** Begin Patch\n*** Update File: f.txt\n@@\n-A's edit\n+B's edit\n*** End Patch\n";
    const reason = denied(
      hook("codex", "pre-tool-use", codexPatch(repo, "B", patch), { cwd: repo, env: fakeAgent() }),
    );
    const line = reason?.split("\n").find((l) => l.includes("f.txt: held by"));
    expect(line).toMatch(/last seen \S+ ago\)/);
    expect(line).toContain(task);
    expect(reason).not.toMatch(/\n {2}\S/);
  });
});
