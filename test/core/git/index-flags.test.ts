/** The index-file reader agrees with `git ls-files -v` on every index git writes, or says it cannot tell. */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { indexFlags } from "../../../src/core/git/index-flags.js";
import { splitZ } from "../../../src/git/run.js";
import { g, initRepo, tempDir, writeFiles } from "../../helpers/repo.js";

const NAMES = {
  "plain.txt": "a\n",
  "with space.txt": "b\n",
  "new\nline.txt": "c\n",
  "naïve/ünïcode.txt": "d\n",
  "-leading-dash.txt": "e\n",
  "deep/er/still/x.txt": "f\n",
  "deep/er/y.txt": "g\n",
};

function repo(files: Record<string, string> = NAMES, ...init: string[]): string {
  const dir = join(tempDir(), "r");
  g(tempDir(), "init", "-q", "-b", "main", ...init, dir);
  writeFiles(dir, files);
  g(dir, "add", "-A");
  g(dir, "commit", "-q", "-m", "initial");
  return dir;
}

function read(dir: string) {
  return indexFlags(readFileSync(join(dir, ".git", "index")));
}

/** What `ls-files -v` says about the flagged entries: lowercase (assume-unchanged) or `S`. */
function lsFilesFlagged(dir: string) {
  return splitZ(g(dir, "ls-files", "-v", "-z"))
    .map((rec) => ({ tag: rec.slice(0, 1), path: rec.slice(2) }))
    .filter((t) => t.tag === "S" || t.tag !== t.tag.toUpperCase());
}

function flag(dir: string, option: string, ...paths: string[]): void {
  g(dir, "update-index", option, "--", ...paths);
}

describe("index flags read from the file", () => {
  it.each([
    ["version 2 (assume-unchanged only)", [], ["--assume-unchanged"]],
    ["version 3 (skip-worktree)", [], ["--skip-worktree"]],
    ["version 3 with both flags", [], ["--skip-worktree", "--assume-unchanged"]],
    ["version 4 (prefix-compressed names)", ["4"], ["--skip-worktree", "--assume-unchanged"]],
  ])("%s: the same entries and tags as ls-files -v", (_n, version, options) => {
    const dir = repo();
    if (version.length > 0) g(dir, "update-index", "--index-version", version[0]!);
    options.forEach((o, i) => {
      flag(dir, o, Object.keys(NAMES)[i * 2]!, "new\nline.txt", "naïve/ünïcode.txt");
    });
    flag(dir, options[0]!, "-leading-dash.txt", "deep/er/still/x.txt");
    const expected = lsFilesFlagged(dir);
    expect(expected.length).toBeGreaterThan(0);
    expect(read(dir)).toEqual({ tags: expected });
  });

  it("finds nothing flagged in a fresh index, at every version", () => {
    const dir = repo();
    for (const v of ["2", "3", "4"]) {
      g(dir, "update-index", "--index-version", v);
      expect(read(dir)).toEqual({ tags: [] });
    }
  });

  it("reads a SHA-256 repository's index (longer object names)", () => {
    const dir = repo(NAMES, "--object-format=sha256");
    flag(dir, "--skip-worktree", "with space.txt");
    flag(dir, "--assume-unchanged", "deep/er/y.txt");
    expect(read(dir)).toEqual({ tags: lsFilesFlagged(dir) });
    expect(lsFilesFlagged(dir)).toHaveLength(2);
  });

  it("reads a name of 4,095 bytes or more, whose length field overflows", () => {
    const dir = repo({ "a.txt": "a\n" });
    const blob = g(dir, "rev-parse", "HEAD:a.txt").trim();
    const long = `${"d123456789/".repeat(400)}end.txt`;
    g(dir, "update-index", "--add", "--cacheinfo", `100644,${blob},${long}`);
    flag(dir, "--assume-unchanged", long);
    for (const v of ["2", "4"]) {
      g(dir, "update-index", "--index-version", v);
      expect(read(dir)).toEqual({ tags: [{ tag: "h", path: long }] });
    }
  });

  it("tags a flagged conflict stage M, as ls-files -v does", () => {
    const dir = initRepo(join(tempDir(), "r"), { "c.txt": "base\n" });
    g(dir, "checkout", "-q", "-b", "side");
    writeFiles(dir, { "c.txt": "side\n" });
    g(dir, "commit", "-qam", "side");
    g(dir, "checkout", "-q", "main");
    writeFiles(dir, { "c.txt": "main\n" });
    g(dir, "commit", "-qam", "main");
    expect(() => g(dir, "merge", "-q", "side")).toThrow();
    expect(read(dir)).toEqual({ tags: [] });
    expect(splitZ(g(dir, "ls-files", "-v", "-z")).every((r) => r.startsWith("M "))).toBe(true);
  });

  it.each([
    ["a split index (entries live in a shared file)", (d: string) => g(d, "update-index", "--split-index")],
    [
      "a sparse index (a directory stands for its files)",
      (d: string) => {
        g(d, "sparse-checkout", "init", "--cone", "--sparse-index");
        g(d, "sparse-checkout", "set", "deep");
      },
    ],
  ])("leaves %s to git", (_n, make) => {
    const dir = repo();
    make(dir);
    expect(read(dir)).toMatchObject({ unknown: expect.stringMatching(/^index extension (link|sdir)$/) });
  });

  it("says it cannot tell for a file that is not an index, or is cut short", () => {
    const dir = repo();
    flag(dir, "--skip-worktree", "plain.txt");
    const buf = readFileSync(join(dir, ".git", "index"));
    expect(indexFlags(Buffer.from("not an index at all"))).toMatchObject({ unknown: expect.any(String) });
    expect(indexFlags(buf.subarray(0, buf.length - 30))).toMatchObject({ unknown: expect.any(String) });
    expect(indexFlags(buf.subarray(0, 200))).toMatchObject({ unknown: expect.any(String) });
    const future = Buffer.from(buf);
    future.writeUInt32BE(5, 4);
    expect(indexFlags(future)).toEqual({ unknown: "index version 5" });
    expect(indexFlags(Buffer.alloc(0))).toEqual({ tags: [] });
  });
});
