import { mkdirSync, renameSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { git } from "../../src/git/run.js";
import { mboxCommits } from "../../src/subagents/capture/mbox.js";
import { patchPaths } from "../../src/subagents/capture/patch-paths.js";
import { PatchScanner } from "../../src/subagents/capture/patch-scan.js";
import { g, initRepo, tempDir, writeFiles } from "../helpers/repo.js";

/** Feeds `text` to a scanner in pieces of `size` bytes, as a file read in chunks would. */
function scan(
  text: string | Buffer,
  size: number,
  kind: "mbox" | "diff" = "mbox",
): { paths: string[]; commits: string[] } {
  const bytes = typeof text === "string" ? Buffer.from(text, "utf8") : text;
  const s = new PatchScanner(kind);
  for (let i = 0; i < bytes.length; i += size) s.push(bytes.subarray(i, i + size));
  const r = s.end();
  return { paths: [...r.paths].sort(), commits: r.commits };
}

const SIZES = [1, 2, 3, 5, 7, 11, 12, 64, 1000, 1 << 20];

function move(repo: string, from: string, to: string): void {
  mkdirSync(dirname(join(repo, to)), { recursive: true });
  renameSync(join(repo, from), join(repo, to));
}

/** A repository whose history holds renames, copies, binaries, awkward names and hunk lines that read like headers. */
function history(): { repo: string; base: string } {
  const body = Array.from({ length: 40 }, (_, i) => `line ${i}\n`).join("");
  const repo = initRepo(tempDir(), {
    "old name.txt": body,
    "keep.txt": body,
    "gone.txt": "x\n",
    "src/a.txt": "-- a/fake\n",
    "mode.sh": "echo\n",
  });
  const base = g(repo, "rev-parse", "HEAD").trim();
  move(repo, "old name.txt", 'new dir/it\'s "q".txt');
  writeFiles(repo, {
    "copy of keep.txt": body,
    "ünï cödé.txt": "u\n",
    "src/a.txt": "++ b/fake2\ndiff --git a/x b/y\n",
  });
  writeFiles(repo, { "bin.dat": "\0\x01\x02binary", "From 0000.txt": "From x\n" });
  g(repo, "rm", "-q", "gone.txt");
  g(repo, "add", "-A");
  g(repo, "commit", "-q", "-m", "many kinds\n\nFrom the body: a line that starts like a separator");
  g(repo, "update-index", "--chmod=+x", "mode.sh");
  g(repo, "commit", "-q", "-m", "mode only");
  g(repo, "commit", "-q", "--allow-empty", "-m", "empty one");
  return { repo, base };
}

describe("PatchScanner", () => {
  it.each(SIZES)(
    "reads the same paths as the line parser from a plain diff fed in %i-byte chunks",
    (size) => {
      const { repo, base } = history();
      for (const quote of ["true", "false"]) {
        const patch = git(repo, [
          "-c",
          `core.quotePath=${quote}`,
          "diff",
          "--binary",
          "-M",
          "-C",
          "--find-copies-harder",
          base,
          "HEAD",
        ]);
        expect(scan(patch, size)).toEqual({ paths: [...patchPaths(patch)].sort(), commits: [] });
        expect(scan(patch, size, "diff")).toEqual({ paths: [...patchPaths(patch)].sort(), commits: [] });
      }
    },
  );

  it.each(SIZES)("reads the paths and commit ids of an mbox fed in %i-byte chunks", (size) => {
    const { repo, base } = history();
    const mbox = git(repo, ["format-patch", "--stdout", "--always", "-M", "--binary", `${base}..HEAD`]);
    const { paths, commits } = scan(mbox, size);
    expect(commits).toEqual(mboxCommits(mbox));
    expect(commits).toHaveLength(3);
    expect(paths).toEqual([...patchPaths(mbox)].sort());
  });

  it("ignores header-like text inside hunks and finds a header split across chunks at every offset", () => {
    const patch = [
      "diff --git a/one b/one",
      "--- a/one",
      "+++ b/one",
      "@@ -1,2 +1,2 @@",
      "-diff --git a/not b/not",
      "+From 0123456789012345678901234567890123456789 Mon Sep 17 00:00:00 2001",
      "diff --git a/two b/two",
      "new file mode 100644",
      "GIT binary patch",
      "literal 3",
      "KcmZ>Y%mDxl2LK)b",
      "",
      "literal 0",
      "HcmV?d00001",
      "",
      "diff --git a/three b/four",
      "similarity index 90%",
      "rename from three",
      "rename to four",
      "",
    ].join("\n");
    for (let size = 1; size <= patch.length; size++) {
      for (const kind of ["mbox", "diff"] as const) {
        expect(scan(patch, size, kind)).toEqual({ paths: ["four", "one", "three", "two"], commits: [] });
      }
    }
  });

  it("reads a last line that has no newline", () => {
    expect(scan("diff --git a/x b/x", 4).paths).toEqual(["x"]);
    expect(scan("diff --git a/x b/x\nold mode 100644\nnew mode 100755", 5).paths).toEqual(["x"]);
  });

  it("keeps nothing of a very long line that is not a header", () => {
    const long = `+${"y".repeat(3 << 20)}`;
    const patch = `diff --git a/big b/big\n--- a/big\n+++ b/big\n@@ -0,0 +1 @@\n${long}\ndiff --git a/next b/next\n`;
    expect(scan(patch, 4096).paths).toEqual(["big", "next"]);
  });
});
