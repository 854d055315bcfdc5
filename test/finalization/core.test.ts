import { describe, expect, it } from "vitest";
import { contestedPaths, hiddenFlags } from "../../src/core/finalization/owned.js";
import {
  evaluate,
  type FinalizationInput,
  type GitFacts,
  passed,
  type RepoFacts,
  type SyncFacts,
  syncVerdict,
} from "../../src/core/finalization/verdict.js";
import { parseStatus } from "../../src/core/git/status.js";
import type { TargetFacts } from "../../src/core/guards/target-plan.js";
import type { Classification } from "../../src/core/paths/roots.js";
import { statusFacts } from "../../src/finalization/status-facts.js";

const R = "/w/repo";
const OID = "a".repeat(40);
const pushed: SyncFacts = {
  head: OID,
  branch: "main",
  upstream: "origin/main",
  ahead: 0,
  containedIn: null,
  remotes: null,
};

const git = (physical: string): TargetFacts => ({
  raw: physical,
  ok: true,
  physical,
  escape: null,
  classification: { kind: "git", root: R, repoTop: R },
});
const classified = (physical: string, classification: Classification): TargetFacts => ({
  raw: physical,
  ok: true,
  physical,
  escape: null,
  classification,
});

function input(over: Partial<FinalizationInput> & { repo?: Partial<RepoFacts> } = {}): FinalizationInput {
  const paths = over.paths ?? [git(`${R}/a.txt`)];
  const pathRepo: GitFacts["pathRepo"] = Object.fromEntries(
    paths
      .filter((p) => p.ok && p.classification.kind === "git")
      .map((p) => [p.ok ? p.physical : "", { top: R }]),
  );
  const repo = {
    top: R,
    ok: true,
    dirty: [],
    sync: pushed,
    tags: [],
    ignored: [],
    ...over.repo,
  } as RepoFacts;
  return {
    incompleteHistory: over.incompleteHistory ?? false,
    paths,
    peerOwned: over.peerOwned ?? [],
    createdStashes: over.createdStashes ?? [],
    git: over.git ?? { pathRepo, repos: [repo], gitlinks: [], blocked: [], stashes: [] },
  };
}

describe("syncVerdict", () => {
  const cases: [string, Partial<SyncFacts>, string | null][] = [
    ["unborn branch: nothing to push", { head: null, ahead: null }, null],
    ["upstream, nothing ahead", {}, null],
    ["upstream, two ahead", { ahead: 2 }, "ahead 2"],
    [
      "no upstream, a remote ref contains HEAD",
      { upstream: null, ahead: null, containedIn: ["refs/remotes/o/x"] },
      null,
    ],
    ["no upstream, no remote at all", { upstream: null, ahead: null, containedIn: [], remotes: [] }, null],
    [
      "no upstream, not on any remote ref",
      { upstream: null, ahead: null, containedIn: [], remotes: ["origin"] },
      "it has no upstream and no remote-tracking ref contains aaaaaaaaaaaa",
    ],
    [
      "detached, not on any remote ref",
      { branch: null, upstream: null, ahead: null, containedIn: [], remotes: ["origin"] },
      "detached HEAD aaaaaaaaaaaa is on no remote-tracking ref",
    ],
    [
      "upstream gone",
      { ahead: null, containedIn: [], remotes: ["origin"] },
      "its upstream origin/main is gone and no remote-tracking ref contains aaaaaaaaaaaa",
    ],
    [
      "detached, contained",
      { branch: null, upstream: null, ahead: null, containedIn: ["refs/remotes/o/m"] },
      null,
    ],
  ];
  it.each(cases)("%s", (_name, over, expected) => {
    const v = syncVerdict(R, { ...pushed, ...over });
    if (expected === null) expect(v).toEqual({ kind: "pushed" });
    else if (expected.startsWith("ahead")) {
      expect(v).toEqual({
        kind: "unpushed",
        finding: { repo: R, branch: "main", upstream: "origin/main", ahead: 2 },
      });
    } else expect(v).toMatchObject({ kind: "unpushed", finding: { repo: R, reason: expected } });
  });

  it("fails closed when the containment probe never answered", () => {
    expect(syncVerdict(R, { ...pushed, upstream: null, ahead: null })).toMatchObject({
      kind: "unverifiable",
    });
  });
});

describe("evaluate: whose dirt is it", () => {
  const dirty = (path: string) => ({ repo: { dirty: [{ path, state: ".M" }] } });
  const cases: [string, Partial<FinalizationInput> & { repo?: Partial<RepoFacts> }, boolean][] = [
    ["an owned dirty file", { ...dirty("a.txt") }, true],
    ["a dirty file nobody owns", { ...dirty("other.txt") }, false],
    [
      "a peer's file inside a directory this session owns",
      { paths: [git(`${R}/d`)], peerOwned: [`${R}/d/p.txt`], ...dirty("d/p.txt") },
      false,
    ],
    [
      "nobody's file inside a directory this session owns",
      { paths: [git(`${R}/d`)], ...dirty("d/n.txt") },
      true,
    ],
    ["a file both this session and a peer own", { peerOwned: [`${R}/a.txt`], ...dirty("a.txt") }, true],
    [
      "an owned file inside a directory a peer owns",
      { paths: [git(`${R}/d/a.txt`)], peerOwned: [`${R}/d`], ...dirty("d/a.txt") },
      true,
    ],
    [
      "the whole repository owned (a submodule touched as one path)",
      { paths: [git(R)], ...dirty("x/y.txt") },
      true,
    ],
  ];
  it.each(cases)("%s", (_name, over, counts) => {
    const f = evaluate(input(over));
    expect(f.dirty.length > 0).toBe(counts);
    expect(passed(f)).toBe(!counts);
  });
});

describe("contestedPaths", () => {
  it("names the dirty, flagged and ignored paths of each readable repository, and nothing of a clean one", () => {
    const repo = (over: Partial<RepoFacts>, top = R) =>
      ({ top, ok: true, dirty: [], sync: pushed, tags: [], ignored: [], ...over }) as RepoFacts;
    expect(contestedPaths([repo({}), { top: "/w/broken", ok: false, error: "x" }])).toEqual([]);
    expect(
      contestedPaths([
        repo({
          dirty: [{ path: "a.txt", state: ".M" }],
          tags: [
            { tag: "H", path: "plain.txt" },
            { tag: "S", path: "skipped.txt" },
          ],
          ignored: ["build/", "run.log"],
        }),
        repo({ dirty: [{ path: "x", state: "??" }] }, "/"),
      ]),
    ).toEqual([`${R}/a.txt`, `${R}/skipped.txt`, `${R}/build`, `${R}/run.log`, "/x"]);
  });
});

describe("evaluate: classification and facts become findings", () => {
  it("turns every non-Git classification except output into an unsupported finding", () => {
    const paths = [
      classified("/out/a", { kind: "output", root: "/out" }),
      classified("/tmp/x", { kind: "outside", reason: "outside", remedy: "configure" }),
      classified("/bad/y", { kind: "invalid-root", root: "/bad", reason: "invalid", remedy: "fix config" }),
      classified("/o/n/z", { kind: "unsupported", root: "/o", reason: "nested", remedy: "narrow" }),
      {
        ...git(`${R}/l/f`),
        escape: { root: R, lexical: `${R}/l/f`, physical: "/elsewhere/f" },
        physical: "/elsewhere/f",
      },
    ];
    const f = evaluate(
      input({ paths, git: { pathRepo: {}, repos: [], gitlinks: [], blocked: [], stashes: [] } }),
    );
    expect(f.unsupported.map((u) => [u.path, u.kind])).toEqual([
      ["/bad/y", "invalid-root"],
      ["/o/n/z", "nested-repo"],
      ["/tmp/x", "outside-roots"],
      [`${R}/l/f`, "symlink-escape"],
    ]);
    expect(f.unsupported.find((u) => u.kind === "outside-roots")?.remedy).toBe("configure");
  });

  it("fails closed on everything it could not establish", () => {
    const paths: TargetFacts[] = [
      { raw: "rel:x", ok: false, reason: "not absolute" },
      git(`${R}/a.txt`),
      git("/w/other/b.txt"),
      git("/w/lost/c.txt"),
    ];
    const f = evaluate({
      incompleteHistory: false,
      paths,
      peerOwned: [],
      createdStashes: [],
      git: {
        pathRepo: {
          [`${R}/a.txt`]: { top: R },
          "/w/other/b.txt": { error: "no Git working tree contains it" },
        },
        repos: [{ top: R, ok: false, error: "git status failed" }],
        gitlinks: [],
        blocked: [{ repo: "/w", reason: "outside the roots" }],
        stashes: [],
      },
    });
    expect(f.unverifiable).toEqual([
      { repo: "/w", reason: "outside the roots" },
      { path: "/w/lost/c.txt", reason: "its repository was never examined" },
      { path: "/w/other/b.txt", reason: "no Git working tree contains it" },
      { repo: R, reason: "git status failed" },
      { path: "rel:x", reason: "it cannot be located: not absolute" },
    ]);
    expect(passed(f)).toBe(false);
  });

  it("flags an owned repository that has no facts", () => {
    const f = evaluate(
      input({
        git: { pathRepo: { [`${R}/a.txt`]: { top: R } }, repos: [], gitlinks: [], blocked: [], stashes: [] },
      }),
    );
    expect(f.unverifiable).toEqual([{ path: `${R}/a.txt`, reason: `its repository ${R} was not examined` }]);
  });

  const B = "b".repeat(40);
  it.each([
    ["all three agree", OID, OID, OID, false],
    ["child moved", OID, OID, B, true],
    ["staged, not committed", OID, B, B, true],
    ["committed, child elsewhere", B, B, OID, true],
    ["removed from the index", OID, null, OID, true],
  ] as const)("gitlink: %s", (_n, parentHead, parentIndex, childHead, mismatch) => {
    const link = { superproject: "/w", path: "repo", parentHead, parentIndex, childHead };
    const base = input();
    const f = evaluate({ ...base, git: { ...base.git, gitlinks: [link] } });
    expect(f.gitlinkMismatch).toEqual(mismatch ? [link] : []);
  });

  it("does not pass an incomplete history even when nothing else is wrong", () => {
    const f = evaluate(input({ incompleteHistory: true }));
    expect(f).toMatchObject({ incompleteHistory: true, dirty: [], unpushed: [] });
    expect(passed(f)).toBe(false);
    expect(passed(evaluate(input()))).toBe(true);
  });
});

describe("statusFacts", () => {
  it("reads branch headers and every entry kind, with spaces in paths", () => {
    const out = [
      "# branch.oid 0123456789abcdef0123456789abcdef01234567",
      "# branch.head feature/x",
      "# branch.upstream origin/feature/x",
      "# branch.ab +3 -1",
      "1 .M N... 100644 100644 100644 aaa bbb dir/a file.txt",
      "1 A. N... 000000 100644 100644 000 ccc new.txt",
      "2 R. N... 100644 100644 100644 aaa aaa R100 to name.txt",
      "from name.txt",
      "u UU N... 100644 100644 100644 100644 a b c conflict.txt",
      "? untracked dir/u.txt",
      "",
    ].join("\0");
    expect(statusFacts(parseStatus(out))).toEqual({
      links: new Map(),
      ignored: [],
      dirty: [
        { path: "dir/a file.txt", state: ".M" },
        { path: "new.txt", state: "A." },
        { path: "to name.txt", state: "R." },
        { path: "conflict.txt", state: "UU" },
        { path: "untracked dir/u.txt", state: "??" },
      ],
      sync: {
        head: "0123456789abcdef0123456789abcdef01234567",
        branch: "feature/x",
        upstream: "origin/feature/x",
        ahead: 3,
        behind: 1,
        containedIn: null,
        remotes: null,
      },
    });
  });

  it("reads an unborn branch, a detached HEAD and a gone upstream", () => {
    expect(statusFacts(parseStatus("# branch.oid (initial)\0# branch.head main\0")).sync).toMatchObject({
      head: null,
      branch: "main",
    });
    expect(statusFacts(parseStatus(`# branch.oid ${OID}\0# branch.head (detached)\0`)).sync).toMatchObject({
      head: OID,
      branch: null,
    });
    expect(
      statusFacts(parseStatus(`# branch.oid ${OID}\0# branch.head m\0# branch.upstream o/m\0`)).sync,
    ).toMatchObject({
      upstream: "o/m",
      ahead: null,
    });
  });

  const H = "1".repeat(40);
  const I = "2".repeat(40);
  it.each<[string, string, Record<string, unknown>]>([
    [
      "a moved pointer gives HEAD's and the index's commits",
      `1 .M SC.. 160000 160000 160000 ${H} ${I} sub`,
      { sub: { kind: "changed", head: H, index: I } },
    ],
    [
      "a staged removal has no index commit",
      `1 D. N... 160000 000000 000000 ${H} ${"0".repeat(40)} sub`,
      { sub: { kind: "changed", head: H, index: null } },
    ],
    [
      "a newly added pointer has no HEAD commit",
      `1 A. N... 000000 160000 160000 ${"0".repeat(40)} ${I} sub`,
      { sub: { kind: "changed", head: null, index: I } },
    ],
    ["an untracked repository is independent", "? sub/", { sub: { kind: "independent" } }],
    ["an ignored repository is independent", "! sub/", { sub: { kind: "independent" } }],
    [
      "a repository inside an ignored directory is independent",
      "! vendor/",
      { "vendor/lib": { kind: "independent" } },
    ],
    [
      "a conflicted pointer is unmerged",
      `u UU N... 160000 160000 160000 160000 ${H} ${I} ${H} sub`,
      { sub: { kind: "unmerged" } },
    ],
    ["paths not asked about are not recorded", `1 .M N... 100644 100644 100644 ${H} ${I} other`, {}],
    ["a sibling directory with a common prefix is not the path", "! sub2/", {}],
  ])("link records: %s", (_name, record, expected) => {
    const asked = new Set(["sub", "vendor/lib"]);
    expect(Object.fromEntries(statusFacts(parseStatus(`${record}\0`), asked).links)).toEqual(expected);
  });
});

describe("work git status does not show", () => {
  it.each([
    ["H", []],
    ["S", ["skip-worktree"]],
    ["h", ["assume-unchanged"]],
    ["s", ["skip-worktree", "assume-unchanged"]],
    ["M", []],
    ["?", []],
  ] as const)("ls-files -v tag %s means %j", (tag, flags) => {
    expect(hiddenFlags(tag)).toEqual(flags);
  });

  it.each<[string, Partial<RepoFacts>, string[], unknown[]]>([
    [
      "an owned skip-worktree file",
      { tags: [{ tag: "S", path: "a.txt" }] },
      [],
      [["a.txt", ["skip-worktree"]]],
    ],
    ["an owned cached file", { tags: [{ tag: "H", path: "a.txt" }] }, [], []],
    ["a flagged file a peer owns closer", { tags: [{ tag: "h", path: "d/p.txt" }] }, [`${R}/d/p.txt`], []],
  ])("index flags: %s", (_n, repo, peers, hidden) => {
    const paths = [git(`${R}/a.txt`), git(`${R}/d`)];
    const f = evaluate(input({ paths, repo, peerOwned: peers }));
    expect(f.hidden.map((h) => [h.path, h.flags])).toEqual(hidden);
    expect(passed(f)).toBe(hidden.length === 0);
  });

  it.each<[string, string[], string[]]>([
    ["an owned ignored file", ["a.txt"], ["a.txt"]],
    ["an owned file inside an ignored directory", ["d/"], ["d/f.txt"]],
    ["an ignored file under an owned directory", ["o/x.o"], ["o/x.o"]],
    ["an ignored file nobody owns", ["other.log"], []],
  ])("ignored: %s is shown and never fails", (_n, ignored, shown) => {
    const paths = [git(`${R}/a.txt`), git(`${R}/d/f.txt`), git(`${R}/o`)];
    const f = evaluate(input({ paths, repo: { ignored } }));
    expect(f.ignored.map((i) => i.path)).toEqual(shown);
    expect(passed(f)).toBe(true);
  });

  const S1 = "1".repeat(40);
  const S2 = "2".repeat(40);
  it.each<[string, GitFacts["stashes"], unknown]>([
    ["still stashed", [{ repo: R, present: [S2, S1] }], { stashed: [{ sha: S1, ref: "stash@{1}" }] }],
    ["popped or dropped", [{ repo: R, present: [S2] }], {}],
    ["stash unreadable", [{ repo: R, error: "boom" }], { unverifiable: [{ repo: R, reason: "boom" }] }],
    ["stash never read", [], { unverifiable: [{ repo: R, reason: "its stash was not examined" }] }],
  ])("a stash entry the session created: %s", (_n, stashes, expected) => {
    const base = input({ createdStashes: [{ repo: R, sha: S1, message: "On main: wip" }] });
    const f = evaluate({ ...base, git: { ...base.git, stashes } });
    const got: Record<string, unknown> = {};
    if (f.stashed.length) got.stashed = f.stashed.map((s) => ({ sha: s.sha, ref: s.ref }));
    if (f.unverifiable.length) got.unverifiable = f.unverifiable;
    expect(got).toEqual(expected);
    expect(passed(f)).toBe(Object.keys(expected as object).length === 0);
  });
});

describe("statusFacts ignored records", () => {
  it("lists ignored files and directories apart from dirt", () => {
    const out = ["! build/", "! run.log", "? new.txt", ""].join("\0");
    const parsed = statusFacts(parseStatus(out));
    expect(parsed.ignored).toEqual(["build/", "run.log"]);
    expect(parsed.dirty).toEqual([{ path: "new.txt", state: "??" }]);
  });
});
