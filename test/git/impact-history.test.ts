import { accessSync, constants, readFileSync, writeFileSync } from "node:fs";
import { delimiter, join } from "node:path";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { gitImpact } from "../../src/git/impact.js";
import { g, initRepo, tempDir, writeFiles } from "../helpers/repo.js";
import { buildFixture, impactOf, NO_INDEX, sharedDir } from "./impact-fixture.js";

const EVERY_CHANGE = ["dirty.txt", "new.txt", "staged.txt", "sub/deep.txt", "sub/new.txt"];
/** Dirty paths among those side changes since the merge base (dirty.txt, clean.txt, new.txt). */
const FROM_SIDE = ["dirty.txt", "new.txt"];
/** Dirty paths among those that differ between HEAD and side (staged.txt too). */
const TO_SIDE = ["dirty.txt", "new.txt", "staged.txt"];

const dir = sharedDir();
let repo = "";
let patch = "";
let mbox = "";
beforeAll(() => {
  repo = buildFixture(dir());
  g(repo, "branch", "-q", "--set-upstream-to=side");
  patch = join(dir(), "side.diff");
  writeFileSync(patch, g(repo, "diff", "main~1", "side"));
  mbox = join(dir(), "side.mbox");
  writeFileSync(mbox, g(repo, "format-patch", "-1", "--stdout", "side"));
});

type Row = [line: string, atRisk: string[], cwd?: string];

function table(rows: Row[]) {
  for (const [line, atRisk, cwd = ""] of rows) {
    const shown = line.replace("PATCH", "side.diff").replace("MBOX", "side.mbox");
    it(`git ${shown}${cwd ? ` (in ${cwd}/)` : ""} puts ${JSON.stringify(atRisk)} at risk`, () => {
      const l = line.replace("PATCH", patch).replace("MBOX", mbox);
      const impact = impactOf(repo, l, cwd);
      expect(impact).toMatchObject({ atRisk, committed: [], unknown: null });
      if (atRisk.length > 0) expect(impact.repoTop).toBe(repo);
    });
  }
}

describe("merge, rebase, pull, cherry-pick and revert over dirty work", () => {
  table([
    ["merge side", FROM_SIDE],
    ["merge --no-ff --no-autostash side", FROM_SIDE],
    ["merge --autostash side", EVERY_CHANGE],
    ["-c merge.autostash=true merge side", EVERY_CHANGE],
    ["merge --abort", ["staged.txt"]],
    ["rebase side", TO_SIDE],
    ["rebase --onto side main~1", TO_SIDE],
    ["rebase --autostash side", EVERY_CHANGE],
    ["-c rebase.autoStash=true rebase side", EVERY_CHANGE],
    ["pull", FROM_SIDE],
    ["pull --rebase", TO_SIDE],
    ["pull --autostash", EVERY_CHANGE],
    ["-c pull.rebase=true -c rebase.autostash=true pull", EVERY_CHANGE],
    ["cherry-pick side", FROM_SIDE],
    ["cherry-pick -n main~1..side", FROM_SIDE],
    ["revert HEAD", ["staged.txt"]],
  ]);
});

describe("apply and am over dirty work", () => {
  table([
    ["apply PATCH", FROM_SIDE],
    ["apply -R PATCH", FROM_SIDE],
    ["apply --index PATCH", FROM_SIDE],
    ["apply --exclude=new.txt PATCH", ["dirty.txt"]],
    ["apply --directory=sub PATCH", ["sub/new.txt"]],
    ["apply PATCH", [], "sub"],
    ["apply --cached PATCH", []],
    ["apply --check PATCH", []],
    ["am MBOX", FROM_SIDE],
    ["am -3 MBOX", FROM_SIDE],
  ]);
});

describe("a commit that skips its pre-commit hook", () => {
  const rows: [line: string, committed: string[], cwd?: string][] = [
    ["commit -n -m msg", ["staged.txt"]],
    ["commit --no-verify -m msg", ["staged.txt"]],
    ["commit -anm msg", ["dirty.txt", "staged.txt", "sub/deep.txt"]],
    ["commit -n -m msg dirty.txt", ["dirty.txt"]],
    ["commit -n -m msg .", ["sub/deep.txt"], "sub"],
    ["commit -n -i -m msg sub", ["staged.txt", "sub/deep.txt"]],
    ["-c core.hooksPath=/dev/null commit -m msg", ["staged.txt"]],
    ["-c core.hooksPath=/dev/null commit -a -m msg", ["dirty.txt", "staged.txt", "sub/deep.txt"]],
  ];
  for (const [line, committed, cwd = ""] of rows) {
    it(`git ${line}${cwd ? ` (in ${cwd}/)` : ""} would commit ${JSON.stringify(committed)}`, () => {
      expect(impactOf(repo, line, cwd)).toMatchObject({
        repoTop: repo,
        atRisk: [],
        committed,
        unknown: null,
      });
    });
  }

  it("reports nothing for a commit whose hook runs", () => {
    expect(impactOf(repo, "commit -am msg")).toEqual({
      repoTop: null,
      atRisk: [],
      committed: [],
      ...NO_INDEX,
      unknown: null,
    });
  });

  it("names exactly the paths the real commit takes", () => {
    const fresh = buildFixture(tempDir());
    const predicted = impactOf(fresh, "commit -anm msg").committed;
    g(fresh, "commit", "-q", "-anm", "msg");
    const taken = g(fresh, "show", "--name-only", "--format=", "HEAD").trim().split("\n").sort();
    expect(taken).toEqual(predicted);
  });
});

describe("what cannot be worked out", () => {
  it("says so for targets that do not resolve, keeping the working tree it found", () => {
    for (const line of [
      "merge nope",
      "reset --hard nope",
      "cherry-pick nope",
      "rebase nope",
      "switch -f nope",
    ]) {
      const impact = impactOf(repo, line);
      expect(impact.repoTop).toBe(repo);
      expect(impact.atRisk).toEqual([]);
      expect(impact.unknown).toMatch(/nope/);
    }
  });

  it("says so for a pull without an upstream", () => {
    const plain = buildFixture(tempDir());
    expect(impactOf(plain, "pull").unknown).toMatch(/upstream|@\{u\}/);
  });

  it("says so outside a working tree, for an unknown directory, and for commands it cannot read", () => {
    const outside = tempDir();
    expect(impactOf(outside, "checkout .")).toMatchObject({
      repoTop: null,
      unknown: expect.stringMatching(/not in a git/),
    });
    expect(gitImpact({ cwd: null, args: ["checkout", "."] }, repo).unknown).toMatch(/directory/);
    expect(impactOf(repo, "checkout .", "no-such-dir").unknown).toMatch(/no-such-dir does not exist/);
    expect(impactOf(repo, "co .").unknown).toMatch(/git co/);
    expect(impactOf(repo, "apply").unknown).toMatch(/stdin/);
  });

  it("follows -C and an absolute directory", () => {
    expect(impactOf(repo, "-C sub checkout .").atRisk).toEqual(["sub/deep.txt"]);
    expect(gitImpact({ cwd: join(repo, "sub"), args: ["checkout", "."] }, "/").atRisk).toEqual([
      "sub/deep.txt",
    ]);
  });
});

describe("how many git processes it takes", () => {
  const realPath = process.env.PATH ?? "";
  afterEach(() => {
    process.env.PATH = realPath;
    delete process.env.TANDEM_TEST_GIT_LOG;
  });

  /** Counts the git processes one call starts, through a logging `git` placed first on PATH. */
  function gitRuns(target: string, line: string): number {
    const shim = tempDir();
    const log = join(shim, "log");
    writeFileSync(log, "");
    writeFileSync(
      join(shim, "git"),
      `#!/bin/sh\necho x >> "$TANDEM_TEST_GIT_LOG"\nexec "${realGit()}" "$@"\n`,
      {
        mode: 0o755,
      },
    );
    process.env.PATH = `${shim}${delimiter}${realPath}`;
    process.env.TANDEM_TEST_GIT_LOG = log;
    const impact = impactOf(target, line);
    process.env.PATH = realPath;
    expect(impact.unknown).toBeNull();
    return readFileSync(log, "utf8").split("\n").filter(Boolean).length;
  }

  function realGit(): string {
    for (const d of realPath.split(delimiter)) {
      try {
        accessSync(join(d, "git"), constants.X_OK);
        return join(d, "git");
      } catch {}
    }
    throw new Error("git not on PATH");
  }

  const cases: [line: string, runs: number][] = [
    ["status", 0],
    ["commit -am msg", 0],
    ["checkout side", 1],
    ["checkout .", 2],
    ["reset --hard", 2],
    ["stash -u", 2],
    ["clean -fd", 2],
    ["commit -n -m msg", 2],
    ["checkout -f side", 3],
    ["stash pop", 3],
    ["cherry-pick side", 3],
    ["apply PATCH", 3],
    // The configuration decides merges, rebases and pulls: one more, when anything is dirty.
    ["merge side", 4],
  ];
  for (const [line, runs] of cases) {
    it(`git ${line.replace("PATCH", "side.diff")} takes ${runs} git processes`, () => {
      const target = line === "stash pop" ? stashed() : repo;
      expect(gitRuns(target, line.replace("PATCH", patch))).toBe(runs);
    });
  }

  it("skips the configuration for a merge into a clean tree", () => {
    const clean = initRepo(join(tempDir(), "repo"));
    g(clean, "branch", "other");
    expect(gitRuns(clean, "merge other")).toBe(2);
  });

  function stashed(): string {
    const r = buildFixture(tempDir());
    g(r, "stash", "-q", "-u");
    writeFiles(r, { "dirty.txt": "again\n" });
    return r;
  }
});
