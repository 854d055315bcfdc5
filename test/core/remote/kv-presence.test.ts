import { describe, expect, it } from "vitest";
import {
  aliveDue,
  aliveKey,
  applyPresenceChanges,
  EMPTY_CACHE,
  liveDocs,
  NOTHING_SEEN,
  type PresenceCache,
  type PresenceChange,
  parseSeen,
  presenceKey,
  resumeFrom,
  shouldRefresh,
} from "../../../src/core/remote/kv-presence.js";
import { type PresenceDoc, presenceText } from "../../../src/core/remote/presence.js";

const doc = (id: string, published: number, task: string | null = null): PresenceDoc => ({
  format: 1,
  checkout: { id, name: `host:/${id}` },
  published,
  base: null,
  branch: "main",
  upstream: null,
  sessions: [
    { name: "agent-a", client: "codex", task, branch: "main", lastSeen: published, claims: [], dirty: [] },
  ],
});

const put = (id: string, revision: number, created: number, task: string | null = null): PresenceChange => ({
  key: presenceKey(id),
  revision,
  created,
  op: "PUT",
  text: presenceText(doc(id, created, task)),
});

const TTL = 30_000;

describe("applyPresenceChanges", () => {
  const cases: {
    name: string;
    from: PresenceCache;
    changes: PresenceChange[];
    now: number;
    keys: string[];
    revision: number;
  }[] = [
    { name: "nothing new keeps the cache", from: EMPTY_CACHE, changes: [], now: 1000, keys: [], revision: 0 },
    {
      name: "puts add keys and move the revision",
      from: EMPTY_CACHE,
      changes: [put("aa", 1, 1000), put("bb", 2, 1000)],
      now: 2000,
      keys: ["p.aa", "p.bb"],
      revision: 2,
    },
    {
      name: "a delete removes its key",
      from: EMPTY_CACHE,
      changes: [put("aa", 1, 1000), { key: "p.aa", revision: 2, created: 1500, op: "DEL", text: null }],
      now: 2000,
      keys: [],
      revision: 2,
    },
    {
      name: "an entry older than the TTL by server time is dropped (2.9 tells no watcher)",
      from: EMPTY_CACHE,
      changes: [put("aa", 1, 1000), put("bb", 2, 20_000)],
      now: 1000 + TTL,
      keys: ["p.bb"],
      revision: 2,
    },
    {
      name: "a revision already applied is skipped",
      from: { revision: 5, entries: { "p.aa": { created: 1000, text: "{}" } } },
      changes: [{ key: "p.aa", revision: 4, created: 900, op: "DEL", text: null }],
      now: 2000,
      keys: ["p.aa"],
      revision: 5,
    },
  ];
  for (const c of cases)
    it(c.name, () => {
      const out = applyPresenceChanges(c.from, c.changes, c.now, TTL);
      expect(Object.keys(out.entries).sort()).toEqual(c.keys);
      expect(out.revision).toBe(c.revision);
    });
});

describe("liveDocs: a document counts while its checkout's alive mark does, dated by the mark", () => {
  const docs = applyPresenceChanges(EMPTY_CACHE, [put("aa", 1, 1000, "t"), put("bb", 2, 1000)], 2000, TTL);
  const alive = (created: number) => ({ created, text: "" });
  it.each([
    { name: "no marks: nothing", marks: {}, expected: [] },
    {
      name: "aa's mark: aa, dated by it",
      marks: { [aliveKey("aa")]: alive(5000) },
      expected: [["aa", 5000]],
    },
    {
      name: "a mark older than the document keeps the document's date",
      marks: { [aliveKey("bb")]: alive(500) },
      expected: [["bb", 1000]],
    },
  ])("$name", ({ marks, expected }) => {
    const out = liveDocs({ docs, alive: { revision: 3, entries: marks } });
    expect(out.map((d) => [d.checkout.id, d.published])).toEqual(expected);
  });
});

describe("aliveDue", () => {
  it.each([
    { name: "no mark", entries: {}, now: 1000, expected: true },
    {
      name: "a young mark",
      entries: { [aliveKey("aa")]: { created: 1000, text: "" } },
      now: 1000 + TTL / 3 - 1,
      expected: false,
    },
    {
      name: "a third of the TTL old",
      entries: { [aliveKey("aa")]: { created: 1000, text: "" } },
      now: 1000 + TTL / 3,
      expected: true,
    },
  ])("$name", ({ entries, now, expected }) => {
    expect(aliveDue({ docs: EMPTY_CACHE, alive: { revision: 1, entries } }, "aa", TTL, now)).toBe(expected);
  });
});

describe("resumeFrom and parseSeen", () => {
  const cache: PresenceCache = { revision: 9, entries: {} };
  it.each([
    { last: 9, expected: cache },
    { last: 12, expected: cache },
    { last: 3, expected: EMPTY_CACHE }, // the bucket was made again
  ])("resumes at revision 9 with the bucket at $last", ({ last, expected }) => {
    expect(resumeFrom(cache, last)).toEqual(expected);
  });
  it.each(["", "{", '{"docs":{"revision":"x","entries":{}},"alive":{"revision":0,"entries":{}}}', "[]"])(
    "a damaged record %j reads as none",
    (text) => {
      expect(parseSeen(text)).toBeNull();
    },
  );
  it("a record reads back", () => {
    const seen = { ...NOTHING_SEEN, docs: cache };
    expect(parseSeen(JSON.stringify(seen))).toEqual(seen);
  });
});

describe("shouldRefresh", () => {
  const mine = doc("aa", 50_000);
  const stored = (created: number, task: string | null = null) => ({
    created,
    text: presenceText(doc("aa", created, task)),
  });
  it.each([
    { name: "nothing stored", s: null, now: 50_000, expected: true },
    { name: "unreadable stored", s: { created: 49_000, text: "{" }, now: 50_000, expected: true },
    { name: "same substance, young", s: stored(45_000), now: 50_000, expected: false },
    { name: "same substance, a third of the TTL old", s: stored(40_000), now: 50_000, expected: true },
    { name: "the substance changed", s: stored(49_000, "other task"), now: 50_000, expected: true },
  ])("$name", ({ s, now, expected }) => {
    expect(shouldRefresh(mine, s, TTL, now)).toBe(expected);
  });
});
