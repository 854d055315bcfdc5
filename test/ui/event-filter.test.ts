import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { eventMatches, kindMatches, parseKind } from "../../src/core/ui/event-filter.js";
import { filterSql } from "../../src/store/events/pages.js";

describe("event filter", () => {
  const kinds: [string | null, string, boolean][] = [
    [null, "claim.acquired", true],
    ["claim.acquired", "claim.acquired", true],
    ["claim.acquired", "claim.denied", false],
    ["claim.*", "claim.denied", true],
    ["claim.*", "claims.other", false],
    ["claim", "claim.acquired", false],
  ];
  it.each(kinds)("kind %s against %s: %s", (p, k, want) => expect(kindMatches(p, k)).toBe(want));

  it("matches session and kind together", () => {
    const f = { session: "s1", kind: "tool.*" };
    expect(eventMatches(f, { session: "s1", kind: "tool.requested" })).toBe(true);
    expect(eventMatches(f, { session: "s2", kind: "tool.requested" })).toBe(false);
    expect(eventMatches(f, { session: null, kind: "tool.requested" })).toBe(false);
  });

  it("reads a blank kind box as no filter", () => {
    expect(parseKind("  ")).toBeNull();
    expect(parseKind(" claim.* ")).toBe("claim.*");
  });

  it("selects in SQL exactly what it matches in the page", () => {
    const db = new Database(":memory:");
    db.exec("CREATE TABLE events (seq INTEGER PRIMARY KEY, session_id TEXT, kind TEXT)");
    const rows = [
      ["s1", "claim.acquired"],
      ["s1", "claim.denied"],
      ["s2", "claim.acquired"],
      [null, "store.gc"],
      ["s1", "claims.x"],
    ];
    for (const [s, k] of rows) db.prepare("INSERT INTO events (session_id, kind) VALUES (?, ?)").run(s, k);
    for (const f of [
      { session: null, kind: null },
      { session: "s1", kind: null },
      { session: null, kind: "claim.*" },
      { session: "s1", kind: "claim.acquired" },
    ]) {
      const { where, args } = filterSql(f);
      const sql = `SELECT session_id AS session, kind FROM events${where.length ? ` WHERE ${where.join(" AND ")}` : ""}`;
      const got = db.prepare(sql).all(...args) as { session: string | null; kind: string }[];
      const want = rows.filter(([s, k]) => eventMatches(f, { session: s ?? null, kind: k! }));
      expect(got.map((r) => [r.session, r.kind])).toEqual(want);
    }
  });
});
