import { describe, expect, it } from "vitest";
import { agentEnvironment, type Committer, judgeCommit } from "../../../src/core/guards/commit-guard.js";

const held = [{ path: "a.txt", holder: "agent-wren" }];
const agent: Committer = { via: "process" };
const named: Committer = { via: "named", atPersonsTerminal: false };
const person: Committer = { via: "named", atPersonsTerminal: true };

describe("the pre-commit verdict: TANDEM_BYPASS is a person's switch (decision 0050)", () => {
  it.each([
    { who: "an agent", committer: agent, bypass: false, outcome: "refused", attempt: false },
    {
      who: "an agent that sets TANDEM_BYPASS",
      committer: agent,
      bypass: true,
      outcome: "refused",
      attempt: true,
    },
    {
      who: "a named session off any terminal",
      committer: named,
      bypass: true,
      outcome: "refused",
      attempt: true,
    },
    {
      who: "a named session at a person's terminal",
      committer: person,
      bypass: false,
      outcome: "refused",
      attempt: false,
    },
    {
      who: "a person at a terminal with TANDEM_BYPASS",
      committer: person,
      bypass: true,
      outcome: "bypassed",
      attempt: false,
    },
    { who: "no session at all", committer: null, bypass: false, outcome: "warned", attempt: false },
    {
      who: "no session, TANDEM_BYPASS set",
      committer: null,
      bypass: true,
      outcome: "warned",
      attempt: false,
    },
  ] as const)("$who: $outcome", ({ committer, bypass, outcome, attempt }) => {
    const v = judgeCommit(held, committer, bypass)!;
    expect(v.outcome).toBe(outcome);
    expect(v.bypassRefused).toBe(attempt);
    expect(v.message).toContain("a.txt (held by agent-wren)");
  });

  it("tells only a person how to bypass; an agent's refusal never names the switch as a way out", () => {
    for (const c of [agent, named]) {
      const plain = judgeCommit(held, c, false)!.message;
      expect(plain).not.toContain("TANDEM_BYPASS");
      expect(plain).toContain("git restore --staged <path>");
      expect(plain).toContain("wait until agent-wren commits them");
      expect(judgeCommit(held, c, true)!.message).toContain(
        "TANDEM_BYPASS=1 is not honoured inside an agent session",
      );
    }
    expect(judgeCommit(held, person, false)!.message).toContain(
      "you may set TANDEM_BYPASS=1 to commit anyway",
    );
  });

  it("says nothing when no peer's file is staged", () => {
    expect(judgeCommit([], agent, true)).toBeNull();
  });

  it.each([
    [{ CLAUDE_PID: "4242" }, true],
    [{ CODEX_THREAD_ID: "t" }, true],
    [{ TANDEM_SESSION: "agent-wren" }, true],
    [{ CODEX_THREAD_ID: "" }, false],
    [{ HOME: "/home/me", TANDEM_BYPASS: "1" }, false],
  ])("an agent's shell is known by its variables when the store is unreadable: %o → %s", (env, is) => {
    expect(agentEnvironment(env, ["CODEX_THREAD_ID"])).toBe(is);
  });
});
