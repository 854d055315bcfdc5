import { describe, expect, it } from "vitest";
import { PRESENCE_FORMAT, type PresenceDoc } from "../../../src/core/remote/presence.js";
import {
  lastAlive,
  shouldBeat,
  shouldPublish,
  staleCheckouts,
  syncFix,
} from "../../../src/core/remote/sync-plan.js";

const NOW = 1_800_000_000_000;

function doc(over: Partial<PresenceDoc> = {}, claims = ["a.ts"]): PresenceDoc {
  return {
    format: PRESENCE_FORMAT,
    checkout: { id: "c1", name: "box:/w" },
    published: NOW,
    base: "abc",
    branch: "main",
    upstream: "origin/main",
    sessions: [{ name: "s", client: "codex", task: null, branch: "main", lastSeen: NOW, claims, dirty: [] }],
    ...over,
  };
}

describe("whether a round publishes this checkout's presence", () => {
  it.each([
    ["nothing on the remote yet", null, doc(), true],
    ["the same substance, published 10 s ago", doc({ published: NOW - 10_000 }), doc(), false],
    [
      "the same substance, only seen later",
      doc({ published: NOW - 10_000 }),
      doc({ sessions: [{ ...doc().sessions[0]!, lastSeen: NOW + 5 }] }),
      false,
    ],
    [
      "the same substance, an hour old (a beat says it holds)",
      doc({ published: NOW - 3_600_000 }),
      doc(),
      false,
    ],
    ["the same substance with a beat the reader attached", doc({ alive: NOW - 5 }), doc(), false],
    ["a new claim", doc({ published: NOW - 1_000 }), doc({}, ["a.ts", "b.ts"]), true],
    [
      "the same claims in another order",
      doc({ published: NOW - 1_000 }, ["b.ts", "a.ts"]),
      doc({}, ["a.ts", "b.ts"]),
      false,
    ],
    ["a new HEAD", doc({ published: NOW - 1_000 }), doc({ base: "def" }), true],
    ["a remote copy dated in the future", doc({ published: NOW + 3_600_000 }), doc(), false],
  ])("%s → %s", (_why, onRemote, mine, expected) => {
    expect(shouldPublish(mine, onRemote)).toBe(expected);
  });
});

describe("whether a round moves this checkout's beat", () => {
  it.each([
    ["no beat on the remote", null, true],
    ["a beat 10 s ago, interval 30 s", NOW - 10_000, false],
    ["a beat 15 s ago, interval 30 s", NOW - 15_000, true],
    ["a beat an hour ago", NOW - 3_600_000, true],
    ["a beat dated ahead of our clock", NOW + 60_000, false],
  ] as const)("%s → %s", (_why, last, expected) => {
    expect(shouldBeat(last, 30_000, NOW)).toBe(expected);
  });

  it("a checkout is alive as of its latest beat or publication", () => {
    expect(lastAlive(doc({ published: NOW - 100 }))).toBe(NOW - 100);
    expect(lastAlive(doc({ published: NOW - 100, alive: NOW - 5 }))).toBe(NOW - 5);
    expect(lastAlive(doc({ published: NOW - 5, alive: NOW - 100 }))).toBe(NOW - 5);
  });
});

describe("which checkouts --prune removes", () => {
  it("only others silent longer than the bound; never this checkout", () => {
    const day = 86_400_000;
    const docs = [
      doc({ checkout: { id: "old", name: "x" }, published: NOW - 8 * day }),
      doc({ checkout: { id: "recent", name: "y" }, published: NOW - 6 * day }),
      doc({ checkout: { id: "me", name: "z" }, published: NOW - 9 * day }),
    ];
    expect(staleCheckouts(docs, "me", 7 * day, NOW).map((d) => d.checkout.id)).toEqual(["old"]);
  });

  it("a checkout that published long ago but beats is not stale", () => {
    const day = 86_400_000;
    const docs = [
      doc({ checkout: { id: "steady", name: "x" }, published: NOW - 30 * day, alive: NOW - 1000 }),
    ];
    expect(staleCheckouts(docs, "me", 7 * day, NOW)).toEqual([]);
  });
});

describe("the fix a failed round suggests", () => {
  it.each([
    ["remote", "no remote to share through", "git remote add"],
    ["fetch", "git fetch: timed out after 10s", "raise remote.timeoutSeconds"],
    [
      "publish",
      "! [remote rejected] x -> refs/tandem/presence/x (pre-receive hook declined)",
      "refuses Tandem's refs",
    ],
    [
      "publish",
      "remote: Permission to o/r.git denied to bot.\nfatal: unable to access: 403",
      "refuses Tandem's refs",
    ],
    ["fetch", "fatal: unable to access 'https://x/': Could not resolve host: x", "cannot be reached"],
    ["fetch", "fatal: something else entirely", "by hand"],
  ] as const)("%s: %s", (stage, error, fix) => {
    expect(syncFix(stage, error, "origin", 10)).toContain(fix);
  });
});
