import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { PIN, PINNED, type RunResult } from "../helpers/cli.js";
import { claudeBash, claudeWrite, fakeAgent, ledger } from "../helpers/hooks.js";
import { hook } from "../helpers/in-process.js";
import { cli } from "../helpers/in-process-cli.js";
import { initRepo, tempDir } from "../helpers/repo.js";

/**
 * Issue 25 §6: a heal is told. Every session working here when the wiring was put back learns it
 * at its next hook that can carry text to the model — once — with what was changed back and what
 * to do instead; `tandem doctor` and `tandem watch` list it.
 */

const SETTINGS = ".claude/settings.json";
const NO_CODEX = { PATH: "/usr/bin:/bin" };

interface World {
  repo: string;
  env: Record<string, Record<string, string>>;
}

async function world(): Promise<World> {
  const repo = initRepo(join(tempDir(), "repo"));
  const init = await cli(["init", ...PIN, "--clients", "claude-code,codex"], { cwd: repo, env: NO_CODEX });
  expect(init.code, init.stderr).toBe(0);
  return { repo, env: { A: fakeAgent(), B: fakeAgent(), C: fakeAgent() } };
}

/** The text a Claude or Codex answer gives the model, or "" for none. */
function context(r: RunResult): string {
  expect(r.code, r.stderr).toBe(0);
  if (!r.stdout.trim()) return "";
  const out = JSON.parse(r.stdout) as { hookSpecificOutput?: { additionalContext?: string } };
  return out.hookSpecificOutput?.additionalContext ?? "";
}

async function prompt(w: World, who: string): Promise<string> {
  const payload = { session_id: who, cwd: w.repo, hook_event_name: "UserPromptSubmit", prompt: "go" };
  return context(await hook("claude-code", "user-prompt-submit", payload, { cwd: w.repo, env: w.env[who] }));
}

async function codexPrompt(w: World, who: string): Promise<string> {
  const payload = {
    session_id: who,
    turn_id: "turn-1",
    transcript_path: null,
    cwd: w.repo,
    hook_event_name: "UserPromptSubmit",
    model: "gpt-5.5",
    permission_mode: "bypassPermissions",
    prompt: "go",
  };
  return context(await hook("codex", "user-prompt-submit", payload, { cwd: w.repo, env: NO_CODEX }));
}

/** B's command inside B's agent process, after B's real pre-tool hook; no hook runs after it. */
async function bRuns(w: World, command: string): Promise<void> {
  await hook("claude-code", "pre-tool-use", claudeBash(w.repo, "B", command), { cwd: w.repo, env: w.env.B });
  execFileSync("bash", ["-c", command], {
    cwd: w.repo,
    env: { ...process.env, ...w.env.B },
    stdio: "ignore",
  });
}

const UNHOOK = `python3 -c "open('${SETTINGS}','w').write('{}')"`;
const TOLD = /changed Tandem's wiring, which stops its hooks from running, and Tandem changed it back/;

describe("a heal is told", () => {
  it("tells each session working here once, at its next hook, what was put back and what to do", async () => {
    const w = await world();
    await prompt(w, "A");
    await prompt(w, "B");
    await codexPrompt(w, "X");
    await bRuns(w, UNHOOK);

    // A's hook finds it, heals it, and carries the notice in the same answer.
    const a = await prompt(w, "A");
    expect(a).toMatch(TOLD);
    expect(a).toMatch(/^- \.claude\/settings\.json: SessionStart hook missing; .*PreToolUse hook missing;/m);
    expect(a).toMatch(/\(changed at \d\d:\d\d:\d\d UTC; the last tool call before it was \S+\)/);
    expect(a).toContain(
      `Don't edit Tandem's entries in \`${SETTINGS}\`, nor switch a client's hooks off there`,
    );
    expect(a).toContain(`To remove Tandem from this repository, run \`${PINNED} deinit\`.`);
    expect(await prompt(w, "A")).not.toMatch(TOLD);

    // B is told at its next tool call, which is allowed, and learns that the last call was its own.
    const write = await hook("claude-code", "pre-tool-use", claudeWrite(w.repo, "B", "b.txt"), {
      cwd: w.repo,
      env: w.env.B,
    });
    const b = context(write);
    expect(b).toMatch(TOLD);
    expect(b).toContain("the last tool call before it was yours");
    expect(await prompt(w, "B")).not.toMatch(TOLD);

    // A Codex session is told in Codex's own answer.
    expect(await codexPrompt(w, "X")).toMatch(TOLD);
    expect(await codexPrompt(w, "X")).not.toMatch(TOLD);

    // A session that started after the heal has nothing to be told.
    expect(await prompt(w, "C")).not.toMatch(TOLD);

    const noticed = ledger(w.repo).events.filter((e) => e.kind === "wiring.noticed");
    expect(noticed).toHaveLength(3);
  });

  it("tells again after a second heal, of that heal only", async () => {
    const w = await world();
    await prompt(w, "A");
    await prompt(w, "B");
    await bRuns(w, UNHOOK);
    expect(await prompt(w, "A")).toMatch(TOLD);
    await bRuns(w, "rm -f .tandem/config.jsonc");
    const second = await prompt(w, "A");
    expect(second).toMatch(TOLD);
    expect(second).toContain("- .tandem/config.jsonc: the file was removed");
    expect(second).not.toContain(SETTINGS);
  });

  it("is listed by tandem doctor and tandem watch: which file, who found it, whose call came last", async () => {
    const w = await world();
    await prompt(w, "A");
    await prompt(w, "B");
    await bRuns(w, UNHOOK);
    await prompt(w, "A");
    const started = ledger(w.repo).events.filter((e) => e.kind === "session.started");
    const nameOf = (native: string): string => {
      const data = started.map((e) => e.data as { nativeId: string; name: string });
      return data.find((d) => d.nativeId === native)!.name;
    };

    const doctor = await cli(["doctor", "--json"], { cwd: w.repo, env: NO_CODEX });
    const checks = (
      JSON.parse(doctor.stdout) as { checks: { level: string; check: string; detail: string }[] }
    ).checks;
    const heals = checks.filter((c) => c.check === "wiring heals");
    expect(heals).toEqual([expect.objectContaining({ level: "info" })]);
    expect(heals[0]!.detail).toMatch(
      new RegExp(
        `put back 1 time\\(s\\) since .*: \\S+Z ${SETTINGS.replace(".", "\\.")} \\(SessionStart hook missing; .*PreToolUse hook missing.*\\), put back by ${nameOf("A")}'s hook; last tool call before it: ${nameOf("B")}`,
      ),
    );

    const watch = await cli(["watch", "--once", "--events", "50"], { cwd: w.repo, env: { COLUMNS: "400" } });
    expect(watch.stdout).toMatch(
      new RegExp(`${SETTINGS.replace(".", "\\.")} put back \\(SessionStart hook missing`),
    );
  });
});
