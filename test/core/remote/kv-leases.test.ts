import { describe, expect, it } from "vitest";
import {
  beatenBy,
  type KvLease,
  leaseKey,
  leaseOf,
  leasesDocOf,
  planRelease,
  planReserve,
} from "../../../src/core/remote/kv-leases.js";
import { type Lease, SKEW_MARGIN_MS } from "../../../src/core/remote/leases.js";

const NOW = 1_000_000;
const lease = (path: string, checkout: string, expires = NOW + 60_000): Lease => ({
  path,
  checkout,
  checkoutName: `host:/${checkout}`,
  session: null,
  task: null,
  expires,
});
const kv = (l: Lease, revision: number): KvLease => ({ lease: l, revision });
const me = { checkout: "me", name: "host:/me" };
const req = (paths: string[]) => ({ paths, holder: me, session: "agent-a", task: "t", ttlMs: 3_600_000 });

describe("planReserve", () => {
  const cases: { name: string; current: KvLease[]; paths: string[]; kinds: string[] }[] = [
    { name: "a free path is created", current: [], paths: ["src/a.ts"], kinds: ["create"] },
    {
      name: "my own lease is extended on its revision",
      current: [kv(lease("src/a.ts", "me"), 4)],
      paths: ["src/a.ts"],
      kinds: ["update@4"],
    },
    {
      name: "another's live lease wins",
      current: [kv(lease("src/a.ts", "them"), 4)],
      paths: ["src/a.ts"],
      kinds: ["lost"],
    },
    {
      name: "another's directory lease covers the file",
      current: [kv(lease("src", "them"), 2)],
      paths: ["src/a.ts"],
      kinds: ["lost"],
    },
    {
      name: "another's file lease blocks the directory",
      current: [kv(lease("src/a.ts", "them"), 2)],
      paths: ["src"],
      kinds: ["lost"],
    },
    {
      name: "an expired lease is taken over on its revision",
      current: [kv(lease("src/a.ts", "them", NOW - SKEW_MARGIN_MS), 7)],
      paths: ["src/a.ts"],
      kinds: ["update@7"],
    },
    {
      name: "expired but inside the skew margin still holds",
      current: [kv(lease("src/a.ts", "them", NOW - SKEW_MARGIN_MS + 1), 7)],
      paths: ["src/a.ts"],
      kinds: ["lost"],
    },
    {
      name: "distinct paths each decide alone",
      current: [kv(lease("b", "them"), 1)],
      paths: ["a", "b", "c"],
      kinds: ["create", "lost", "create"],
    },
  ];
  for (const c of cases)
    it(c.name, () => {
      const steps = planReserve(c.current, req(c.paths), NOW);
      expect(steps.map((s) => (s.kind === "update" ? `update@${s.revision}` : s.kind))).toEqual(c.kinds);
      for (const s of steps)
        if (s.kind !== "lost") expect(s.lease).toMatchObject({ checkout: "me", expires: NOW + 3_600_000 });
    });
});

describe("beatenBy: of overlapping leases written at once, the earlier revision stands", () => {
  const mine = kv(lease("src/a.ts", "me"), 10);
  it.each([
    { name: "an earlier overlapping directory beats mine", others: [kv(lease("src", "them"), 9)], by: "src" },
    { name: "a later one does not", others: [kv(lease("src", "them"), 11)], by: null },
    {
      name: "an expired earlier one does not",
      others: [kv(lease("src", "them", NOW - SKEW_MARGIN_MS), 9)],
      by: null,
    },
    { name: "a disjoint earlier one does not", others: [kv(lease("srcx", "them"), 9)], by: null },
    { name: "my own earlier one does not", others: [kv(lease("src", "me"), 9)], by: null },
  ])("$name", ({ others, by }) => {
    expect(beatenBy(mine, [mine, ...others], NOW)?.path ?? null).toBe(by);
  });
});

describe("planRelease, leasesDocOf, keys", () => {
  const all = [kv(lease("src/a.ts", "me"), 1), kv(lease("src/b.ts", "them"), 2), kv(lease("docs", "me"), 3)];
  it("releases mine on the paths and under a directory", () => {
    expect(planRelease(all, me, ["src"]).map((k) => k.lease.path)).toEqual(["src/a.ts"]);
    expect(planRelease(all, me, ["docs", "src/b.ts"]).map((k) => k.lease.path)).toEqual(["docs"]);
  });
  it("the document holds live leases that no earlier overlapping one beats", () => {
    const doc = leasesDocOf(
      [...all, kv(lease("src", "them"), 4), kv(lease("old", "x", NOW - SKEW_MARGIN_MS), 5)],
      NOW,
    );
    // "src" (revision 4) overlaps src/a.ts (revision 1, another checkout): the earlier stands.
    expect(doc.leases.map((l) => l.path)).toEqual(["src/a.ts", "src/b.ts", "docs"]);
  });
  it.each(["src/a.ts", "dir with space/ü.md", "a.b.c", "*", ">"])(
    "key of %j is one valid token and reads back",
    (path) => {
      const key = leaseKey(path);
      expect(key).toMatch(/^l\.[A-Za-z0-9_-]+$/);
      expect(Buffer.from(key.slice(2), "base64url").toString("utf8")).toBe(path);
    },
  );
  it("a stored value reads as a lease; anything else as none", () => {
    expect(leaseOf(JSON.stringify(lease("a", "me")))).toEqual(lease("a", "me"));
    expect(leaseOf('{"path":1}')).toBeNull();
    expect(leaseOf("not json")).toBeNull();
  });
});
