/** The one reader of `git status --porcelain=v2 -z`: by table, and against real git's output. */
import { rmSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  parseStatus,
  type StatusRecord,
  statusEntries,
  withinPathspecs,
} from "../../../src/core/git/status.js";
import { PATHSPEC_LIMIT, readStatus, statusArgs } from "../../../src/git/status.js";
import { g, initRepo, tempDir, writeFiles } from "../../helpers/repo.js";

const H = "1".repeat(40);
const I = "2".repeat(40);
const Z = "0".repeat(40);
const M = { head: "100644", index: "100644", worktree: "100644" };

describe("parseStatus", () => {
  it.each<[string, string[], StatusRecord[]]>([
    [
      "an ordinary change, the path after eight fields even with spaces",
      [`1 .M N... 100644 100644 100644 ${H} ${H} dir/a file.txt`],
      [
        {
          kind: "ordinary",
          xy: ".M",
          sub: "N...",
          modes: M,
          hashes: { head: H, index: H },
          path: "dir/a file.txt",
        },
      ],
    ],
    [
      "a rename: the source follows as its own record",
      [`2 R. N... 100644 100644 100644 ${H} ${H} R100 to name.txt`, "from name.txt"],
      [
        {
          kind: "renamed",
          xy: "R.",
          sub: "N...",
          modes: M,
          hashes: { head: H, index: H },
          path: "to name.txt",
          origPath: "from name.txt",
        },
      ],
    ],
    [
      "a copy, read like a rename",
      [`2 C. N... 100644 100644 100644 ${H} ${H} C75 copy.txt`, "orig.txt"],
      [
        {
          kind: "renamed",
          xy: "C.",
          sub: "N...",
          modes: M,
          hashes: { head: H, index: H },
          path: "copy.txt",
          origPath: "orig.txt",
        },
      ],
    ],
    [
      "an unmerged entry, the path after ten fields",
      [`u UU N... 100644 100644 100644 100644 ${H} ${I} ${H} both sides.txt`],
      [{ kind: "unmerged", xy: "UU", sub: "N...", path: "both sides.txt" }],
    ],
    [
      "a submodule whose commit moved",
      [`1 .M SC.. 160000 160000 160000 ${H} ${I} sub`],
      [
        {
          kind: "ordinary",
          xy: ".M",
          sub: "SC..",
          modes: { head: "160000", index: "160000", worktree: "160000" },
          hashes: { head: H, index: I },
          path: "sub",
        },
      ],
    ],
    [
      "untracked and ignored paths: a newline, non-ASCII, a leading dash, a directory",
      ["? new\nline.txt", "? ünïcode.txt", "? -dash.txt", "! build/", "! x.log"],
      [
        { kind: "untracked", path: "new\nline.txt" },
        { kind: "untracked", path: "ünïcode.txt" },
        { kind: "untracked", path: "-dash.txt" },
        { kind: "ignored", path: "build/" },
        { kind: "ignored", path: "x.log" },
      ],
    ],
    ["nothing at all", [], []],
  ])("%s", (_n, recs, expected) => {
    const out = recs.map((r) => `${r}\0`).join("");
    expect(parseStatus(out).records).toEqual(expected);
  });

  it.each([
    [
      "a branch with an upstream",
      [
        `# branch.oid ${H}`,
        "# branch.head feature/x y",
        "# branch.upstream origin/feature/x y",
        "# branch.ab +3 -1",
      ],
      { oid: H, head: "feature/x y", upstream: "origin/feature/x y", ahead: 3, behind: 1 },
    ],
    [
      "an unborn branch",
      ["# branch.oid (initial)", "# branch.head main"],
      { oid: null, head: "main", upstream: null, ahead: null, behind: null },
    ],
    [
      "a detached HEAD",
      [`# branch.oid ${H}`, "# branch.head (detached)"],
      { oid: H, head: null, upstream: null, ahead: null, behind: null },
    ],
    [
      "a gone upstream (no ab header), and a stash header",
      [`# branch.oid ${H}`, "# branch.head m", "# branch.upstream o/m", "# stash 2"],
      { oid: H, head: "m", upstream: "o/m", ahead: null, behind: null },
    ],
  ])("branch headers: %s", (_n, recs, expected) => {
    expect(parseStatus(recs.map((r) => `${r}\0`).join("")).branch).toEqual(expected);
  });

  it.each([
    ["an unknown record type", "X what\0"],
    ["a version 1 record", " M a.txt\0"],
    ["an ordinary record cut short", "1 .M N... 100644\0"],
    ["a rename without its source", `2 R. N... 100644 100644 100644 ${H} ${H} R100 to.txt\0`],
  ])("refuses %s rather than lose a path", (_n, out) => {
    expect(() => parseStatus(out)).toThrow(/git status/);
  });
});

describe("statusEntries", () => {
  it("says which sides differ, a rename's source being a staged removal", () => {
    const out = [
      `1 .M N... 100644 100644 100644 ${H} ${H} a`,
      `1 M. N... 100644 100644 100644 ${H} ${I} b`,
      `1 MM N... 100644 100644 100644 ${H} ${I} c d`,
      `1 D. N... 100644 000000 000000 ${H} ${Z} gone`,
      `2 R. N... 100644 100644 100644 ${H} ${H} R100 to`,
      "from",
      `u UU N... 100644 100644 100644 100644 ${H} ${I} ${H} e`,
      "? new\nline",
      "! x.log",
      "",
    ].join("\0");
    const e = (path: string, staged: boolean, unstaged: boolean, untracked = false, ignored = false) => ({
      path,
      staged,
      unstaged,
      untracked,
      ignored,
    });
    expect(statusEntries(parseStatus(out).records)).toEqual([
      e("a", false, true),
      e("b", true, false),
      e("c d", true, true),
      e("gone", true, false),
      e("to", true, false),
      e("from", true, false),
      e("e", true, true),
      e("new\nline", false, false, true),
      e("x.log", false, false, false, true),
    ]);
  });
});

describe("readStatus over a real repository", () => {
  const NAMES = ["with space.txt", "new\nline.txt", "ünïcode.txt", "-dash.txt"];

  function repo(): string {
    const dir = initRepo(join(tempDir(), "r"), {
      ...Object.fromEntries(NAMES.map((n) => [n, "base\n"])),
      ".gitignore": "*.log\n",
      "conflict.txt": "base\n",
      "moved.txt": "moved\n",
    });
    g(dir, "checkout", "-q", "-b", "side");
    writeFiles(dir, { "conflict.txt": "side\n" });
    g(dir, "commit", "-qam", "side");
    g(dir, "checkout", "-q", "main");
    writeFiles(dir, { "conflict.txt": "main\n" });
    g(dir, "commit", "-qam", "main");
    expect(() => g(dir, "merge", "-q", "side")).toThrow();
    writeFiles(dir, { [NAMES[0]!]: "edited\n", [NAMES[1]!]: "staged\n", "x.log": "ignored\n" });
    g(dir, "add", "--", NAMES[1]!);
    rmSync(join(dir, NAMES[2]!));
    writeFiles(dir, { "dir/-new file.txt": "untracked\n" });
    g(dir, "mv", "moved.txt", "moved again.txt");
    return dir;
  }

  it("reads every kind of record git writes, with the branch", () => {
    const dir = repo();
    const report = readStatus(dir, { branch: true, ignored: "traditional" });
    expect(report.branch).toMatchObject({ head: "main", upstream: null, ahead: null });
    expect(report.branch.oid).toBe(g(dir, "rev-parse", "HEAD").trim());
    const brief = report.records.map((r) => [r.kind, "xy" in r ? r.xy : "", r.path]);
    expect(brief).toEqual(
      expect.arrayContaining([
        ["ordinary", ".M", "with space.txt"],
        ["ordinary", "M.", "new\nline.txt"],
        ["ordinary", ".D", "ünïcode.txt"],
        // Renames are never detected: the move is a removal and an addition.
        ["ordinary", "D.", "moved.txt"],
        ["ordinary", "A.", "moved again.txt"],
        ["unmerged", "UU", "conflict.txt"],
        ["untracked", "", "dir/-new file.txt"],
        ["ignored", "", "x.log"],
      ]),
    );
    expect(brief).toHaveLength(8);
  });

  it("reads a rename record, with its source, where git is asked to find renames", () => {
    const dir = repo();
    const out = g(dir, ...statusArgs().filter((a) => a !== "--no-renames"), "--find-renames");
    expect(parseStatus(out).records).toContainEqual(
      expect.objectContaining({ kind: "renamed", xy: "R.", path: "moved again.txt", origPath: "moved.txt" }),
    );
  });

  it("limits itself to literal paths, whatever characters they hold", () => {
    const dir = repo();
    const paths = ["with space.txt", "new\nline.txt", "-dash.txt", "*.txt"];
    const report = readStatus(dir, { paths });
    expect(report.records.map((r) => r.path).sort()).toEqual(["new\nline.txt", "with space.txt"]);
  });

  it("answers for more paths than one argument list holds by reading the whole tree once", () => {
    const dir = repo();
    // 60,000 long names: past the kernel's argument limit (E2BIG) as pathspecs.
    const filler = Array.from({ length: 60_000 }, (_, i) => `${"deep/".repeat(6)}never-${i}.txt`);
    const paths = ["with space.txt", "dir", "*.txt", "x.log", ...filler];
    expect(paths.length).toBeGreaterThan(PATHSPEC_LIMIT);
    const report = readStatus(dir, { paths, ignored: "traditional" });
    expect(report.records.map((r) => r.path).sort()).toEqual([
      "dir/-new file.txt",
      "with space.txt",
      "x.log",
    ]);
  });
});

describe("withinPathspecs", () => {
  const rec = (kind: "untracked" | "ignored", path: string): StatusRecord => ({ kind, path });
  it.each<[string, StatusRecord[], string[], string[]]>([
    ["keeps a named path and drops another", [rec("untracked", "a"), rec("untracked", "b")], ["a"], ["a"]],
    ["keeps what lies below a named directory", [rec("untracked", "d/e/f")], ["d"], ["d/e/f"]],
    ["a named directory with a trailing slash", [rec("untracked", "d/f")], ["d/"], ["d/f"]],
    ["does not take a name's prefix for its directory", [rec("untracked", "ab/c")], ["a"], []],
    [
      "keeps a wholly ignored directory that holds a named path",
      [rec("ignored", "build/")],
      ["build/x.o"],
      ["build/"],
    ],
    ["drops a wholly ignored directory holding nothing named", [rec("ignored", "build/")], ["src/x"], []],
    ["reads glob characters as plain names", [rec("untracked", "x.txt")], ["*.txt"], []],
  ])("%s", (_name, records, paths, kept) => {
    expect(withinPathspecs(records, paths).map((r) => r.path)).toEqual(kept);
  });

  it("keeps a rename whose source alone is named", () => {
    const moved: StatusRecord = {
      kind: "renamed",
      xy: "R.",
      sub: "N...",
      path: "new.txt",
      origPath: "old.txt",
      modes: M,
      hashes: { head: H, index: I },
    };
    expect(withinPathspecs([moved], ["old.txt"])).toEqual([moved]);
  });
});
