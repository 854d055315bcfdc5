import { describe, expect, it } from "vitest";
import {
  type LeftOwner,
  leftRefusal,
  leftToRefuse,
  leftWhatToDo,
  leftWork,
  newestOwners,
  type OwnerMark,
  settledMarks,
} from "../../../src/core/claims/left-work.js";

const owner = (id: string, live: boolean, task: string | null = "t"): LeftOwner => ({
  id,
  name: `agent-${id}`,
  client: "claude-code",
  task,
  live,
  ended: !live,
  at: 0,
});

const owners = new Map([
  ["gone", owner("gone", false)],
  ["gone2", owner("gone2", false)],
  ["live", owner("live", true)],
]);

const mark = (path: string, session: string, seq: number, hold: OwnerMark["hold"]): OwnerMark => ({
  path,
  session,
  seq,
  hold,
});

const all = () => true;

describe("newestOwners", () => {
  it.each<[string, OwnerMark[], { session: string; hold: OwnerMark["hold"] }]>([
    ["the only mark", [mark("f", "gone", 1, "session_end")], { session: "gone", hold: "session_end" }],
    [
      "the newest session wins",
      [mark("f", "gone", 1, "session_end"), mark("f", "live", 5, "held")],
      { session: "live", hold: "held" },
    ],
    [
      "an older session's later-listed mark loses",
      [mark("f", "live", 5, "released"), mark("f", "gone", 1, "touched")],
      { session: "live", hold: "released" },
    ],
    [
      "a session's claim says how it holds the path even when its touch is newer",
      [mark("f", "gone", 1, "released"), mark("f", "gone", 3, "touched")],
      { session: "gone", hold: "released" },
    ],
    [
      "…and when the touch is listed first",
      [mark("f", "gone", 3, "touched"), mark("f", "gone", 1, "session_end")],
      { session: "gone", hold: "session_end" },
    ],
  ])("%s", (_name, marks, want) => {
    expect(newestOwners(marks).get("f")).toMatchObject(want);
  });
});

describe("leftWork", () => {
  it.each<[string, OwnerMark[], (p: string) => boolean, string[]]>([
    ["a dirty file released when its session ended", [mark("f", "gone", 1, "session_end")], all, ["f"]],
    ["a dirty file a gone session still claims (it went stale)", [mark("f", "gone", 1, "held")], all, ["f"]],
    ["a dirty file a gone session touched through its shell", [mark("f", "gone", 1, "touched")], all, ["f"]],
    ["not a clean one (committed or reverted)", [mark("f", "gone", 1, "session_end")], () => false, []],
    ["not one its session gave up (commit, release)", [mark("f", "gone", 1, "released")], all, []],
    ["not one a live session owns", [mark("f", "live", 1, "held")], all, []],
    [
      "not one a live session took over since",
      [mark("f", "gone", 1, "session_end"), mark("f", "live", 2, "held")],
      all,
      [],
    ],
    [
      "the newest of two gone owners",
      [mark("f", "gone", 1, "session_end"), mark("f", "gone2", 2, "session_end")],
      all,
      ["f:gone2"],
    ],
    ["not a session nobody knows", [mark("f", "ghost", 1, "session_end")], all, []],
  ])("%s", (_name, marks, dirty, want) => {
    const got = leftWork(marks, owners, dirty).map((i) =>
      want.some((x) => x.includes(":")) ? `${i.path}:${i.owner.id}` : i.path,
    );
    expect(got).toEqual(want);
  });
});

describe("settledMarks", () => {
  it("settles a gone owner's marks on clean files only, its held claims among them, never a live owner's or a released one", () => {
    const marks = [
      mark("clean", "gone", 1, "session_end"),
      mark("touched", "gone", 2, "touched"),
      mark("dirty", "gone", 3, "session_end"),
      mark("held", "gone", 4, "held"),
      mark("dirty-held", "gone", 5, "held"),
      mark("mine", "live", 6, "touched"),
      mark("given-up", "gone2", 7, "released"),
      mark("unknown", "nobody", 8, "held"),
    ];
    const dirty = (p: string) => p.startsWith("dirty");
    expect(settledMarks(marks, owners, dirty)).toEqual([
      { owner: "gone", path: "clean", held: false, seen: 0 },
      { owner: "gone", path: "touched", held: false, seen: 0 },
      { owner: "gone", path: "held", held: true, seen: 0 },
    ]);
  });
});

describe("the refusal of a write over left work", () => {
  const item = {
    path: "f.txt",
    owner: { ...owner("gone", false, "fix the parser"), at: 0 },
    hold: "session_end" as const,
  };

  it("is made once per path and turn", () => {
    expect(leftToRefuse([item], new Set())).toEqual([item]);
    expect(leftToRefuse([item], new Set(["f.txt"]))).toEqual([]);
    expect(leftToRefuse([item], new Set(["other.txt"]))).toEqual([item]);
  });

  it("names whose it is, its task, when it ended, and every way forward, in the agent's own command", () => {
    const text = leftRefusal([item], 180_000, { reader: "agent", launcher: "npx tandem" });
    expect(text).toContain('f.txt: left by agent-gone (claude-code, task "fix the parser"), ended 3m ago');
    expect(text).toContain("`npx tandem adopt f.txt`");
    expect(text).toContain("`npx tandem recover f.txt --session agent-gone`");
    // discard refuses inside an agent: the agent is told to ask, not given the command.
    expect(text).not.toContain("discard f.txt");
    expect(text).toContain("ask your user to throw it away");
    expect(text).toContain("make the same write again in this turn");
    expect(text).not.toMatch(/\n {2,}\S/);
  });

  it.each<[string, "agent" | "person", RegExp[], RegExp[]]>([
    [
      "an agent adopts or recovers",
      "agent",
      [/`T adopt 'my f\.txt'`/, /`T recover 'my f\.txt' --session agent-gone`/],
      [/`T discard/],
    ],
    [
      "a person recovers or discards, never adopts",
      "person",
      [/`T recover 'my f\.txt' --session agent-gone`/, /`T discard 'my f\.txt' --yes`/],
      [/`T adopt/],
    ],
  ])("what to do, for its reader: %s (paths quoted)", (_what, reader, present, absent) => {
    const text = leftWhatToDo("my f.txt", "agent-gone", { reader, launcher: "T" });
    for (const re of present) expect(text).toMatch(re);
    for (const re of absent) expect(text).not.toMatch(re);
  });
});
