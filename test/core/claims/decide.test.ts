import { describe, expect, it } from "vitest";
import {
  CLEAN_TAKEOVER_GRACE_MS,
  type ClaimRequest,
  type ClaimTarget,
  decideClaims,
  type HeldClaim,
  type Holder,
  overlaps,
} from "../../../src/core/claims/decide.js";
import { denialMessage } from "../../../src/core/claims/messages.js";

const NOW = 1_000_000_000;
const WT = "/repo";
const target = (path: string, worktree = WT): ClaimTarget => ({
  raw: path,
  worktree,
  path,
  disposition: "git",
  root: worktree,
});
const holder = (id: string, over: Partial<Holder> = {}): Holder => ({
  id,
  name: `agent-${id}`,
  client: "codex",
  task: "refactor",
  lastSeen: NOW - 5000,
  live: true,
  group: id,
  ...over,
});
const held = (path: string, h: Holder, over: Partial<HeldClaim> = {}): HeldClaim => ({
  worktree: WT,
  path,
  holder: h,
  acquiredAt: NOW - 1000,
  clean: false,
  ...over,
});
const req = (
  targets: ClaimTarget[],
  claims: HeldClaim[],
  over: Partial<ClaimRequest> = {},
): ClaimRequest => ({
  caller: { id: "me", group: "me" },
  targets,
  refused: [],
  held: claims,
  now: NOW,
  ...over,
});

describe("overlaps", () => {
  it.each([
    ["a.ts", "a.ts", true],
    ["src", "src/a.ts", true],
    ["src/a.ts", "src", true],
    ["src", "src2/a.ts", false],
    ["src/a.ts", "src/b.ts", false],
    [".", "anything/at/all", true],
  ])("%s vs %s → %s", (a, b, want) => {
    expect(overlaps({ worktree: WT, path: a }, { worktree: WT, path: b })).toBe(want);
  });

  it("never overlaps the same path in two worktrees", () => {
    expect(overlaps({ worktree: "/wt1", path: "a.ts" }, { worktree: "/wt2", path: "a.ts" })).toBe(false);
  });
});

describe("decideClaims", () => {
  const peer = holder("peer");

  it("acquires a free target", () => {
    expect(decideClaims(req([target("a.ts")], []))).toEqual({
      allow: true,
      acquire: [target("a.ts")],
      takeovers: [],
    });
  });

  it("does not re-acquire a target the caller already holds", () => {
    const mine = held("a.ts", holder("me"));
    expect(decideClaims(req([target("a.ts"), target("b.ts")], [mine]))).toMatchObject({
      allow: true,
      acquire: [target("b.ts")],
    });
  });

  it("refuses a file a live peer holds", () => {
    const d = decideClaims(req([target("a.ts")], [held("a.ts", peer)]));
    expect(d).toMatchObject({ allow: false, conflicts: [{ target: target("a.ts") }] });
  });

  it("refuses the whole call when one of several targets conflicts (all or nothing)", () => {
    const d = decideClaims(
      req([target("free1.ts"), target("a.ts"), target("free2.ts")], [held("a.ts", peer)]),
    );
    expect(d.allow).toBe(false);
  });

  it("refuses a file inside a directory a peer holds, and a directory containing a peer's file", () => {
    expect(decideClaims(req([target("src/a.ts")], [held("src", peer)])).allow).toBe(false);
    expect(decideClaims(req([target("src")], [held("src/a.ts", peer)])).allow).toBe(false);
  });

  it("lets a parent and its sub-agents share files", () => {
    const child = holder("child", { group: "me" });
    expect(decideClaims(req([target("a.ts")], [held("a.ts", child)]))).toMatchObject({
      allow: true,
      acquire: [target("a.ts")],
    });
  });

  it("takes over a stale session's claim", () => {
    const stale = held("a.ts", holder("old", { live: false }));
    expect(decideClaims(req([target("a.ts")], [stale]))).toEqual({
      allow: true,
      acquire: [target("a.ts")],
      takeovers: [stale],
    });
  });

  it("takes over a live peer's claim on a committed, clean file once the grace period passed", () => {
    const clean = held("a.ts", peer, { clean: true, acquiredAt: NOW - CLEAN_TAKEOVER_GRACE_MS });
    expect(decideClaims(req([target("a.ts")], [clean]))).toMatchObject({ allow: true, takeovers: [clean] });
  });

  it("does not take over a clean file claimed moments ago: its holder may be about to write it", () => {
    const fresh = held("a.ts", peer, { clean: true, acquiredAt: NOW - 1000 });
    expect(decideClaims(req([target("a.ts")], [fresh])).allow).toBe(false);
  });

  it("does not take over when cleanliness is unknown", () => {
    const unknown = held("a.ts", peer, { clean: null, acquiredAt: NOW - 10 * CLEAN_TAKEOVER_GRACE_MS });
    expect(decideClaims(req([target("a.ts")], [unknown])).allow).toBe(false);
  });

  it("refuses everything when a target was refused before claiming", () => {
    const d = decideClaims(
      req([target("a.ts")], [], { refused: [{ raw: "/tmp/x", rule: "outside-roots", reason: "outside" }] }),
    );
    expect(d).toMatchObject({ allow: false, refused: [{ raw: "/tmp/x" }], conflicts: [] });
  });

  it("claims each target once even when named twice", () => {
    const d = decideClaims(req([target("a.ts"), target("a.ts")], []));
    expect(d).toMatchObject({ allow: true, acquire: [target("a.ts")] });
  });
});

describe("denialMessage", () => {
  it("names every refused target, its holder, task and last-seen age, and what to do", () => {
    const d = decideClaims(
      req(
        [target("a.ts"), target("src/b.ts")],
        [
          held("a.ts", holder("p1", { name: "agent-wren", task: "fix parser" })),
          held("src", holder("p2", { name: "agent-lark", task: null, lastSeen: NOW - 125_000 })),
        ],
      ),
    );
    if (d.allow) throw new Error("expected a denial");
    const msg = denialMessage(d, NOW);
    expect(msg).toContain('a.ts: held by agent-wren (codex, task "fix parser", last seen 5s ago)');
    expect(msg).toContain(
      "src/b.ts: held by agent-lark (codex, no task declared, last seen 2m ago) (it holds src)",
    );
    expect(msg).toMatch(/What to do: .*agent-wren, agent-lark commits/);
    expect(msg).toMatch(/nothing was claimed/);
  });

  it("names a file the tool gave as an absolute path repository-relative, as for Bash", () => {
    const edit = { ...target("src/b.ts"), raw: `${WT}/src/b.ts` };
    const d = decideClaims(req([edit], [held("src/b.ts", holder("p1"))]));
    if (d.allow) throw new Error("expected a denial");
    const msg = denialMessage(d, NOW);
    expect(msg).toContain("- src/b.ts: held by");
    expect(msg).not.toContain(WT);
  });
});

describe("claim keys folded as the filesystem folds names (issue 37.8)", () => {
  const peer = holder("peer");
  const CASE = { caseless: true, normalizes: false };
  const MAC = { caseless: true, normalizes: true };
  it.each([
    // [target, a peer holds, fold, refused?]
    ["F.TXT", "f.txt", undefined, false],
    ["F.TXT", "f.txt", CASE, true],
    ["SRC/a.ts", "src", CASE, true],
    ["src/A.ts", "src/b.ts", MAC, false],
    ["caf\u00e9.md", "CAFE\u0301.MD", MAC, true],
    ["caf\u00e9.md", "cafe\u0301.md", CASE, false],
  ])("%s while a peer holds %s, fold %o: refused %s", (t, h, fold, refused) => {
    const d = decideClaims(req([target(t)], [held(h, peer)], fold ? { fold } : {}));
    expect(!d.allow).toBe(refused);
    // The conflict names both paths as they were written.
    if (!d.allow) expect([d.conflicts[0]!.target.path, d.conflicts[0]!.claim.path]).toEqual([t, h]);
  });

  it("acquires one claim for names that fold alike, and none for a name it already holds folded", () => {
    const d = decideClaims(
      req([target("A.txt"), target("a.TXT")], [held("DIR/x", holder("me"))], { fold: CASE }),
    );
    expect(d.allow && d.acquire.map((t) => t.path)).toEqual(["A.txt"]);
    const again = decideClaims(req([target("dir/X")], [held("DIR/x", holder("me"))], { fold: CASE }));
    expect(again.allow && again.acquire).toEqual([]);
  });

  it("compares worktrees folded too", () => {
    expect(overlaps({ worktree: "/Repo", path: "a" }, { worktree: "/repo", path: "A" }, CASE)).toBe(true);
    expect(overlaps({ worktree: "/Repo", path: "a" }, { worktree: "/repo", path: "A" })).toBe(false);
  });
});
