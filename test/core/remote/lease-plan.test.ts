import { describe, expect, it } from "vitest";
import {
  type HeldLease,
  migratedLeases,
  missingLeases,
  planLeases,
  planRelease,
  requestedLeases,
} from "../../../src/core/remote/lease-plan.js";
import { type Lease, SKEW_MARGIN_MS } from "../../../src/core/remote/leases.js";

const NOW = 1_800_000_000_000;
const HOUR = 3_600_000;

function lease(path: string, checkout = "a", expires = NOW + HOUR): Lease {
  return { path, checkout, checkoutName: `box:/${checkout}`, session: null, task: null, expires };
}
const held = (l: Lease): HeldLease => ({ lease: l, commit: `c-${l.checkout}-${l.path}` });
const expired = NOW - SKEW_MARGIN_MS - 1;

/** A plan in short: won, lost, deleted refs, written refs with what each must hold. */
function brief(heldLeases: Lease[], wanted: Lease[]) {
  const p = planLeases(heldLeases.map(held), wanted, NOW);
  return {
    won: p.won,
    lost: p.lost.map((l) => `${l.path}<${l.by.checkout}:${l.by.path}`),
    deletes: p.deletes.map((h) => h.lease.path),
    writes: p.writes.map((w) => `${w.lease.path}@${w.expected ?? "absent"}`),
  };
}

describe("placing leases among the refs the remote holds", () => {
  it.each([
    [
      "a free path: created where absent",
      [],
      [lease("x")],
      { won: ["x"], lost: [], deletes: [], writes: ["x@absent"] },
    ],
    [
      "another checkout's live lease on the path: lost to it",
      [lease("x", "b")],
      [lease("x")],
      { won: [], lost: ["x<b:x"], deletes: [], writes: [] },
    ],
    [
      "another's live lease on the directory above: lost",
      [lease("src", "b")],
      [lease("src/x")],
      { won: [], lost: ["src/x<b:src"], deletes: [], writes: [] },
    ],
    [
      "another's live lease below the directory asked for: lost",
      [lease("src/x", "b")],
      [lease("src")],
      { won: [], lost: ["src<b:src/x"], deletes: [], writes: [] },
    ],
    [
      "the holder's own lease: extended over its old value",
      [lease("x", "a", NOW + 10)],
      [lease("x")],
      { won: ["x"], lost: [], deletes: [], writes: ["x@c-a-x"] },
    ],
    [
      "another's expired lease on the path: taken over its old value",
      [lease("x", "b", expired)],
      [lease("x")],
      { won: ["x"], lost: [], deletes: [], writes: ["x@c-b-x"] },
    ],
    [
      "another's expired lease below: deleted first",
      [lease("src/x", "b", expired)],
      [lease("src")],
      { won: ["src"], lost: [], deletes: ["src/x"], writes: ["src@absent"] },
    ],
    [
      "a lease within the skew margin still holds",
      [lease("x", "b", NOW - 1000)],
      [lease("x")],
      { won: [], lost: ["x<b:x"], deletes: [], writes: [] },
    ],
    [
      "the holder's own leases below a new directory lease: replaced by it",
      [lease("src/x"), lease("src/y")],
      [lease("src")],
      { won: ["src"], lost: [], deletes: ["src/x", "src/y"], writes: ["src@absent"] },
    ],
    [
      "under the holder's own directory lease: already held, nothing written",
      [lease("src")],
      [lease("src/x")],
      { won: ["src/x"], lost: [], deletes: [], writes: [] },
    ],
    [
      "a directory and a file below it in one request: one ref",
      [],
      [lease("src/x"), lease("src")],
      { won: ["src", "src/x"], lost: [], deletes: [], writes: ["src@absent"] },
    ],
    [
      "some paths free, one taken: the free ones only",
      [lease("b", "z")],
      [lease("a"), lease("b"), lease("c")],
      { won: ["a", "c"], lost: ["b<z:b"], deletes: [], writes: ["a@absent", "c@absent"] },
    ],
    [
      "a sibling with a common prefix is no overlap",
      [lease("src/ab", "b")],
      [lease("src/a")],
      { won: ["src/a"], lost: [], deletes: [], writes: ["src/a@absent"] },
    ],
  ])("%s", (_why, heldLeases, wanted, expected) => {
    expect(brief(heldLeases, wanted)).toEqual(expected);
  });

  it("asks for one lease per path, until now + ttl", () => {
    const req = {
      paths: ["a", "b/"],
      holder: { checkout: "h", name: "box:/h" },
      session: "s",
      task: null,
      ttlMs: 5,
    };
    expect(requestedLeases(req, NOW).map((l) => [l.path, l.checkout, l.expires])).toEqual([
      ["a", "h", NOW + 5],
      ["b/", "h", NOW + 5],
    ]);
  });
});

describe("releasing", () => {
  it("deletes the holder's own leases on and below the paths, never another's", () => {
    const p = planRelease(
      [lease("src/x"), lease("src/y", "b"), lease("docs"), lease("srcs")].map(held),
      { checkout: "a", name: "box:/a" },
      ["src/"],
    );
    expect(p.deletes.map((h) => h.lease.path)).toEqual(["src/x"]);
    expect(p.won).toEqual(["src/x"]);
  });
});

describe("what a clone puts back after a forced push", () => {
  it.each([
    ["its live lease is gone", [lease("x")], [], ["x"]],
    ["it is there", [lease("x")], [lease("x")], []],
    ["it is there with a later expiry", [lease("x")], [lease("x", "a", NOW + 2 * HOUR)], []],
    ["it is covered by its own directory lease", [lease("src/x")], [lease("src")], []],
    ["it expired", [lease("x", "a", expired)], [], []],
    ["another checkout's lease is not ours to put back", [lease("x", "b")], [], []],
  ])("%s → %j", (_why, mine, there, expected) => {
    expect(missingLeases(mine, there.map(held), "a", NOW).map((l) => l.path)).toEqual(expected);
  });
});

describe("migrating the old single document", () => {
  it("keeps live leases no ref overlaps, and of nested own leases the outermost", () => {
    const old = [lease("a"), lease("b", "z", expired), lease("c"), lease("d/e"), lease("d"), lease("f/")];
    const out = migratedLeases(old, [held(lease("c", "y"))], NOW);
    expect(out.map((l) => l.path)).toEqual(["a", "d", "f"]);
  });
});
