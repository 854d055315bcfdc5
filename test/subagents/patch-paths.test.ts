import { mkdirSync, renameSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { git } from "../../src/git/run.js";
import { normalizePrefix, outsidePrefixes, overlapping } from "../../src/subagents/apply/path-policy.js";
import { unquoteAt, unquoteField } from "../../src/subagents/capture/cquote.js";
import { mboxCommits, mboxSubject } from "../../src/subagents/capture/mbox.js";
import { headerPaths, patchPaths } from "../../src/subagents/capture/patch-paths.js";
import { g, initRepo, tempDir, writeFiles } from "../helpers/repo.js";

describe("git C-quoted names", () => {
  it.each([
    ['"a/plain"', "a/plain"],
    ['"a/tab\\there"', "a/tab\there"],
    ['"a/quote\\"d"', 'a/quote"d'],
    ['"a/back\\\\slash"', "a/back\\slash"],
    ['"a/\\303\\274ber"', "a/über"],
    ["a/unquoted name", "a/unquoted name"],
  ])("%s → %s", (field, name) => {
    expect(unquoteField(field)).toBe(name);
  });

  it("rejects a quote that never closes", () => {
    expect(unquoteAt('"a/open', 0)).toBeNull();
  });
});

describe("diff --git headers", () => {
  it.each<[string, string[]]>([
    ["a/x.txt b/x.txt", ["x.txt"]],
    ["a/dir one/f g.txt b/dir one/f g.txt", ["dir one/f g.txt"]],
    // Unequal unquoted names are ambiguous: every split counts.
    ["a/p b/q b/r", ["p", "q b/r", "p b/q", "r"]],
    ['"a/\\303\\274.txt" "b/\\303\\274.txt"', ["ü.txt"]],
    ['a/old name "b/new\\tname"', ["old name", "new\tname"]],
    ['"a/old\\tname" b/new name', ["old\tname", "new name"]],
  ])("%s", (rest, paths) => {
    expect(headerPaths(rest).sort()).toEqual(paths.sort());
  });
});

function move(repo: string, from: string, to: string): void {
  mkdirSync(dirname(join(repo, to)), { recursive: true });
  renameSync(join(repo, from), join(repo, to));
}

describe("paths of real patches", () => {
  function staged(files: Record<string, string>, change: (repo: string) => void): string {
    const repo = initRepo(tempDir(), files);
    change(repo);
    g(repo, "add", "-A");
    return git(repo, [
      "-c",
      "core.quotePath=true",
      "diff",
      "--cached",
      "--binary",
      "-M",
      "-C",
      "--find-copies-harder",
      "HEAD",
    ]);
  }

  it("finds renames, copies, deletions, binaries and awkward names on both sides", () => {
    const body = Array.from({ length: 40 }, (_, i) => `line ${i}\n`).join("");
    const patch = staged(
      { "old name.txt": body, "keep.txt": body, "gone.txt": "x\n", "src/a.txt": "-- a/fake\n" },
      (repo) => {
        move(repo, "old name.txt", 'new dir/it\'s "q".txt');
        // Hunk lines that read like `--- a/fake` and `+++ b/fake2` are content, not names.
        writeFiles(repo, { "copy of keep.txt": body, "ünï cödé.txt": "u\n", "src/a.txt": "++ b/fake2\n" });
        writeFiles(repo, { "bin.dat": "\0\x01\x02binary" });
        g(repo, "rm", "-q", "gone.txt");
      },
    );
    expect([...patchPaths(patch)].sort()).toEqual(
      [
        "bin.dat",
        "copy of keep.txt",
        "gone.txt",
        "keep.txt",
        'new dir/it\'s "q".txt',
        "old name.txt",
        "src/a.txt",
        "ünï cödé.txt",
      ].sort(),
    );
  });

  it("reads every message of an mbox, and its commit ids and subjects", () => {
    const repo = initRepo(tempDir(), { "a.txt": "a\n" });
    const base = g(repo, "rev-parse", "HEAD").trim();
    writeFiles(repo, { "b c.txt": "b\n" });
    g(repo, "add", "-A");
    g(repo, "commit", "-q", "-m", "first change");
    g(repo, "commit", "-q", "--allow-empty", "-m", "empty one");
    move(repo, "a.txt", "moved/a.txt");
    g(repo, "add", "-A");
    g(repo, "commit", "-q", "-m", "move");
    const mbox = git(repo, ["format-patch", "--stdout", "--always", "-M", "--binary", `${base}..HEAD`]);
    expect([...patchPaths(mbox)].sort()).toEqual(["a.txt", "b c.txt", "moved/a.txt"]);
    const commits = mboxCommits(mbox);
    expect(commits).toEqual(g(repo, "rev-list", "--reverse", `${base}..HEAD`).trim().split("\n"));
    expect(mboxSubject(mbox, commits[1]!)).toBe("empty one");
  });
});

describe("path policy", () => {
  it.each<[string[], string[], string[]]>([
    [["a.txt"], ["a.txt"], ["a.txt"]],
    [["a.txt"], ["b.txt"], []],
    // Parent and child directories collide both ways.
    [["dir/x.txt"], ["dir/"], ["dir"]],
    [["dir"], ["dir/sub/y.txt"], ["dir/sub/y.txt"]],
    [["dir2/x"], ["dir/x"], []],
    [["new dir/f"], ["new dir/f", "other"], ["new dir/f"]],
  ])("touched %j vs dirty %j", (touched, dirty, hits) => {
    expect(overlapping(touched, dirty)).toEqual(hits);
  });

  it.each<[string[], string[], string[]]>([
    [["src/a.ts", "src/b/c.ts"], ["src"], []],
    [["src/a.ts", "srcx/b.ts"], ["src/"], ["srcx/b.ts"]],
    [["docs/x.md", "src/a.ts"], ["./src", "docs"], []],
    [["old/x.ts", "src/x.ts"], ["src"], ["old/x.ts"]],
    [["anything"], ["."], []],
  ])("touched %j with --only %j", (touched, prefixes, outside) => {
    expect(outsidePrefixes(touched, prefixes)).toEqual(outside);
  });

  it("normalizes prefixes", () => {
    expect(normalizePrefix("./a/b//")).toBe("a/b");
    expect(normalizePrefix("./")).toBe("");
  });
});
