import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { openDb } from "../../src/store/db.js";
import { listEvents } from "../../src/store/events/list.js";
import { dropWiringFile, putWiringFile, wiringFiles } from "../../src/store/wiring/rows.js";
import { geminiPolicyFile, geminiPolicyText, legacyPolicyFile } from "../../src/wiring/gemini-policy.js";
import { FIGHT_LIMIT } from "../../src/wiring/heal-plan.js";
import { PIN, tandem } from "../helpers/cli.js";
import { fakeAgent, hook } from "../helpers/hooks.js";
import { initRepo, tempDir } from "../helpers/repo.js";

/**
 * Issue 42: another Tandem kept rewriting the repository's Gemini rule and the healer put it back
 * hundreds of times a minute, each time telling the agent its own tool call did it. Now the healer
 * stops after a few restorations that found the same bytes, blames no tool call for a Tandem's
 * write, and a session is told of the file once.
 */

const NO_CODEX = { PATH: "/usr/bin:/bin" };

describe("a healer that meets another writer", () => {
  it("puts the rule back a few times, then leaves it, and tells the session once without blaming it", () => {
    const base = tempDir();
    const repo = initRepo(join(base, "repo"));
    const env = { ...NO_CODEX, GEMINI_CLI_HOME: join(base, "home"), ...fakeAgent() };
    const init = tandem(["init", ...PIN, "--clients", "claude-code,gemini-cli"], { cwd: repo, env });
    expect(init.code, init.stderr).toBe(0);
    const policy = geminiPolicyFile(env, repo);
    const prompt = () => {
      const payload = { session_id: "A", cwd: repo, hook_event_name: "UserPromptSubmit", prompt: "go" };
      const r = hook("claude-code", "user-prompt-submit", payload, { cwd: repo, env });
      expect(r.code, r.stderr).toBe(0);
      return r.stdout ? ((JSON.parse(r.stdout).hookSpecificOutput?.additionalContext as string) ?? "") : "";
    };
    prompt();
    // Another Tandem's idea of the file, written again after every heal.
    const theirs = geminiPolicyText("/opt/other/bin/tandem", repo);
    for (let i = 0; i < FIGHT_LIMIT + 3; i++) {
      writeFileSync(policy, theirs);
      const start = { session_id: "g", cwd: repo, hook_event_name: "SessionStart", source: "startup" };
      expect(hook("gemini-cli", "session-start", start, { cwd: repo, env }).code).toBe(0);
    }
    const db = openDb(join(repo, ".git", "tandem"), { readonly: true });
    const heals = listEvents(db, { kind: "wiring.restored" }).map((e) => e.data as Record<string, unknown>);
    db.close();
    expect(heals).toHaveLength(FIGHT_LIMIT);
    for (const h of heals) expect(h).toMatchObject({ file: policy, byTandem: true, lastCommandBy: null });

    const told = prompt();
    expect(told.split("\n").filter((l) => l.startsWith("- ") && l.includes(".gemini/policies"))).toEqual([
      expect.stringMatching(
        new RegExp(
          `^- ${policy.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}: .* by another Tandem .*put back ${FIGHT_LIMIT} times\\)$`,
        ),
      ),
    ]);
    expect(told).not.toContain("yours");
    expect(prompt()).not.toMatch(/changed it back/);
  });
});

describe("a record of an older Tandem, which shared one Gemini rule file", () => {
  it("forgets the shared file, writes the repository's own without announcing it, and leaves the shared one", () => {
    const base = tempDir();
    const repo = initRepo(join(base, "repo"));
    const env = { ...NO_CODEX, GEMINI_CLI_HOME: join(base, "home"), ...fakeAgent() };
    const init = tandem(["init", ...PIN, "--clients", "claude-code,gemini-cli"], { cwd: repo, env });
    expect(init.code, init.stderr).toBe(0);
    const own = geminiPolicyFile(env, repo);
    const text = readFileSync(own, "utf8");
    const shared = legacyPolicyFile(env);
    // What the older version recorded: the shared file, not the repository's own.
    const stateDir = join(repo, ".git", "tandem");
    const db = openDb(stateDir);
    dropWiringFile(db, own);
    putWiringFile(db, { path: shared, root: repo, stamp: "-", blob: null });
    db.close();
    rmSync(own);
    // Another repository's older Tandem writes the shared file: this repository's record sees it change.
    const theirs = "# Written by `tandem init`; `tandem deinit` deletes it.\n[[rule]]\n";
    writeFileSync(shared, theirs);
    const start = { session_id: "g", cwd: repo, hook_event_name: "SessionStart", source: "startup" };
    expect(hook("gemini-cli", "session-start", start, { cwd: repo, env }).code).toBe(0);

    expect(readFileSync(own, "utf8")).toBe(text);
    expect(readFileSync(shared, "utf8")).toBe(theirs);
    const after = openDb(stateDir, { readonly: true });
    const rows = wiringFiles(after).map((r) => r.path);
    const heals = listEvents(after, { kind: "wiring.restored" });
    after.close();
    expect(rows).toContain(own);
    expect(rows).not.toContain(shared);
    expect(heals).toEqual([]);
  });
});
