import { describe, expect, it } from "vitest";
import {
  OpencodeFroze,
  type StartAttempt,
  type StartState,
  startOpencode,
  startState,
} from "./harness/opencode-start.js";

/** opencode's start-up freeze detector, without opencode: the decision and the retry loop. */
describe("startState", () => {
  const cases: [string, Parameters<typeof startState>[0], StartState][] = [
    ["an agent request arrived", { agentRequests: 1, elapsedMs: 10, boundMs: 100, exited: false }, "started"],
    [
      "one arrived even after the bound",
      { agentRequests: 2, elapsedMs: 500, boundMs: 100, exited: true },
      "started",
    ],
    [
      "nothing yet, within the bound",
      { agentRequests: 0, elapsedMs: 99, boundMs: 100, exited: false },
      "waiting",
    ],
    ["nothing by the bound", { agentRequests: 0, elapsedMs: 100, boundMs: 100, exited: false }, "frozen"],
    ["exited before asking", { agentRequests: 0, elapsedMs: 5, boundMs: 100, exited: true }, "exited"],
  ];
  it.each(cases)("%s", (_name, input, want) => {
    expect(startState(input)).toBe(want);
  });
});

/** An attempt whose client makes its first agent request only if `starts`. */
function attempt(starts: boolean, log: string[], n: number): StartAttempt<number> {
  log.push(`start ${n}`);
  return {
    value: n,
    agentRequests: () => (starts ? 1 : 0),
    exited: () => false,
    evidence: () => `screen ${n}`,
    stop: async () => {
      log.push(`stop ${n}`);
    },
  };
}

describe("startOpencode", () => {
  it("stops a frozen start and returns the next one that asks the model", async () => {
    const log: string[] = [];
    const frozen: number[] = [];
    const got = await startOpencode("the TUI", (n) => attempt(n === 2, log, n), {
      boundMs: 50,
      onFrozen: (n) => frozen.push(n),
    });
    expect(got).toBe(2);
    expect(log).toEqual(["start 1", "stop 1", "start 2"]);
    expect(frozen).toEqual([1]);
  });

  it("fails as opencode's freeze, never a pass, when every start froze", async () => {
    const log: string[] = [];
    const run = startOpencode("`opencode run`", (n) => attempt(false, log, n), { boundMs: 50, attempts: 2 });
    await expect(run).rejects.toBeInstanceOf(OpencodeFroze);
    await expect(run).rejects.toThrow(
      /opencode 1\.18\.33 froze at start-up in `opencode run` 2 times in a row.*screen 1.*screen 2.*#40439/,
    );
    expect(log).toEqual(["start 1", "stop 1", "start 2", "stop 2"]);
  });
});
