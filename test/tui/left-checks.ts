import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { expect } from "vitest";
import type { Project } from "../e2e/support.js";
import { tandem } from "../helpers/cli.js";
import { claudeWrite, denied, fakeAgent, hook } from "../helpers/hooks.js";

/** A person's shell: no agent session above it. */
const PERSON = { TANDEM_SESSION: undefined, CLAUDE_CODE_SESSION_ID: undefined, CODEX_THREAD_ID: undefined };
const person = (p: Project, args: string[], env: Record<string, string> = {}) =>
  tandem(args, { cwd: p.repo, env: { ...PERSON, ...env } });

const esc = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** The task a person names for a session that will leave its file behind. */
export const LEFT_TASK = "leave a file behind";

/** The person names the session's task from their shell: these scenes' fake models run no ritual. */
export function declareTask(p: Project, session: string): void {
  const r = tandem(["task", LEFT_TASK, "--session", session], { cwd: p.repo, terminal: true });
  expect(r.code, r.stderr).toBe(0);
}

export interface GoneOwner {
  name: string;
  client: string;
  task: string;
}

/**
 * Everything issue 26 asks of a file a real client's session left uncommitted when it ended, the
 * person having quit the client its own way (Claude Code `/exit`, Codex `/quit` under its daemon,
 * Gemini CLI `/quit`, opencode `/exit`, Qwen Code `/quit`, Cline Ctrl-C: each client's TUI scene):
 * listed with its former owner, task and end by a person's status, doctor and watch; its bytes
 * saved; a second agent's write over it refused once naming the owner; and a person's plain
 * `tandem recover f.txt` returning the first agent's bytes.
 */
export function expectLeftWork(p: Project, file: string, bytes: string, o: GoneOwner): void {
  const who = `${esc(o.name)} \\(${esc(o.client)}, task "${esc(o.task)}"\\), (?:ended|last seen) \\d+[sm] ago`;
  const line = new RegExp(`${esc(file)}: left by ${who}`);

  const status = person(p, ["status"]);
  expect(status.stdout).toContain("Left work of ended sessions (1):");
  expect(status.stdout).toMatch(line);
  expect(status.stdout).not.toContain("No problems.");

  const doctor = person(p, ["doctor"]);
  expect(doctor.code, doctor.stdout).toBe(1);
  expect(doctor.stdout).toMatch(new RegExp(`left work.*${line.source}`));
  // A person reads doctor: recover or discard, never adopt, which only an agent runs.
  expect(doctor.stdout).toContain(`discard ${file} --yes`);
  expect(doctor.stdout).not.toContain(`adopt ${file}`);

  const watch = person(p, ["watch", "--once"], { COLUMNS: "160" });
  expect(watch.stdout).toMatch(/LEFT WORK/);
  expect(watch.stdout).toMatch(
    // Its ENDED column says "seen … ago" for a session that went quiet without its client's end.
    new RegExp(
      `${esc(file)}\\s+${esc(o.name)}\\s+${esc(o.client)}\\s+(?:seen )?\\d+[sm] ago\\s+${esc(o.task)}`,
    ),
  );

  // Saved in the blob store as a version of the gone owner's, its copy present.
  const list = person(p, ["recover", file, "--list"]);
  expect(list.stdout).toMatch(
    new RegExp(`^${esc(o.name)} \\(${esc(o.client)}[^\\n]*\\n {2}version \\d+ .* ${bytes.length} bytes`, "m"),
  );
  expect(list.stdout).not.toContain("missing");

  const second = { ...fakeAgent(), ...PERSON };
  const as = { cwd: p.repo, env: second };
  const prompt = {
    session_id: "SECOND",
    cwd: p.repo,
    hook_event_name: "UserPromptSubmit",
    prompt: "write it",
  };
  hook("claude-code", "user-prompt-submit", prompt, as);
  const payload = claudeWrite(p.repo, "SECOND", file, "second agent\n");
  const refusal = denied(hook("claude-code", "pre-tool-use", payload, as));
  expect(refusal).toMatch(line);
  // The stand-in's own launcher spells the command; the line is what matters.
  expect(refusal).toContain(`recover ${file} --session ${o.name}`);
  expect(p.read(file)).toBe(bytes);
  expect(denied(hook("claude-code", "pre-tool-use", payload, as))).toBeNull();
  writeFileSync(join(p.repo, file), "second agent\n");
  hook("claude-code", "post-tool-use", { ...payload, hook_event_name: "PostToolUse", tool_response: {} }, as);

  const back = person(p, ["recover", file]);
  expect(back.stderr).toBe("");
  expect(back.stdout).toContain(`one session that is gone, ${o.name}`);
  expect(p.read(file)).toBe(bytes);
}
