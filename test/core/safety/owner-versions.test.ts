import { describe, expect, it } from "vitest";
import {
  type CallEvent,
  type ChangeFacts,
  changeStep,
  covers,
  inFlight,
  type Kept,
  type OwnedFile,
  openCalls,
  type StampStep,
  stampStep,
} from "../../../src/core/safety/owner-versions.js";

const kept: Kept = { version: 3, stamp: "5:100:33188", blob: "aaa", seq: 40 };
const file = (over: Partial<OwnedFile>): OwnedFile => ({
  key: "f.txt",
  owner: "A",
  stamp: kept.stamp,
  kept,
  own: false,
  ...over,
});

describe("what a stamp alone decides about an owned file", () => {
  const cases: [string, Partial<OwnedFile>, StampStep][] = [
    ["the stamp of its kept version: nothing more", {}, "same"],
    [
      "changed by the owner's own call: kept as its newest version",
      { stamp: "6:101:33188", own: true },
      "keep",
    ],
    [
      "first left by the owner's call, nothing kept yet: kept",
      { kept: null, stamp: "6:1:1", own: true },
      "keep",
    ],
    ["removed by the owner's own call: nothing to keep", { stamp: "missing", own: true }, "same"],
    ["changed by anyone else: its bytes are compared", { stamp: "6:101:33188" }, "compare"],
    ["gone, not by its owner: a removal", { stamp: "missing" }, "removed"],
    ["never kept and not the owner's change: nothing to compare to", { kept: null, stamp: "6:1:1" }, "same"],
  ];
  it.each(cases)("%s", (_, over, step) => {
    expect(stampStep(file(over))).toBe(step);
  });
});

describe("what a changed file's bytes decide", () => {
  const facts = (over: Partial<ChangeFacts>): ChangeFacts => ({
    blob: "bbb",
    kept,
    recordedSince: false,
    removedByOwner: false,
    ...over,
  });
  const cases: [string, Partial<ChangeFacts>, ReturnType<typeof changeStep>][] = [
    ["the kept bytes under a new time (a touch): restamped, no clobber", { blob: "aaa" }, "restamp"],
    ["other bytes nobody recorded: a clobber", {}, "clobber"],
    [
      "other bytes a command's delta already recorded: followed, not told twice",
      { recordedSince: true },
      "follow",
    ],
    ["removed, unrecorded, not by its owner: a clobber", { blob: null }, "clobber"],
    ["removed by the owner's own command: ignored", { blob: null, removedByOwner: true }, "ignore"],
    ["removed and already recorded: ignored", { blob: null, recordedSince: true }, "ignore"],
  ];
  it.each(cases)("%s", (_, over, step) => {
    expect(changeStep(facts(over))).toBe(step);
  });
});

describe("a session's open tool calls", () => {
  const ev = (kind: CallEvent["kind"], id: string | null, ts = 1_000): CallEvent => ({
    kind,
    id,
    ts,
    targets: [],
  });
  const cases: [string, CallEvent[], (string | null)[]][] = [
    ["none asked for", [], []],
    ["asked for and completed", [ev("requested", "t1"), ev("completed", "t1")], []],
    ["asked for, not completed yet", [ev("requested", "t1"), ev("completed", "t0")], ["t1"]],
    [
      "two in parallel, one completed",
      [ev("requested", "t1"), ev("requested", "t2"), ev("completed", "t1")],
      ["t2"],
    ],
    ["calls without ids pair with each other", [ev("requested", null), ev("completed", null)], []],
    [
      "one older than the window no longer counts",
      [ev("requested", "old", 0), ev("requested", "t1")],
      ["t1"],
    ],
  ];
  it.each(cases)("%s", (_, events, open) => {
    expect(openCalls(events, 1_000, 500).map((c) => c.id)).toEqual(open);
  });
});

describe("which of a session's files its open calls may be changing", () => {
  it("a whole-tree command open: every file", () => {
    expect(covers(inFlight(["a.txt"], true), "f.txt")).toBe(true);
  });
  it("only named files open: those, and no other", () => {
    const flight = inFlight(["a.txt"], false);
    expect([covers(flight, "a.txt"), covers(flight, "f.txt")]).toEqual([true, false]);
  });
});
