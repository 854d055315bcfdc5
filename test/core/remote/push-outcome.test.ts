import { describe, expect, it } from "vitest";
import { parseDuration } from "../../../src/core/duration.js";
import { pushOutcome } from "../../../src/core/remote/push-outcome.js";

const REF = "refs/tandem/leases";
const line = (flag: string, summary: string) => `To file:///r.git\n${flag}\tabc:${REF}\t${summary}\nDone\n`;

describe("reading a compare-and-swap push", () => {
  it.each([
    ["a new ref", 0, line("*", "[new reference]"), "", { kind: "ok" }],
    ["a forced update", 0, line("+", "1111111...2222222 (forced update)"), "", { kind: "ok" }],
    ["a lost race seen by the client", 1, line("!", "[rejected] (stale info)"), "", { kind: "stale" }],
    [
      "a lost race seen by the server",
      1,
      line("!", "[remote rejected] (failed to update ref)"),
      "",
      { kind: "stale" },
    ],
    [
      "a lock held by a racing push",
      1,
      line("!", "[remote rejected] (cannot lock ref 'refs/tandem/leases')"),
      "",
      { kind: "stale" },
    ],
    [
      "a hook refusing custom refs",
      1,
      line("!", "[remote rejected] (pre-receive hook declined)"),
      "",
      { kind: "refused", reason: "pre-receive hook declined" },
    ],
    [
      "no answer",
      128,
      "",
      "fatal: '/x.git' does not appear to be a git repository\nfatal: Could not read from remote repository.\n",
      { kind: "unreachable", reason: "fatal: '/x.git' does not appear to be a git repository" },
    ],
  ])("%s", (_name, status, stdout, stderr, expected) => {
    expect(pushOutcome(status, stdout, stderr, REF)).toEqual(expected);
  });
});

describe("durations", () => {
  it.each([
    ["90s", 90_000],
    ["45m", 2_700_000],
    ["2h", 7_200_000],
    ["1.5d", 129_600_000],
    ["0h", null],
    ["2 hours", null],
    ["", null],
  ])("%s", (text, ms) => expect(parseDuration(text)).toBe(ms));
});
