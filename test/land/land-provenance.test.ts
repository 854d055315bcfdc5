import { describe, expect, it } from "vitest";
import type { LandResult } from "../../src/core/land/result.js";
import { agentShell } from "../helpers/agent-shell.js";
import { tandem } from "../helpers/cli.js";
import { hook } from "../helpers/hooks.js";
import { g } from "../helpers/repo.js";
import { commit, head, landWorld, remoteHead, sessionName } from "./land-world.js";

/** Issue 40 item 5: what an agent lands names it in a trailer; the trees and authors stay. */
describe("tandem land's provenance", () => {
  it("an agent's landing adds Tandem-Landed-By to each commit, keeping trees, authors and a clean checkout", () => {
    const w = landWorld();
    const a = w.checkout("a");
    const agent = agentShell();
    const prompt = { session_id: "L", cwd: a, hook_event_name: "UserPromptSubmit", prompt: "land it" };
    hook("claude-code", "user-prompt-submit", prompt, { cwd: a, env: { ...agent } });
    const first = commit(a, { "a.txt": "a\n" }, "a: first");
    const second = commit(a, { "b.txt": "b\n" }, "b: second\n\nWhy it matters.");

    const r = tandem(["land", "--json"], { cwd: a, inside: agent });
    expect(r.stderr).toBe("");
    const result = JSON.parse(r.stdout) as LandResult;
    expect(result).toMatchObject({ outcome: "pushed", commits: 2, rebased: false });

    const name = sessionName(a, "L");
    const landedBy = (sha: string) =>
      g(a, "log", "-1", "--format=%(trailers:key=Tandem-Landed-By,valueonly)", sha).trim();
    const pushed = remoteHead(w);
    expect(pushed).not.toBe(second);
    expect(head(a)).toBe(pushed);
    expect(g(a, "status", "--porcelain")).toBe("");
    for (const [now, was] of [
      [pushed, second],
      [`${pushed}^`, first],
    ] as const) {
      expect(landedBy(now)).toMatch(new RegExp(`^${name} \\(\\S+\\) via claude-code$`));
      expect(g(a, "rev-parse", `${now}^{tree}`)).toBe(g(a, "rev-parse", `${was}^{tree}`));
      expect(g(a, "log", "-1", "--format=%an %ae %ad%n%B", now)).toContain(
        g(a, "log", "-1", "--format=%an %ae %ad%n%B", was).trim(),
      );
    }
    expect(g(a, "log", "-1", "--format=%B", pushed)).toMatch(
      /^b: second\n\nWhy it matters\.\n\nTandem-Landed-By: /,
    );
  });
});
