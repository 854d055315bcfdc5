import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  headOf,
  operationInProgress,
  stagedPaths,
  targetDirty,
  targetState,
  treeBlobs,
} from "../../src/subagents/shared/git.js";
import { g, initRepo, tempDir, writeFiles } from "../helpers/repo.js";

const AWKWARD = ["a*b.txt", "[x].txt", "sp ace.txt", "new\nline.txt", "-dash.txt", "ünï.txt", "d/deep/f.txt"];

describe("treeBlobs", () => {
  it("reads the blob of every path literally, a directory as its tree, and nothing for absent paths or submodules", () => {
    const repo = initRepo(
      tempDir(),
      Object.fromEntries([...AWKWARD, "ab.txt", "axb.txt"].map((p) => [p, `${p}\n`])),
    );
    // A gitlink without a checkout: ls-tree shows it as a commit, which has no blob.
    const head = g(repo, "rev-parse", "HEAD").trim();
    g(repo, "update-index", "--add", "--cacheinfo", `160000,${head},link`);
    g(repo, "commit", "-q", "-m", "link");
    const commit = g(repo, "rev-parse", "HEAD").trim();
    const id = (p: string) => g(repo, "rev-parse", `${commit}:${p}`).trim();
    const asked = [...AWKWARD, "d", "missing.txt", "link"];
    const expected = new Map<string, string | null>([
      ...AWKWARD.map((p): [string, string] => [p, id(p)]),
      ["d", `tree:${id("d")}`],
      ["missing.txt", null],
      ["link", null],
    ]);
    expect(treeBlobs(repo, commit, asked)).toEqual(expected);
  });

  it("answers an empty question without running git", () => {
    expect(treeBlobs("/nonexistent", "HEAD", [])).toEqual(new Map());
  });
});

describe("targetState", () => {
  const reference = (top: string) => {
    const head = headOf(top);
    return { head, staged: head === null ? [] : stagedPaths(top).sort(), dirty: targetDirty(top).sort() };
  };
  const sorted = (t: ReturnType<typeof targetState>) => ({
    head: t.head,
    staged: t.head === null ? [] : [...t.staged].sort(),
    dirty: [...t.dirty].sort(),
  });

  it("reads HEAD, staged and dirty paths as the separate probes do, awkward names and conflicts included", () => {
    const repo = initRepo(tempDir(), { "a.txt": "a\n", "sp ace.txt": "s\n", "c.txt": "base\n" });
    g(repo, "checkout", "-q", "-b", "other");
    writeFiles(repo, { "c.txt": "other\n" });
    g(repo, "commit", "-qam", "other");
    g(repo, "checkout", "-q", "main");
    writeFiles(repo, { "c.txt": "main\n" });
    g(repo, "commit", "-qam", "main");
    expect(() => g(repo, "merge", "-q", "other")).toThrow();
    writeFiles(repo, {
      "a.txt": "staged\n",
      "sp ace.txt": "unstaged\n",
      "new\nline.txt": "n\n",
      "-dash.txt": "d\n",
    });
    g(repo, "add", "a.txt");
    expect(sorted(targetState(repo))).toEqual(reference(repo));
    expect(targetState(repo).staged.sort()).toEqual(["a.txt", "c.txt"]);
    expect(operationInProgress(repo)).toBe("merge");
  });

  it("reads an unborn branch as no HEAD", () => {
    const repo = tempDir();
    g(repo, "init", "-q", "-b", "main");
    writeFileSync(join(repo, "x.txt"), "x\n");
    g(repo, "add", "x.txt");
    expect(sorted(targetState(repo))).toEqual(reference(repo));
    expect(targetState(repo).head).toBeNull();
  });
});
