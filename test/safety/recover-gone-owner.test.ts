/**
 * Issue 26: a person's `tandem recover PATH` without `--session` finds the bytes a gone session
 * left: the file's left-work owner, or the one gone session with saved versions of it; when
 * several could be meant it names each with the `--session` line to run.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { agentShell } from "../helpers/agent-shell.js";
import { tandem } from "../helpers/cli.js";
import { claudeWrite, denied, ledger } from "../helpers/hooks.js";
import { hook } from "../helpers/in-process.js";
import { cli } from "../helpers/in-process-cli.js";
import { g, initRepo, tempDir } from "../helpers/repo.js";

const PERSON = { TANDEM_SESSION: undefined, CLAUDE_CODE_SESSION_ID: undefined, CODEX_THREAD_ID: undefined };

interface World {
  repo: string;
  agents: Record<string, { CLAUDE_PID: string }>;
}

function world(): World {
  const repo = initRepo(join(tempDir(), "repo"), { "f.txt": "committed\n" });
  return { repo, agents: { A: agentShell(), B: agentShell(), C: agentShell() } };
}

const as = (w: World, who: string) => ({ cwd: w.repo, env: { ...w.agents[who] } });
const read = (w: World) => readFileSync(join(w.repo, "f.txt"), "utf8");
const person = (w: World, args: string[]) => cli(args, { cwd: w.repo, env: PERSON });

function hookAs(w: World, who: string, event: string, extra: Record<string, unknown>) {
  return hook("claude-code", event, { session_id: who, cwd: w.repo, ...extra }, as(w, who));
}

/** A Write through the real pre- and post-tool hooks; the refusal text if it was refused. */
async function write(w: World, who: string, text: string): Promise<string | null> {
  const payload = claudeWrite(w.repo, who, "f.txt", text);
  const refused = denied(await hook("claude-code", "pre-tool-use", payload, as(w, who)));
  if (refused) return refused;
  writeFileSync(join(w.repo, "f.txt"), text);
  await hook("claude-code", "post-tool-use", { ...payload, hook_event_name: "PostToolUse" }, as(w, who));
  return null;
}

/** A session starts, declares `task`, writes f.txt (a second try if told it is left work), and ends (/exit). */
async function writesAndEnds(w: World, who: string, task: string, text: string): Promise<string> {
  await hookAs(w, who, "session-start", { hook_event_name: "SessionStart", source: "startup" });
  await hookAs(w, who, "user-prompt-submit", { hook_event_name: "UserPromptSubmit", prompt: "go" });
  expect(tandem(["task", task, "--session", who], { cwd: w.repo, inside: w.agents[who]! }).code).toBe(0);
  if ((await write(w, who, text)) !== null) expect(await write(w, who, text)).toBeNull();
  const end = await hookAs(w, who, "session-end", {
    hook_event_name: "SessionEnd",
    reason: "prompt_input_exit",
  });
  expect(end.code).toBe(0);
  const started = ledger(w.repo).events.find(
    (e) => e.kind === "session.started" && (e.data as { nativeId: string }).nativeId === who,
  );
  return (started!.data as { name: string }).name;
}

/** B, live, is told f.txt is left work, then writes it anyway on its second try. */
async function liveOverwrites(w: World, who: string, text: string): Promise<void> {
  await hookAs(w, who, "user-prompt-submit", {
    hook_event_name: "UserPromptSubmit",
    prompt: "replace f.txt",
  });
  expect(await write(w, who, text)).toMatch(/left work/);
  expect(await write(w, who, text)).toBeNull();
  expect(read(w)).toBe(text);
}

describe("a person's recover of a gone session's bytes, without --session", () => {
  it("restores the bytes an ended session left after a live agent wrote over them, and says whose", async () => {
    const w = world();
    const a = await writesAndEnds(w, "A", "fix the parser", "A's unfinished parser\n");
    await liveOverwrites(w, "B", "B's rewrite\n");

    const r = await person(w, ["recover", "f.txt"]);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(
      new RegExp(
        `^f\\.txt has saved versions of one session that is gone, ${a} \\(claude-code, task "fix the parser"\\), ended \\d+s ago: restoring its newest\\.\\nrecovered f\\.txt: version \\d+`,
      ),
    );
    expect(read(w)).toBe("A's unfinished parser\n");
    // B's bytes are kept, never lost to the recovery.
    expect(r.stdout).toMatch(/the bytes it held are kept as version (\d+)/);
  });

  it("names the left-work owner of a file that is still left work, and saves bytes it left outside its hooks", async () => {
    const w = world();
    const a = await writesAndEnds(w, "A", "fix the parser", "A's parser\n");
    // The ended session's last bytes, written by something that ran no hook (its own shell, a build).
    writeFileSync(join(w.repo, "f.txt"), "A's parser, last edit\n");
    const r = await person(w, ["recover", "f.txt"]);
    expect(r.stderr).toBe("");
    expect(r.stdout).toMatch(
      new RegExp(`^f\\.txt is left work of ${a} \\(claude-code, task "fix the parser"\\), ended \\d+s ago`),
    );
    expect(r.stdout).toMatch(/already holds version \d+; nothing to do/);
    // Those bytes are now a saved version of A's: thrown away by a person's slip, they come back.
    g(w.repo, "checkout", "--", "f.txt");
    const back = await person(w, ["recover", "f.txt"]);
    expect(back.stdout).toContain(`one session that is gone, ${a}`);
    expect(read(w)).toBe("A's parser, last edit\n");
  });

  it("lists each gone session with the --session line to use when several left bytes of the file, and changes nothing", async () => {
    const w = world();
    const a = await writesAndEnds(w, "A", "fix the parser", "A's parser\n");
    const b = await writesAndEnds(w, "B", "rewrite the parser", "B's parser\n");
    await liveOverwrites(w, "C", "C's parser\n");

    const r = await person(w, ["recover", "f.txt"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("f.txt has saved versions of 2 sessions that are gone");
    expect(r.stderr).toMatch(
      new RegExp(
        `tandem recover f\\.txt --session ${b} +# ${b} \\(claude-code, task "rewrite the parser"\\)`,
      ),
    );
    expect(r.stderr).toMatch(
      new RegExp(`tandem recover f\\.txt --session ${a} +# ${a} \\(claude-code, task "fix the parser"\\)`),
    );
    expect(read(w)).toBe("C's parser\n");

    expect((await person(w, ["recover", "f.txt", "--session", a])).code).toBe(0);
    expect(read(w)).toBe("A's parser\n");
  });

  it("leaves an agent's own recovery alone: without --session it restores its own bytes", async () => {
    const w = world();
    await writesAndEnds(w, "A", "fix the parser", "A's parser\n");
    await liveOverwrites(w, "B", "B's parser\n");
    writeFileSync(join(w.repo, "f.txt"), "B's parser\nbroken by hand\n");
    const r = await cli(["recover", "f.txt"], {
      cwd: w.repo,
      env: { ...PERSON, ...w.agents.B, CLAUDE_CODE_SESSION_ID: "B" },
    });
    expect(r.stderr).toBe("");
    expect(r.stdout).not.toContain("gone");
    expect(read(w)).toBe("B's parser\n");
  });
});
