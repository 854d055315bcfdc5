import { describe, expect, it } from "vitest";
import { endsSession } from "../../../src/core/sessions/end.js";

const copilot = ["complete", "error"];

describe("whether a session-end hook ends the session", () => {
  it.each([
    ["an interactive exit", "user_exit", true, false, true],
    ["a prompt-mode run ending its own session", "complete", true, true, true],
    ["a prompt-mode run whose session's process is gone", "complete", false, false, true],
    ["a prompt-mode run resuming a session whose interactive process lives", "complete", true, false, false],
    ["a failed resumed run, the same", "error", true, false, false],
    ["no reason given", null, true, false, true],
  ] as const)("%s", (_what, reason, uiAlive, fromUi, want) => {
    expect(endsSession({ reason, runEndReasons: copilot, uiAlive, fromUi })).toBe(want);
  });

  it("ends every session of a client without run-end reasons", () => {
    expect(endsSession({ reason: "complete", runEndReasons: [], uiAlive: true, fromUi: false })).toBe(true);
  });
});
