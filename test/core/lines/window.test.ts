import { describe, expect, it } from "vitest";
import { parseDuration } from "../../../src/core/duration.js";
import { fitOf, placeOf, sinceWindow, turnWindow, type UndoWindow } from "../../../src/core/lines/window.js";
import type { Stamp } from "../../../src/core/lines/written.js";

/** Turn 2 of a session: its prompt is event 20 at t=200, the next prompt at t=300. */
const TURN2: UndoWindow = { kind: "turn", number: 2, turn: 20, from: 200, to: 300 };
const LATEST: UndoWindow = { kind: "turn", number: 3, turn: 30, from: 300, to: null };
const SINCE: UndoWindow = { kind: "since", from: 250 };
const s = (at: number, turn: number | null = null): Stamp => ({ at, turn });

describe("where a write falls against an undo's window", () => {
  it.each<[string, Stamp, UndoWindow, string]>([
    ["the whole session holds every write", s(0), { kind: "all" }, "inside"],
    ["a recorded turn decides, whatever the clock says", s(999, 20), TURN2, "inside"],
    ["an earlier turn is before", s(250, 10), TURN2, "before"],
    ["a later turn is after", s(250, 30), TURN2, "after"],
    ["no turn recorded: its time inside the turn's span", s(250), TURN2, "inside"],
    ["no turn recorded: at the next prompt is after", s(300), TURN2, "after"],
    ["no turn recorded: before the prompt is before", s(199), TURN2, "before"],
    ["the latest turn has no end", s(10_000), LATEST, "inside"],
    ["--since goes by time, turn or not", s(260, 20), SINCE, "inside"],
    ["--since: earlier is before", s(249, 30), SINCE, "before"],
    ["a write of unknown time is before any window", s(0), SINCE, "before"],
  ])("%s", (_name, stamp, window, want) => {
    expect(placeOf(stamp, window)).toBe(want);
  });

  it.each<[string, Stamp, Stamp, UndoWindow, string]>([
    ["written wholly in the turn", s(210, 20), s(290, 20), TURN2, "inside"],
    ["begun in an earlier turn, extended in this one", s(100, 10), s(210, 20), TURN2, "straddles"],
    ["written in this turn, extended in a later one", s(210, 20), s(310, 30), TURN2, "straddles"],
    ["spanning the turn from both sides", s(100, 10), s(310, 30), TURN2, "straddles"],
    ["wholly in an earlier turn", s(100, 10), s(150, 10), TURN2, "outside"],
    ["wholly in a later turn", s(310, 30), s(320, 30), TURN2, "outside"],
    ["since: all after", s(260), s(270), SINCE, "inside"],
    ["since: begun before", s(0), s(270), SINCE, "straddles"],
    ["since: all before", s(10), s(20), SINCE, "outside"],
  ])("%s", (_name, first, last, window, want) => {
    expect(fitOf({ first, last }, window)).toBe(want);
  });
});

describe("the turn a --turn names", () => {
  const prompts = [
    { seq: 10, ts: 100 },
    { seq: 20, ts: 200 },
    { seq: 30, ts: 300 },
  ];
  it.each<[string, number | null, UndoWindow | RegExp]>([
    ["no number: the latest, open-ended", null, LATEST],
    ["a number counts prompts from 1", 2, TURN2],
    ["the first", 1, { kind: "turn", number: 1, turn: 10, from: 100, to: 200 }],
    ["past the last", 4, /has turns 1 to 3; there is no turn 4/],
    ["zero", 0, /there is no turn 0/],
  ])("%s", (_name, n, want) => {
    const got = turnWindow(prompts, n);
    if (want instanceof RegExp) expect(got).toMatch(want);
    else expect(got).toEqual(want);
  });

  it("a session without a prompt has no turn", () => {
    expect(turnWindow([], null)).toMatch(/no prompt yet/);
  });
});

describe("--since", () => {
  const now = Date.parse("2026-12-04T22:00:00Z");
  it.each<[string, string, number | RegExp]>([
    ["a duration counts back from now", "45m", now - 45 * 60_000],
    ["hours", "2h", now - 2 * 3_600_000],
    ["a time with its zone", "2026-12-04T21:30:00Z", Date.parse("2026-12-04T21:30:00Z")],
    ["a date and time without one is local", "2026-12-04T21:30", new Date(2026, 11, 4, 21, 30).getTime()],
    ["a date alone is its local midnight", "2026-12-04", new Date(2026, 11, 4).getTime()],
    [
      "nonsense says what it takes",
      "nonsense",
      /"nonsense" is neither a duration \(90s, 45m, 2h, 1d\) nor a date/,
    ],
    ["a bare number is not a duration", "45", /neither a duration/],
    ["an impossible date", "2026-13-45", /neither a duration/],
    ["the future", "2027-01-01", /is in the future/],
  ])("%s", (_name, text, want) => {
    const got = sinceWindow(text, now, parseDuration);
    if (want instanceof RegExp) expect(got).toMatch(want);
    else expect(got).toEqual({ kind: "since", from: want });
  });
});
