import { describe, expect, it } from "vitest";
import { stopEventText, stopShown } from "../../../src/core/ritual/stop-shown.js";
import { turnText } from "../../../src/core/ui/session-rows.js";
import { eventDetail, eventTone } from "../../../src/watch/events.js";

const stop = (verdict: string, rule: string | null, enforcement: string) => ({ verdict, rule, enforcement });

describe("how a Stop reads to a person", () => {
  it.each([
    [
      "an enforced block",
      stop("block", "status", "enforced"),
      "blocked",
      "block status",
      "stop: blocked (status)",
    ],
    [
      "Codex's unmet ritual (never blocked)",
      stop("block", "status", "observe_only"),
      "observed",
      "observe status",
      "stop: observed (status)",
    ],
    [
      "a block under stopRitual off",
      stop("block", "task", "disabled"),
      "observed",
      "observe task",
      "stop: observed (task)",
    ],
    ["a pass", stop("pass", null, "enforced"), "passed", "pass", "stop: passed"],
    [
      "a hook that failed open",
      stop("pass", null, "fail_open"),
      "passed",
      "pass (the hook failed open)",
      "stop: passed",
    ],
  ])("%s", (_name, s, shown, event, board) => {
    expect(stopShown(s)).toBe(shown);
    expect(stopEventText(s)).toBe(event);
    expect(turnText({ status: false, task: false, stop: s as never })).toBe(`status ✗ task ✗ · ${board}`);
  });

  it("never shows Codex's Stop as blocked, nor tints it as a warning, in the event list", () => {
    const ev = {
      seq: 1,
      ts: 0,
      kind: "turn.stopped",
      sessionId: "s",
      data: stop("block", "status", "observe_only"),
    };
    const detail = eventDetail(ev as never, new Map(), "/r");
    expect(detail).toBe("observe status");
    expect(detail).not.toMatch(/block|observe_only/);
    expect(eventTone(ev)).toBe("plain");
    expect(eventTone({ ...ev, data: stop("block", "status", "enforced") })).toBe("warn");
  });
});
