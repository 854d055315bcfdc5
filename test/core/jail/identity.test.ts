import { describe, expect, it } from "vitest";
import { jailedVerdict, sessionFlags } from "../../../src/core/jail/identity.js";

const jail = { id: "sess-b", name: "B" };

describe("what a request from inside a jail may do", () => {
  const cases: [string, string[], Record<string, string>, string][] = [
    ["its own status", ["status"], {}, "run"],
    ["releasing its own claim", ["release", "f.txt"], {}, "run"],
    ["naming itself by name", ["release", "f.txt", "--session", "B"], {}, "run"],
    ["naming itself by id", ["release", "--session=sess-b", "f.txt"], {}, "run"],
    [
      "naming a peer to release its claim",
      ["release", "f.txt", "--session", "A", "--force"],
      {},
      "session A",
    ],
    ["naming a peer with =", ["release", "--session=A", "f.txt"], {}, "session A"],
    ["naming a peer in TANDEM_SESSION", ["task", "x"], { TANDEM_SESSION: "A" }, "session A"],
    ["itself in TANDEM_SESSION", ["task", "x"], { TANDEM_SESSION: "B" }, "run"],
    ["a forged session-end", ["hook", "claude-code", "session-end"], {}, "hook"],
    ["a forged prompt", ["hook", "claude-code", "user-prompt-submit"], { CLAUDE_PID: "1" }, "hook"],
    ["a peer's pid in the environment only", ["release", "f.txt"], { CLAUDE_PID: "4242" }, "run"],
    ["--session after -- is a path", ["release", "--", "--session", "A"], {}, "run"],
  ];
  it.each(cases)("%s", (_what, args, env, want) => {
    const v = jailedVerdict({ args, env, jail });
    const got = v.kind === "run" ? "run" : v.claimed ? `${v.attempt} ${v.claimed}` : v.attempt;
    expect(got).toBe(want);
  });

  it("says what was refused, why, and what to do", () => {
    const v = jailedVerdict({ args: ["release", "f.txt", "--session", "A", "--force"], env: {}, jail });
    expect(v.kind === "refuse" && v.reason).toMatch(
      /names session A, but it runs inside B's jail.*recorded; ask A's agent/,
    );
    const h = jailedVerdict({ args: ["hook", "claude-code", "session-end"], env: {}, jail });
    expect(h.kind === "refuse" && h.reason).toMatch(
      /inside B's jailed command.*only from the client itself.*recorded/,
    );
  });
});

describe("--session values", () => {
  it.each([
    [["release", "--session", "A"], ["A"]],
    [
      ["--session=A", "--session", "B"],
      ["A", "B"],
    ],
    [["release", "--session"], []],
    [["x", "--", "--session", "A"], []],
  ])("%j", (args, want) => expect(sessionFlags(args)).toEqual(want));
});
