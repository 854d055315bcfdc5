/**
 * Index-only commands against the real git: the staged changes the impact reader says a command
 * drops or replaces are exactly those the real command loses. The fixture's staged.txt is staged
 * (index = file ≠ HEAD); both.txt is staged and then changed again (HEAD ≠ index ≠ file); dirty.txt
 * and sub/deep.txt are only edited (index = HEAD), and dropping their entries loses nothing.
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { splitZ } from "../../src/git/run.js";
import { g, initRepo, tempDir, writeFiles } from "../helpers/repo.js";
import { buildFixture, impactOf, words } from "./impact-fixture.js";

function fixture(): string {
  const repo = buildFixture(tempDir());
  writeFiles(repo, { "both.txt": "both v1\n" });
  g(repo, "add", "both.txt");
  g(repo, "commit", "-q", "-m", "both", "--", "both.txt");
  writeFiles(repo, { "both.txt": "both staged\n" });
  g(repo, "add", "both.txt");
  writeFiles(repo, { "both.txt": "both changed again\n" });
  return repo;
}

/** Each path whose index entry differs from HEAD, with the entry (mode, object, stage). */
function stagedEntries(repo: string): Map<string, string> {
  const paths = splitZ(g(repo, "diff", "--cached", "--name-only", "-z", "--no-renames"));
  return new Map(paths.map((p) => [p, g(repo, "ls-files", "-s", "--", p)]));
}

/** Runs the real command and returns the staged changes it dropped or replaced. */
function stagedChangedBy(repo: string, line: string): string[] {
  const before = stagedEntries(repo);
  g(repo, ...words(line));
  return [...before]
    .filter(([path, entry]) => g(repo, "ls-files", "-s", "--", path) !== entry)
    .map(([path]) => path)
    .sort();
}

const rows: [line: string, lost: string[]][] = [
  ["reset", ["both.txt", "staged.txt"]],
  ["reset -q -- staged.txt dirty.txt", ["staged.txt"]],
  ["reset -q dirty.txt", []],
  ["reset -q HEAD~1", ["both.txt", "staged.txt"]],
  ["reset -q HEAD -- sub", []],
  ["reset --soft HEAD~1", []],
  ["rm -q --cached staged.txt", ["staged.txt"]],
  ["rm -q -f --cached both.txt", ["both.txt"]],
  ["rm -q -r --cached sub", []],
  ["restore --staged .", ["both.txt", "staged.txt"]],
  ["restore --staged dirty.txt", []],
  ["read-tree HEAD", ["both.txt", "staged.txt"]],
  ["read-tree --empty", ["both.txt", "staged.txt"]],
  ["update-index --force-remove staged.txt", ["staged.txt"]],
  ["update-index --force-remove dirty.txt", []],
  ["update-index both.txt staged.txt", ["both.txt"]],
  ["update-index --again", ["both.txt"]],
  ["add -A", ["both.txt"]],
  ["add -u", ["both.txt"]],
  ["add staged.txt dirty.txt", []],
  ["add both.txt", ["both.txt"]],
  ["stage .", ["both.txt"]],
];

describe("the staged changes an index-only command loses", () => {
  it.each(rows)("git %s drops or replaces %j, as the real command does", (line, lost) => {
    const repo = fixture();
    expect(impactOf(repo, line).stagedLost).toEqual(lost);
    expect(stagedChangedBy(repo, line)).toEqual(lost);
  });

  it("counts a staged change git itself refuses to drop, so the refusal names its owner", () => {
    const repo = fixture();
    // git refuses `rm --cached` of a file that differs from both HEAD and its staged version.
    expect(impactOf(repo, "rm --cached both.txt").stagedLost).toEqual(["both.txt"]);
    expect(() => g(repo, "rm", "-q", "--cached", "both.txt")).toThrow(/staged content different/);
  });
});

describe("what add stages for a later commit that skips its hook", () => {
  it("names the dirty paths within its pathspec, untracked ones too unless -u", () => {
    const repo = fixture();
    expect(impactOf(repo, "add sub").stages).toEqual(["sub/deep.txt", "sub/new.txt"]);
    expect(impactOf(repo, "add -u").stages).toEqual(["both.txt", "dirty.txt", "staged.txt", "sub/deep.txt"]);
    expect(impactOf(repo, "add -- .", "sub").stages).toEqual(["sub/deep.txt", "sub/new.txt"]);
    expect(impactOf(repo, "-c alias.a=add a dirty.txt").stages).toEqual(["dirty.txt"]);
  });

  it("tells a commit that takes the index from one that commits only its own paths", () => {
    const repo = fixture();
    expect(impactOf(repo, "commit -n -m x").commitsIndex).toBe(true);
    expect(impactOf(repo, "commit -n -a -m x").commitsIndex).toBe(true);
    expect(impactOf(repo, "commit -n -i -m x dirty.txt").commitsIndex).toBe(true);
    expect(impactOf(repo, "commit -n -m x -- dirty.txt").commitsIndex).toBe(false);
    expect(impactOf(repo, "-c alias.ci=commit␠-n ci -m x").commitsIndex).toBe(true);
  });

  it("reads a repository alias of add through git's own config", () => {
    const repo = initRepo(join(tempDir(), "repo"), { "f.txt": "v1\n" });
    g(repo, "config", "alias.put", "add --");
    writeFiles(repo, { "f.txt": "v2\n" });
    expect(impactOf(repo, "put f.txt").stages).toEqual(["f.txt"]);
    expect(impactOf(repo, "-c alias.put=!git␠add put f.txt").unknown).toMatch(/shell command/);
  });
});
