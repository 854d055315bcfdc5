import { describe, expect, it } from "vitest";
import { gcSuggestion, MAINTENANCE_EVERY_MS, upkeepPlan } from "../../../src/core/upkeep/maintenance.js";
import {
  BLOB_GRACE_MS,
  blobsToDelete,
  type PreservedFacts,
  parseAge,
  preservedToExpire,
  type SessionFacts,
  type SubagentFacts,
  sessionsToCompact,
  subagentsToExpire,
} from "../../../src/core/upkeep/retention.js";

const NOW = 10_000_000_000;
const DAY = 86_400_000;
const CUTOFF = NOW - 30 * DAY;
const old = CUTOFF - DAY;
const recent = CUTOFF + DAY;

describe("which sessions gc compacts", () => {
  const s = (over: Partial<SessionFacts>): SessionFacts => ({
    id: "s",
    ended: true,
    lastSeen: old,
    claims: 0,
    compactable: 40,
    ...over,
  });
  it.each([
    ["an ended session last seen before the cutoff", s({}), true],
    ["a session that has not ended (live or stale), however old", s({ ended: false }), false],
    ["an ended session seen after the cutoff (recent)", s({ lastSeen: recent }), false],
    ["an ended session that still holds a claim", s({ claims: 1 }), false],
    ["a session already compacted (nothing left to summarise)", s({ compactable: 0 }), false],
  ])("%s: %s", (_name, facts, compacted) => {
    expect(sessionsToCompact([facts], CUTOFF)).toEqual(compacted ? ["s"] : []);
  });
});

describe("which sub-agents' artifacts expire", () => {
  const sub = (over: Partial<SubagentFacts>): SubagentFacts => ({
    id: "x",
    removal: "removed",
    removedTs: old,
    applyStages: ["completed"],
    expired: false,
    ...over,
  });
  it.each([
    ["applied everywhere and removed before the cutoff", sub({}), true],
    ["discarded before the cutoff, never applied", sub({ removal: "discarded", applyStages: [] }), true],
    ["removed but never applied: its artifact is the only copy of the work", sub({ applyStages: [] }), false],
    ["removed with an apply stopped half-way", sub({ applyStages: ["completed", "commits-applied"] }), false],
    ["removed after the cutoff", sub({ removedTs: recent }), false],
    ["still present (its worktree exists)", sub({ removal: null, removedTs: null }), false],
    ["already expired", sub({ expired: true }), false],
  ])("%s", (_name, facts, expires) => {
    expect(subagentsToExpire([facts], CUTOFF)).toEqual(expires ? ["x"] : []);
  });
});

describe("which preserved versions expire", () => {
  const v = (over: Partial<PreservedFacts>): PreservedFacts => ({
    key: ["/r", "f.txt", "owner", 1],
    ts: old,
    owner: { ended: true, lastSeen: old },
    ...over,
  });
  it.each([
    ["old bytes of an owner that ended before the cutoff", v({}), true],
    ["old bytes of an owner nobody knows any more", v({ owner: null }), true],
    [
      "old bytes of an owner still open (live or stale)",
      v({ owner: { ended: false, lastSeen: old } }),
      false,
    ],
    ["old bytes of an owner that ended recently", v({ owner: { ended: true, lastSeen: recent } }), false],
    ["recent bytes of a long-ended owner", v({ ts: recent }), false],
  ])("%s", (_name, facts, expires) => {
    expect(preservedToExpire([facts], CUTOFF)).toHaveLength(expires ? 1 : 0);
  });
});

describe("which blob files gc deletes", () => {
  it("deletes an unreferenced blob past the grace, never a referenced or a freshly stored one", () => {
    const blobs = [
      { name: "a", mtimeMs: NOW - BLOB_GRACE_MS - 1 },
      { name: "b", mtimeMs: NOW - BLOB_GRACE_MS - 1 },
      { name: "c", mtimeMs: NOW - BLOB_GRACE_MS + 1000 },
    ];
    expect(blobsToDelete(blobs, new Set(["b"]), NOW).map((b) => b.name)).toEqual(["a"]);
  });
});

describe("--older-than", () => {
  it.each([
    ["30d", 30 * DAY],
    ["12h", 12 * 3_600_000],
    ["90m", 90 * 60_000],
    ["0d", 0],
    ["30", null],
    ["-1d", null],
    ["1w", null],
  ])("%s", (text, ms) => {
    expect(parseAge(text)).toBe(ms);
  });
});

describe("session-start upkeep", () => {
  const MB = 1024 * 1024;
  it.each([
    [
      "a small store is checked inline, nothing starts",
      1 * MB,
      null,
      false,
      { auditInline: true, startBackground: false },
    ],
    [
      "a big store never checked starts the background check",
      300 * MB,
      null,
      false,
      { auditInline: false, startBackground: true },
    ],
    [
      "a big store checked within the day waits",
      300 * MB,
      NOW - 1000,
      false,
      { auditInline: false, startBackground: false },
    ],
    [
      "a big store checked a day ago starts it again",
      300 * MB,
      NOW - MAINTENANCE_EVERY_MS,
      false,
      { auditInline: false, startBackground: true },
    ],
    [
      "store.autoGc starts it daily for a small store too",
      1 * MB,
      null,
      true,
      { auditInline: true, startBackground: true },
    ],
  ])("%s", (_name, storeBytes, lastStarted, autoGc, plan) => {
    expect(upkeepPlan({ storeBytes, lastStarted, autoGc, now: NOW })).toEqual(plan);
  });
});

describe("doctor's gc suggestion", () => {
  const small = { dbBytes: 1024, events: 100, oldestTs: NOW - DAY, blobBytes: 0 };
  it("stays quiet for a small young store", () => expect(gcSuggestion(small, NOW)).toBeNull());
  it("names every threshold passed", () => {
    expect(
      gcSuggestion(
        {
          dbBytes: 200 * 1024 * 1024,
          blobBytes: 100 * 1024 * 1024,
          events: 600_000,
          oldestTs: NOW - 100 * DAY,
        },
        NOW,
      ),
    ).toBe(
      "it holds more than 256 MB, it holds more than 500,000 events, its oldest event is over 90 days old",
    );
  });
});
