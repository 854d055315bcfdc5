import { describe, expect, it } from "vitest";
import { sortSessions, turnState, turnText } from "../../src/core/ui/session-rows.js";

let seq = 0;
const ev = (kind: string, data: Record<string, unknown> = {}) => ({ seq: ++seq, kind, data });
const prompt = (remediation = false) => ev("prompt.submitted", { text: "go", remediation });

describe("turnState", () => {
  it("counts the ritual only since the latest human prompt", () => {
    const events = [
      prompt(),
      ev("status.checked", { end_turn: true }),
      ev("task.set"),
      prompt(),
      ev("tool.requested"),
    ];
    expect(turnState(events, false)).toEqual({ status: false, task: false, stop: null });
  });

  it("sees status and task done in the turn, and the last Stop's verdict", () => {
    const events = [
      prompt(),
      ev("tool.requested"),
      ev("turn.stopped", { verdict: "block", rule: "task", enforcement: "enforced" }),
      prompt(true),
      ev("task.set"),
      ev("status.checked", { end_turn: false }),
      ev("turn.stopped", { verdict: "pass", rule: null, enforcement: "enforced" }),
    ];
    expect(turnState(events, false)).toEqual({
      status: true,
      task: true,
      stop: { verdict: "pass", rule: null, enforcement: "enforced" },
    });
  });

  it("wants the end-turn check when git finalization is required", () => {
    const events = [prompt(), ev("status.checked", { end_turn: false }), ev("task.set")];
    expect(turnState(events, true).status).toBe(false);
    expect(turnState([...events, ev("status.checked", { end_turn: true })], true).status).toBe(true);
  });

  it("reads nothing into a session with no events", () => {
    expect(turnState([], false)).toEqual({ status: false, task: false, stop: null });
  });
});

describe("turnText and sortSessions", () => {
  const cases: [Parameters<typeof turnText>[0], string][] = [
    [{ status: true, task: true, stop: null }, "status ✓ task ✓ · no stop yet"],
    [
      { status: false, task: true, stop: { verdict: "block", rule: "status", enforcement: "enforced" } },
      "status ✗ task ✓ · stop: blocked (status)",
    ],
    [
      { status: true, task: false, stop: { verdict: "pass", rule: null, enforcement: "observe_only" } },
      "status ✓ task ✗ · stop: passed",
    ],
  ];
  it.each(cases)("%j reads %s", (t, want) => expect(turnText(t)).toBe(want));

  it("puts live sessions first, then stale, then ended, newest first within each", () => {
    const rows = [
      { n: "e", state: "ended" as const, lastSeen: 9 },
      { n: "s", state: "stale" as const, lastSeen: 5 },
      { n: "l1", state: "live" as const, lastSeen: 1 },
      { n: "l2", state: "live" as const, lastSeen: 2 },
    ];
    expect(sortSessions(rows).map((r) => r.n)).toEqual(["l2", "l1", "s", "e"]);
  });
});
