import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { g, initRepo, tempDir, writeFiles } from "../helpers/repo.js";
import { buildFixture, dirtyPathsChangedBy, impactOf, NO_INDEX, sharedDir } from "./impact-fixture.js";

const ALL_TRACKED = ["dirty.txt", "staged.txt", "sub/deep.txt"];
const UNSTAGED = ["dirty.txt", "sub/deep.txt"];
/** Every tracked change, plus new.txt, which side tracks and would overwrite. */
const FORCED_TO_SIDE = ["dirty.txt", "new.txt", "staged.txt", "sub/deep.txt"];

type Row = [line: string, atRisk: string[], cwd?: string];

/**
 * Each row's exact at-risk list, read from one shared fixture that no row changes. A command
 * whose words alone show nothing at risk runs no git, so its repoTop is not looked up.
 */
function table(rows: Row[]) {
  const dir = sharedDir();
  let repo = "";
  beforeAll(() => {
    repo = buildFixture(dir());
    g(repo, "update-ref", "refs/remotes/origin/feature", "side");
  });
  for (const [line, atRisk, cwd = ""] of rows) {
    it(`git ${line}${cwd ? ` (in ${cwd}/)` : ""} puts ${JSON.stringify(atRisk)} at risk`, () => {
      const impact = impactOf(repo, line, cwd);
      expect(impact).toMatchObject({ atRisk, committed: [], unknown: null });
      if (atRisk.length > 0) expect(impact.repoTop).toBe(repo);
    });
  }
}

describe("checkout over dirty work", () => {
  table([
    ["checkout .", UNSTAGED],
    ["checkout -- .", UNSTAGED],
    ["checkout -- dirty.txt", ["dirty.txt"]],
    ["checkout dirty.txt", ["dirty.txt"]],
    ["checkout sub", ["sub/deep.txt"]],
    ["checkout -- sub/", ["sub/deep.txt"]],
    ["checkout -- *.txt", UNSTAGED],
    ["checkout -- :(glob)*.txt", ["dirty.txt"]],
    ["checkout -p", UNSTAGED],
    ["checkout -f -- .", UNSTAGED],
    ["checkout --theirs -- .", UNSTAGED],
    ["checkout HEAD -- .", ALL_TRACKED],
    ["checkout side -- .", FORCED_TO_SIDE],
    ["checkout side dirty.txt new.txt", ["dirty.txt", "new.txt"]],
    ["checkout .", ["sub/deep.txt"], "sub"],
    ["checkout -- ../dirty.txt", ["dirty.txt"], "sub"],
    ["checkout -- :/dirty.txt", ["dirty.txt"], "sub"],
    ["checkout side", []],
    ["checkout main", []],
    ["checkout -b topic", []],
    ["checkout -f side", FORCED_TO_SIDE],
    ["checkout --force side", FORCED_TO_SIDE],
    ["checkout -f", ALL_TRACKED],
    ["checkout -fb topic side", FORCED_TO_SIDE],
    ["checkout -m side", ["dirty.txt", "new.txt", "staged.txt"]],
    ["checkout feature", []],
    ["checkout -f feature", FORCED_TO_SIDE],
  ]);
});

describe("restore and switch over dirty work", () => {
  table([
    ["restore .", UNSTAGED],
    ["restore --worktree -- dirty.txt staged.txt", ["dirty.txt"]],
    ["restore --staged .", []],
    ["restore -SW .", ALL_TRACKED],
    ["restore -s side -- dirty.txt clean.txt", ["dirty.txt"]],
    ["restore --source side .", FORCED_TO_SIDE],
    ["restore deep.txt", ["sub/deep.txt"], "sub"],
    ["switch side", []],
    ["switch -f side", FORCED_TO_SIDE],
    ["switch --discard-changes side", FORCED_TO_SIDE],
    ["switch -m side", ["dirty.txt", "new.txt", "staged.txt"]],
  ]);
});

describe("stash, reset, rm and mv over dirty work", () => {
  table([
    ["stash", ALL_TRACKED],
    ["stash push", ALL_TRACKED],
    ["stash save wip", ALL_TRACKED],
    ["stash -u", ["dirty.txt", "new.txt", "staged.txt", "sub/deep.txt", "sub/new.txt"]],
    ["stash -a", ["debug.log", "dirty.txt", "new.txt", "staged.txt", "sub/deep.txt", "sub/new.txt"]],
    ["stash -k", UNSTAGED],
    ["stash --staged", ["staged.txt"]],
    ["stash -- sub", ["sub/deep.txt"]],
    ["stash push -u sub", ["sub/deep.txt", "sub/new.txt"]],
    ["stash push -u .", ["sub/deep.txt", "sub/new.txt"], "sub"],
    ["reset --hard", ALL_TRACKED],
    ["reset --hard side", FORCED_TO_SIDE],
    ["reset", []],
    ["reset --soft HEAD~1", []],
    ["reset --merge", ["staged.txt"]],
    ["reset --keep side", ["dirty.txt", "new.txt", "staged.txt"]],
    ["rm dirty.txt", ["dirty.txt"]],
    ["rm -rf sub", ["sub/deep.txt"]],
    ["rm -f -- *.txt", ALL_TRACKED],
    ["rm --cached staged.txt", []],
    ["rm clean.txt", []],
    ["mv dirty.txt moved.txt", ["dirty.txt"]],
    ["mv -f clean.txt new.txt", ["new.txt"]],
    ["mv sub moved", ["sub/deep.txt", "sub/new.txt"]],
    ["mv clean.txt sub", []],
    ["mv dirty.txt staged.txt sub", ["dirty.txt", "staged.txt"]],
    ["mv deep.txt ../new.txt", ["new.txt", "sub/deep.txt"], "sub"],
  ]);
});

describe("clean over untracked and ignored files", () => {
  table([
    ["clean -f", ["new.txt", "sub/new.txt"]],
    ["clean -fd", ["new.txt", "sub/new.txt"]],
    ["clean -fx", ["debug.log", "new.txt", "sub/new.txt"]],
    ["clean -fX", ["debug.log"]],
    ["clean -f sub", ["sub/new.txt"]],
    ["clean -f -e new.txt", []],
    ["clean -f --exclude=/new.txt", ["sub/new.txt"]],
    ["clean -f", ["sub/new.txt"], "sub"],
    ["clean -f ..", ["new.txt", "sub/new.txt"], "sub"],
    ["clean -n", []],
  ]);

  it("opens up the directories it would remove and reads names git quotes", () => {
    const repo = buildFixture(tempDir());
    const odd = ["odd\nname.txt", 'q"uote.txt', "é.txt", "-dash.txt", "sp ace.txt", "tab\there.txt"];
    writeFiles(repo, Object.fromEntries(odd.map((name) => [`scratch dir/${name}`, "x\n"])));
    writeFiles(repo, { "scratch dir/inner/deep.log": "ignored\n", "top\nodd.txt": "x\n" });
    const inScratch = odd.map((name) => `scratch dir/${name}`);
    expect(impactOf(repo, "clean -f").atRisk).toEqual(["new.txt", "sub/new.txt", "top\nodd.txt"]);
    const withDirs = impactOf(repo, "clean -fd").atRisk;
    expect(withDirs).toEqual([...inScratch, "new.txt", "sub/new.txt", "top\nodd.txt"].sort());
    const everything = impactOf(repo, "clean -fdx").atRisk;
    expect(everything).toEqual(
      [
        ...inScratch,
        "scratch dir/inner/deep.log",
        "debug.log",
        "new.txt",
        "sub/new.txt",
        "top\nodd.txt",
      ].sort(),
    );
    expect(dirtyPathsChangedBy(repo, "clean -fdx")).toEqual(everything);
  });
});

describe("what the command really does to the dirty paths", () => {
  const cases: [line: string, cwd?: string][] = [
    ["checkout ."],
    ["checkout -- *.txt"],
    ["checkout dirty.txt"],
    ["checkout side -- ."],
    ["checkout -f side"],
    ["checkout -f"],
    ["restore -SW ."],
    ["restore ."],
    ["switch -f side"],
    ["stash"],
    ["stash -u"],
    ["stash -a"],
    ["stash -k"],
    ["stash -- sub"],
    ["reset --hard"],
    ["reset --hard side"],
    ["reset --merge"],
    ["clean -f"],
    ["clean -fdx"],
    ["clean -fX"],
    ["clean -f", "sub"],
    ["rm -f dirty.txt"],
    ["rm -rf sub"],
    ["mv -f clean.txt new.txt"],
  ];
  for (const [line, cwd = ""] of cases) {
    it(`git ${line}${cwd ? ` (in ${cwd}/)` : ""} changes exactly the dirty paths predicted`, () => {
      const repo = buildFixture(tempDir());
      const predicted = impactOf(repo, line, cwd);
      expect(predicted.unknown).toBeNull();
      expect(predicted.atRisk.length).toBeGreaterThan(0);
      expect(dirtyPathsChangedBy(repo, line, cwd)).toEqual(predicted.atRisk);
    });
  }

  it("predicts nothing for a branch switch that carries the changes, and git changes nothing", () => {
    const repo = initRepo(join(tempDir(), "repo"), { "mine.txt": "v1\n", "theirs.txt": "v1\n" });
    g(repo, "switch", "-q", "-c", "other");
    writeFiles(repo, { "theirs.txt": "other\n" });
    g(repo, "commit", "-q", "-am", "other");
    g(repo, "switch", "-q", "main");
    writeFiles(repo, { "mine.txt": "dirty\n", "untracked.txt": "u\n" });
    expect(impactOf(repo, "checkout other")).toEqual({
      repoTop: repo,
      atRisk: [],
      committed: [],
      ...NO_INDEX,
      unknown: null,
    });
    expect(dirtyPathsChangedBy(repo, "checkout other")).toEqual([]);
  });
});

describe("stash pop and apply onto dirty files", () => {
  function stashed(untracked: boolean): string {
    const repo = buildFixture(tempDir());
    g(repo, "stash", "push", "-q", ...(untracked ? ["-u"] : []));
    // Dirty again: dirty.txt and new.txt are in the stash, clean.txt is not.
    writeFiles(repo, { "dirty.txt": "again\n", "new.txt": "again\n", "clean.txt": "clean edit\n" });
    return repo;
  }

  it("names the dirty files the stash changes, its untracked files included", () => {
    const repo = stashed(true);
    expect(impactOf(repo, "stash pop").atRisk).toEqual(["dirty.txt", "new.txt"]);
    expect(impactOf(repo, "stash apply 0").atRisk).toEqual(["dirty.txt", "new.txt"]);
    expect(impactOf(repo, "stash apply stash@{0}").atRisk).toEqual(["dirty.txt", "new.txt"]);
  });

  it("names only tracked files for a stash without untracked ones", () => {
    expect(impactOf(stashed(false), "stash pop").atRisk).toEqual(["dirty.txt"]);
  });

  it("puts nothing at risk for list, show and drop, without running git", () => {
    const repo = stashed(true);
    for (const line of ["stash list", "stash show -p", "stash drop", "stash clear"]) {
      expect(impactOf(repo, line)).toEqual({
        repoTop: null,
        atRisk: [],
        committed: [],
        ...NO_INDEX,
        unknown: null,
      });
    }
  });

  it("cannot work out a pop when there is no stash", () => {
    const repo = buildFixture(tempDir());
    const impact = impactOf(repo, "stash pop");
    expect(impact.repoTop).toBe(repo);
    expect(impact.unknown).toMatch(/stash@\{0\}/);
  });
});
