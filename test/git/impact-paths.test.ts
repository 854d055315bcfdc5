import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { gitImpact } from "../../src/git/impact.js";
import { initRepo, tempDir, writeFiles } from "../helpers/repo.js";
import { buildFixture, dirtyPathsChangedBy, impactOf } from "./impact-fixture.js";

const UNSTAGED = ["dirty.txt", "sub/deep.txt"];

describe("pathspecs from a file", () => {
  it("reads them relative to the command's directory, by lines or NUL-separated", () => {
    const repo = buildFixture(tempDir());
    writeFiles(join(repo, ".."), { "list.txt": 'dirty.txt\n"sub/deep.txt"\n', "list.nul": "deep.txt\0" });
    expect(impactOf(repo, "checkout --pathspec-from-file=../list.txt").atRisk).toEqual(UNSTAGED);
    const nul = "restore --pathspec-from-file ../../list.nul --pathspec-file-nul";
    expect(impactOf(repo, nul, "sub").atRisk).toEqual(["sub/deep.txt"]);
  });

  it("cannot work them out from stdin or an unreadable file", () => {
    const repo = buildFixture(tempDir());
    expect(impactOf(repo, "checkout --pathspec-from-file=-").unknown).toMatch(/stdin/);
    expect(impactOf(repo, "stash push --pathspec-from-file=missing").unknown).toMatch(/missing/);
  });
});

describe("an environment that makes pathspecs literal", () => {
  afterEach(() => {
    delete process.env.GIT_LITERAL_PATHSPECS;
  });

  it("still opens up the directories clean would remove and finds mv's sources", () => {
    const repo = buildFixture(tempDir());
    writeFiles(repo, { "scratch/a.txt": "x\n" });
    process.env.GIT_LITERAL_PATHSPECS = "1";
    expect(impactOf(repo, "clean -fd").atRisk).toEqual(["new.txt", "scratch/a.txt", "sub/new.txt"]);
    expect(impactOf(repo, "mv sub elsewhere").atRisk).toEqual(["sub/deep.txt", "sub/new.txt"]);
  });
});

describe("odd file names", () => {
  const names = [
    "-dash.txt",
    "--.txt",
    "sp ace.txt",
    "é.txt",
    "new\nline.txt",
    'q"uote.txt',
    "tab\there.txt",
  ];
  const call = (repo: string, ...args: string[]) => gitImpact({ cwd: "", args }, repo).atRisk;

  it("names changed files with spaces, newlines, quotes, tabs, non-ASCII and leading dashes", () => {
    const repo = initRepo(join(tempDir(), "repo"), Object.fromEntries(names.map((n) => [n, "v1\n"])));
    writeFiles(repo, Object.fromEntries(names.map((n) => [n, "edit\n"])));
    expect(call(repo, "checkout", ".")).toEqual([...names].sort());
    expect(call(repo, "checkout", "--", "-dash.txt")).toEqual(["-dash.txt"]);
    expect(call(repo, "checkout", "--", "--.txt")).toEqual(["--.txt"]);
    expect(call(repo, "rm", "-f", "new\nline.txt")).toEqual(["new\nline.txt"]);
    expect(call(repo, "mv", "-f", "sp ace.txt", "é.txt")).toEqual(["sp ace.txt", "é.txt"]);
    expect(call(repo, "stash", "push", "--", 'q"uote.txt', "tab\there.txt")).toEqual([
      'q"uote.txt',
      "tab\there.txt",
    ]);
    expect(dirtyPathsChangedBy(repo, "checkout .")).toEqual([...names].sort());
  });
});
