import { describe, expect, it } from "vitest";
import { type ForgeryFacts, forger } from "../../../src/core/guards/forgery.js";

const A = { id: "a", name: "agent-a", agentPid: 100 };
const B = { id: "b", name: "agent-b" };

describe("forged hook calls", () => {
  const cases: [string, ForgeryFacts, string | null][] = [
    [
      "the named session's own agent",
      { named: A, agentPid: 100, sessionsOfAgent: [{ id: "a", name: "agent-a" }] },
      null,
    ],
    ["another live session's agent", { named: A, agentPid: 200, sessionsOfAgent: [B] }, "b"],
    ["an agent process no session is recorded for", { named: A, agentPid: 300, sessionsOfAgent: [] }, null],
    [
      "one process hosting both sessions",
      { named: A, agentPid: 200, sessionsOfAgent: [B, { id: "a", name: "agent-a" }] },
      null,
    ],
    ["a session not yet recorded", { named: null, agentPid: 200, sessionsOfAgent: [B] }, null],
    [
      "a session recorded without an agent",
      { named: { ...A, agentPid: null }, agentPid: 200, sessionsOfAgent: [B] },
      null,
    ],
    ["no agent found behind the hook", { named: A, agentPid: null, sessionsOfAgent: [] }, null],
  ];
  it.each(cases)("from %s: forger is %s", (_what, facts, expected) => {
    expect(forger(facts)?.id ?? null).toBe(expected);
  });
});
