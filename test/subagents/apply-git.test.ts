import { describe, expect, it } from "vitest";
import { treeBlobs } from "../../src/subagents/apply-git.js";
import { g, initRepo, tempDir } from "../helpers/repo.js";

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
