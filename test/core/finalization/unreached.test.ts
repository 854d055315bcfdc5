/** Issue 37.4, the pure half: which reflog commits need a look, which orphan versions are lost work. */
import { describe, expect, it } from "vitest";
import { formatFindings } from "../../../src/core/finalization/format.js";
import {
  lostWork,
  type OrphanVersion,
  type ReflogEntry,
  sessionCommits,
} from "../../../src/core/finalization/unreached.js";
import { emptyFindings, evaluate, passed } from "../../../src/core/finalization/verdict.js";
import { parseReflogLine } from "../../../src/finalization/unreached-facts.js";

const c = (n: number) => String(n).repeat(40).slice(0, 40);
const ZERO = "0".repeat(40);
const e = (old: number, nu: number, time: number, message: string): ReflogEntry => ({
  old: old === 0 ? ZERO : c(old),
  new: c(nu),
  time,
  message,
});

describe("sessionCommits: the reflog as the cheap signal", () => {
  const cases: { name: string; entries: ReflogEntry[]; head: number; want: number[] }[] = [
    {
      name: "no movement since the session started",
      entries: [e(0, 1, 50, "clone: from x")],
      head: 1,
      want: [],
    },
    {
      name: "a straight run of commits ending at HEAD",
      entries: [e(1, 2, 100, "commit: a"), e(2, 3, 101, "commit: b")],
      head: 3,
      want: [],
    },
    {
      name: "reset --keep HEAD~1 leaves the commit behind",
      entries: [e(1, 2, 100, "commit: a"), e(2, 1, 101, "reset: moving to HEAD~1")],
      head: 1,
      want: [2],
    },
    {
      name: "a side branch committed on and left",
      entries: [
        e(1, 1, 100, "checkout: moving from main to side"),
        e(1, 2, 100, "commit: side"),
        e(2, 1, 101, "checkout: moving from side to main"),
      ],
      head: 1,
      want: [2],
    },
    {
      name: "an amend supersedes the commit it replaced",
      entries: [e(1, 2, 100, "commit: a"), e(2, 3, 101, "commit (amend): a")],
      head: 3,
      want: [],
    },
    {
      name: "moves before the session started are not its own",
      entries: [
        e(1, 2, 10, "commit: old"),
        e(2, 1, 11, "reset: moving to HEAD~1"),
        e(1, 3, 100, "commit: a"),
      ],
      head: 3,
      want: [],
    },
  ];
  for (const t of cases) {
    it(t.name, () => {
      expect(sessionCommits(t.entries, 100, c(t.head))).toEqual(t.want.map(c));
    });
  }

  it("parses a reflog line, message with tabs and all", () => {
    expect(parseReflogLine(`${c(1)} ${c(2)} A U Thor <a@b> 1700000000 +0100\tcommit: x\ty`)).toEqual({
      old: c(1),
      new: c(2),
      time: 1700000000,
      message: "commit: x\ty",
    });
    expect(parseReflogLine("")).toBeNull();
  });
});

describe("lostWork: the newest orphan version of each path", () => {
  const R = "/w/repo";
  const o = (path: string, sha: number, time: number, blob: string | null): OrphanVersion => ({
    path,
    sha: c(sha),
    time,
    blob,
    where: { kind: "reflog" },
  });
  const cases: {
    name: string;
    orphans: OrphanVersion[];
    head: Record<string, { blob: string | null; time: number | null }>;
    want: string[];
  }[] = [
    { name: "a path HEAD never had", orphans: [o("a", 1, 100, "b1")], head: {}, want: ["a"] },
    {
      name: "HEAD holds the same bytes (popped and committed)",
      orphans: [o("a", 1, 100, "b1")],
      head: { a: { blob: "b1", time: 100 } },
      want: [],
    },
    {
      name: "HEAD committed the path later (superseded)",
      orphans: [o("a", 1, 100, "b1")],
      head: { a: { blob: "b2", time: 101 } },
      want: [],
    },
    {
      name: "HEAD's other bytes are older or the same second",
      orphans: [o("a", 1, 100, "b1")],
      head: { a: { blob: "b2", time: 100 } },
      want: ["a"],
    },
    {
      name: "only the newest orphan of a path counts",
      orphans: [o("a", 1, 100, "b1"), o("a", 2, 105, "b2")],
      head: { a: { blob: "b2", time: 90 } },
      want: [],
    },
    {
      name: "an orphan deletion HEAD does not share",
      orphans: [o("a", 1, 100, null)],
      head: { a: { blob: "b0", time: 50 } },
      want: ["a"],
    },
  ];
  for (const t of cases) {
    it(t.name, () => {
      expect(lostWork({ repo: R, orphans: t.orphans, head: t.head }).map((f) => f.path)).toEqual(t.want);
    });
  }

  it("fails the verdict, except for a path that is dirty now, and says how to restore each", () => {
    const repo = {
      top: R,
      ok: true as const,
      dirty: [{ path: "d", state: ".M" }],
      sync: {
        head: c(9),
        branch: "main",
        upstream: "origin/main",
        ahead: 0,
        containedIn: null,
        remotes: null,
      },
      tags: [],
      ignored: [],
    };
    const f = evaluate({
      incompleteHistory: false,
      paths: [],
      peerOwned: [],
      createdStashes: [],
      git: {
        pathRepo: {},
        repos: [repo],
        gitlinks: [],
        blocked: [],
        stashes: [],
        unreached: [
          {
            repo: R,
            head: {},
            orphans: [
              { ...o("a", 1, 100, "b"), where: { kind: "branch", branches: ["side"] } },
              { ...o("d", 2, 100, "b"), where: { kind: "reflog" } },
              { ...o("s", 3, 100, "b"), where: { kind: "stash", stash: c(3) } },
            ],
          },
        ],
      },
    });
    expect(passed(f)).toBe(false);
    expect(f.unreached.map((u) => [u.path, u.kind])).toEqual([
      ["a", "branch"],
      ["s", "stash"],
    ]);
    const text = formatFindings(f);
    expect(text).toContain(`${R}: a: last committed in ${c(1).slice(0, 12)}, only on the local branch side`);
    expect(text).toContain(`git -C ${R} push -u <remote> side`);
    expect(text).toContain(`git -C ${R} stash apply ${c(3)}, then commit and push`);
    expect(passed(emptyFindings())).toBe(true);
  });

  it("counts git failing to answer as unverifiable, never as passed", () => {
    const f = evaluate({
      incompleteHistory: false,
      paths: [],
      peerOwned: [],
      createdStashes: [],
      git: {
        pathRepo: {},
        repos: [],
        gitlinks: [],
        blocked: [],
        stashes: [],
        unreached: [{ repo: R, head: {}, orphans: [], error: "boom" }],
      },
    });
    expect(f.unverifiable).toEqual([{ repo: R, reason: "boom" }]);
  });
});
