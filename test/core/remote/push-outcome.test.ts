import { describe, expect, it } from "vitest";
import { parseDuration } from "../../../src/core/duration.js";
import { atomicOutcome, pushOutcome } from "../../../src/core/remote/push-outcome.js";

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

describe("reading an atomic push of several lease refs", () => {
  const A = "refs/tandem/lease/a";
  const B = "refs/tandem/lease/b";
  const lines = (...l: [string, string, string][]) =>
    `To file:///r.git\n${l.map(([f, ref, s]) => `${f}\tabc:${ref}\t${s}`).join("\n")}\nDone\n`;
  it.each([
    ["both created", 0, lines(["*", A, "[new reference]"], ["*", B, "[new reference]"]), "", { kind: "ok" }],
    [
      "one stale by the client's look: the race is lost",
      1,
      lines(["!", A, "[rejected] (stale info)"], ["!", B, "[rejected] (atomic push failed)"]),
      "",
      { kind: "stale" },
    ],
    [
      "a racer's ref stands where ours would go",
      1,
      lines(
        ["!", A, "[remote rejected] (atomic transaction failed)"],
        ["!", B, "[remote rejected] (atomic transaction failed)"],
      ),
      "remote: error: cannot lock ref 'refs/tandem/lease/a': 'refs/tandem/lease/a/x' exists; cannot create 'refs/tandem/lease/a'\n",
      { kind: "stale" },
    ],
    [
      "a hook refusing custom refs",
      1,
      lines(
        ["!", A, "[remote rejected] (pre-receive hook declined)"],
        ["!", B, "[remote rejected] (pre-receive hook declined)"],
      ),
      "",
      { kind: "refused", reason: "pre-receive hook declined" },
    ],
    [
      "no answer",
      128,
      "",
      "fatal: Could not read from remote repository.\n",
      { kind: "unreachable", reason: "fatal: Could not read from remote repository." },
    ],
  ] as const)("%s", (_why, status, stdout, stderr, expected) => {
    expect(atomicOutcome(status, stdout, stderr, [A, B])).toEqual(expected);
  });
});
