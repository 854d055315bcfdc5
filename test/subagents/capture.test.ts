import { createHash, randomBytes } from "node:crypto";
import {
  chmodSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  renameSync,
  rmSync,
  statSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { git } from "../../src/git/run.js";
import { gitToFile } from "../../src/git/stream.js";
import { blobPath, readBlob, verifyBlob } from "../../src/store/blobs/files.js";
import {
  type CaptureOptions,
  type CaptureResult,
  captureWorktree,
} from "../../src/subagents/capture/capture.js";
import { patchPaths } from "../../src/subagents/capture/patch-paths.js";
import { g, initRepo, tempDir, writeFiles } from "../helpers/repo.js";

const BIG = 1 << 30;

interface Fixture {
  root: string;
  repo: string;
  child: string;
  base: string;
  blobs: string;
  tmp: string;
}

const FILES = { "README.md": "hello\n", "src/a.txt": "alpha\n" };

function setup(files: Record<string, string> = FILES, under = ""): Fixture {
  const root = join(tempDir(), under);
  const repo = initRepo(join(root, "repo"), files);
  const base = g(repo, "rev-parse", "HEAD").trim();
  const child = join(root, "child");
  g(repo, "worktree", "add", "-q", "-b", "tandem/sub/t1", child, base);
  const tmp = join(root, "tmp");
  mkdirSync(tmp);
  return { root, repo, child, base, blobs: join(root, "state", "blobs"), tmp };
}

const sha = (data: Buffer | string) => createHash("sha256").update(data).digest("hex");

/**
 * Every entry under `dir`: type, mode, mtime and content hash (files) or target (links).
 * Object files skip the mtime: git "freshens" (touches) an existing object whenever it
 * hashes identical content, even through alternates; that is content-neutral.
 */
function walk(dir: string, out: Record<string, string> = {}, rel = ""): Record<string, string> {
  for (const name of readdirSync(join(dir, rel)).sort()) {
    const r = rel ? `${rel}/${name}` : name;
    const st = lstatSync(join(dir, r));
    if (st.isDirectory()) {
      out[r] = `dir ${st.mode}`;
      walk(dir, out, r);
    } else if (st.isSymbolicLink()) out[r] = `link ${readlinkSync(join(dir, r))}`;
    else {
      const mtime = /^objects\/[0-9a-f]{2}\/|^objects\/pack\//.test(r) ? "" : st.mtimeMs;
      out[r] = `file ${st.mode} ${mtime} ${sha(readFileSync(join(dir, r)))}`;
    }
  }
  return out;
}

/** Everything capture promises not to change in the child. */
function childState(child: string) {
  const common = resolve(child, g(child, "rev-parse", "--git-common-dir").trim());
  const index = resolve(child, g(child, "rev-parse", "--git-path", "index").trim());
  return {
    index: sha(readFileSync(index)),
    status: git(child, ["status", "--porcelain=v2", "-z", "--untracked-files=all"]),
    refs: g(child, "for-each-ref"),
    objects: g(child, "count-objects", "-v"),
    worktree: walk(child),
    gitDir: walk(common),
  };
}

function captureRaw(f: Fixture, extra: Partial<CaptureOptions> = {}): Promise<CaptureResult> {
  return captureWorktree({
    worktree: f.child,
    base: f.base,
    blobsDir: f.blobs,
    maxDirtyBytes: BIG,
    maxPatchBytes: BIG,
    tmpDir: f.tmp,
    ...extra,
  });
}

/** Captures and asserts the child is byte-for-byte unchanged and no temp file survived. */
async function capture(f: Fixture, extra: Partial<CaptureOptions> = {}): Promise<CaptureResult> {
  const before = childState(f.child);
  const result = await captureRaw(f, extra);
  expect(childState(f.child)).toEqual(before);
  expect(readdirSync(f.tmp)).toEqual([]);
  const blobs = existsSync(f.blobs) ? readdirSync(f.blobs) : [];
  expect(blobs.filter((n) => n.startsWith("."))).toEqual([]);
  for (const b of [result.mboxBlob, result.patchBlob]) if (b) expect(verifyBlob(f.blobs, b)).toBe(true);
  return result;
}

/**
 * Applies the artifact like `sub apply` must, on a fresh detached worktree at base:
 * `--keep-cr` (plain `am` strips CR from CRLF content), `--empty=keep` (the mbox
 * keeps empty commits) and `--whitespace=nowarn` (apply.whitespace=fix would edit content).
 */
function applyFresh(f: Fixture, r: CaptureResult, name = "target"): string {
  const target = join(f.root, name);
  g(f.repo, "worktree", "add", "-q", "--detach", target, f.base);
  const ws = "--whitespace=nowarn";
  if (r.mboxBlob) g(target, "am", "-q", "--keep-cr", "--empty=keep", ws, blobPath(f.blobs, r.mboxBlob));
  if (r.patchBlob) g(target, "apply", "--3way", "--binary", ws, blobPath(f.blobs, r.patchBlob));
  return target;
}

function treeOf(dir: string): string {
  // Full stat checks: a repository set to trust less (the racy-entry case) would keep a stale
  // entry for a same-size edit whose index was written a moment later, as on a busy machine.
  g(dir, "-c", "core.trustctime=true", "-c", "core.checkStat=default", "add", "-A");
  return g(dir, "write-tree").trim();
}

/** Full round trip: the applied artifact reproduces the child's commits and worktree. */
function expectRoundTrip(f: Fixture, r: CaptureResult): string {
  const target = applyFresh(f, r);
  expect(g(target, "log", "--format=%B%an%ae", `${f.base}..HEAD`)).toBe(
    g(f.child, "log", "--format=%B%an%ae", `${f.base}..HEAD`),
  );
  expect(treeOf(target)).toBe(treeOf(f.child));
  return target;
}

const patchText = (f: Fixture, r: CaptureResult) => readBlob(f.blobs, r.patchBlob!).toString("utf8");

function commit(dir: string, files: Record<string, string>, message: string): void {
  writeFiles(dir, files);
  g(dir, "add", "-A");
  g(dir, "commit", "-q", "-m", message);
}

describe("captureWorktree: what is captured", () => {
  it("captures a dirty tracked change with zero commits", async () => {
    const f = setup();
    writeFiles(f.child, { "README.md": "hello\nmore\n" });
    const r = await capture(f);
    expect(r).toMatchObject({ ok: true, base: f.base, head: f.base, commitCount: 0, mboxBlob: null });
    expect(r).toMatchObject({ hadUncommittedChanges: true, dirtyPaths: ["README.md"], uncaptured: [] });
    expect(r.patchBytes).toBe(statSync(blobPath(f.blobs, r.patchBlob!)).size);
    expect(patchText(f, r)).toContain("diff --git a/README.md b/README.md");
    expectRoundTrip(f, r);
  });

  it("captures commits and dirty work, the worktree version over the staged one", async () => {
    const f = setup();
    commit(f.child, { "src/a.txt": "alpha\nbeta\n" }, "first change");
    commit(f.child, { "src/b.txt": "bee\n" }, "second change\n\nwith a body");
    writeFiles(f.child, { "src/b.txt": "staged\n" });
    g(f.child, "add", "src/b.txt");
    writeFiles(f.child, { "src/b.txt": "worktree\n", "new.txt": "untracked\n" });
    const r = await capture(f);
    expect(r.uncaptured).toEqual([]);
    expect(r).toMatchObject({ ok: true, commitCount: 2, hadUncommittedChanges: true });
    expect(r.head).toBe(g(f.child, "rev-parse", "HEAD").trim());
    expect(r.mboxBlob).not.toBeNull();
    expect(r.dirtyPaths).toEqual(["src/b.txt", "new.txt"]);
    const target = expectRoundTrip(f, r);
    expect(readFileSync(join(target, "src/b.txt"), "utf8")).toBe("worktree\n");
  });

  it("keeps CRLF line endings and trailing whitespace byte for byte", async () => {
    const f = setup();
    g(f.repo, "config", "apply.whitespace", "fix");
    commit(f.child, { "dos.txt": "one\r\ntwo  \r\n", "tail.txt": "trailing   \n" }, "crlf");
    writeFiles(f.child, { "dos.txt": "one\r\ntwo  \r\nthree\r\n", "new-dos.txt": "x\r\n\t \n" });
    const r = await capture(f);
    const target = expectRoundTrip(f, r);
    expect(readFileSync(join(target, "dos.txt"), "utf8")).toBe("one\r\ntwo  \r\nthree\r\n");
  });

  it("captures untracked and binary files", async () => {
    const f = setup();
    const bin = randomBytes(5000);
    bin[10] = 0;
    commit(f.child, { "keep.txt": "x\n" }, "c1");
    writeFileSync(join(f.child, "committed.bin"), bin);
    g(f.child, "add", "-A");
    g(f.child, "commit", "-q", "-m", "binary");
    writeFileSync(join(f.child, "committed.bin"), Buffer.concat([bin, randomBytes(100)]));
    mkdirSync(join(f.child, "deep/er"), { recursive: true });
    writeFileSync(join(f.child, "deep/er/new.bin"), randomBytes(3000));
    writeFiles(f.child, { "deep/notes.md": "notes\n" });
    const r = await capture(f);
    expect(r).toMatchObject({ ok: true, commitCount: 2, hadUncommittedChanges: true });
    expect(patchText(f, r)).toContain("GIT binary patch");
    const target = expectRoundTrip(f, r);
    expect(readFileSync(join(target, "deep/er/new.bin"))).toEqual(
      readFileSync(join(f.child, "deep/er/new.bin")),
    );
  });

  it("captures a deletion", async () => {
    const f = setup();
    rmSync(join(f.child, "src/a.txt"));
    const r = await capture(f);
    expect(r.dirtyPaths).toEqual(["src/a.txt"]);
    expect(patchText(f, r)).toContain("deleted file mode 100644");
    const target = expectRoundTrip(f, r);
    expect(existsSync(join(target, "src/a.txt"))).toBe(false);
  });

  it("captures an unstaged rename as a rename, with an edit", async () => {
    const lines = Array.from({ length: 40 }, (_, i) => `line ${i}\n`).join("");
    const f = setup({ "old name.txt": lines });
    renameSync(join(f.child, "old name.txt"), join(f.child, "new name.txt"));
    writeFileSync(join(f.child, "new name.txt"), `${lines}tail\n`);
    const r = await capture(f);
    expect(r.dirtyPaths.sort()).toEqual(["new name.txt", "old name.txt"]);
    const text = patchText(f, r);
    expect(text).toContain("rename from old name.txt");
    expect(text).toContain("rename to new name.txt");
    // Read while git wrote the patch: the same paths a scan of the stored blob finds.
    expect(r.patchPaths?.sort()).toEqual([...patchPaths(text)].sort());
    expect(r.patchPaths?.sort()).toEqual(["new name.txt", "old name.txt"]);
    expectRoundTrip(f, r);
  });

  it("captures a mode change and a symlink", async () => {
    const f = setup({ "run.sh": "#!/bin/sh\necho hi\n" });
    chmodSync(join(f.child, "run.sh"), 0o755);
    symlinkSync("run.sh", join(f.child, "link"));
    const r = await capture(f);
    const text = patchText(f, r);
    expect(text).toContain("old mode 100644\nnew mode 100755");
    expect(text).toContain("new file mode 120000");
    const target = expectRoundTrip(f, r);
    expect(statSync(join(target, "run.sh")).mode & 0o111).not.toBe(0);
    expect(readlinkSync(join(target, "link"))).toBe("run.sh");
  });

  it("sees a same-size edit that stat data cannot tell apart (racy entry)", async () => {
    const f = setup();
    g(f.repo, "config", "core.trustctime", "false");
    g(f.repo, "config", "core.checkStat", "minimal");
    const file = join(f.child, "r.txt");
    writeFiles(f.child, { "r.txt": "aaaa\n" });
    g(f.child, "add", "r.txt");
    const st = statSync(file);
    writeFiles(f.child, { "r.txt": "bbbb\n" });
    utimesSync(file, st.atime, st.mtime);
    const r = await capture(f);
    expect(patchText(f, r)).toContain("+bbbb");
    expectRoundTrip(f, r);
  });

  it("captures a conflicted merge as the worktree content, markers included", async () => {
    const f = setup();
    g(f.child, "checkout", "-q", "-b", "other");
    commit(f.child, { "src/a.txt": "other side\n" }, "other");
    g(f.child, "checkout", "-q", "tandem/sub/t1");
    commit(f.child, { "src/a.txt": "our side\n" }, "ours");
    expect(() => g(f.child, "merge", "-q", "other")).toThrow();
    const r = await capture(f);
    expect(r).toMatchObject({ ok: true, commitCount: 1, dirtyPaths: ["src/a.txt"] });
    expect(patchText(f, r)).toContain("+<<<<<<< HEAD");
    const target = applyFresh(f, r);
    expect(readFileSync(join(target, "src/a.txt"), "utf8")).toBe(
      readFileSync(join(f.child, "src/a.txt"), "utf8"),
    );
  });

  it("records no dirty fields for a clean child", async () => {
    const f = setup();
    commit(f.child, { "c.txt": "c\n" }, "only a commit");
    const r = await capture(f);
    expect(r).toMatchObject({ ok: true, commitCount: 1, hadUncommittedChanges: false });
    expect(r).toMatchObject({ patchBlob: null, patchBytes: 0, dirtyPaths: [], uncaptured: [] });
    expectRoundTrip(f, r);
  });

  it("records nothing for an untouched child", async () => {
    const f = setup();
    const r = await capture(f);
    expect(r).toEqual({
      ok: true,
      base: f.base,
      head: f.base,
      commitCount: 0,
      mboxBlob: null,
      mboxBytes: 0,
      patchBlob: null,
      patchBytes: 0,
      hadUncommittedChanges: false,
      dirtyPaths: [],
      uncaptured: [],
      patchPaths: null,
      inProgress: null,
      conflictMarkers: [],
    });
    expect(existsSync(f.blobs) ? readdirSync(f.blobs) : []).toEqual([]);
  });

  it("keeps empty commits so the mbox has one message per commit", async () => {
    const f = setup();
    g(f.child, "commit", "-q", "--allow-empty", "-m", "empty marker");
    commit(f.child, { "x.txt": "x\n" }, "real");
    const r = await capture(f);
    expect(r.commitCount).toBe(2);
    expectRoundTrip(f, r);
  });

  it("is deterministic: capturing twice yields the same blobs", async () => {
    const f = setup();
    commit(f.child, { "x.txt": "x\n" }, "c");
    writeFiles(f.child, { "y.txt": "y\n" });
    const a = await capture(f);
    const b = await capture(f);
    expect([b.mboxBlob, b.patchBlob]).toEqual([a.mboxBlob, a.patchBlob]);
  });

  it("works when the repository path holds a colon, quotes and a space", async () => {
    const f = setup(FILES, 'we:ird "dir\'s"');
    writeFiles(f.child, { "src/a.txt": "changed\n", "new.bin": "\0binary\0" });
    const r = await capture(f);
    expect(r.ok).toBe(true);
    expectRoundTrip(f, r);
  });

  it("handles names with spaces, quotes, non-ASCII, leading dashes and glob characters", async () => {
    const f = setup();
    const names = [
      "with space.txt",
      'dq"uote.txt',
      "it's.txt",
      "ünïcødé ✓.txt",
      "-leading.txt",
      "--",
      "*[x]?.txt",
    ];
    const odd = ["tab\there.txt", "new\nline.txt", "back\\slash.txt"];
    commit(f.child, Object.fromEntries(names.map((n) => [`committed/${n}`, `${n}\n`])), "odd names");
    writeFiles(f.child, Object.fromEntries([...names, ...odd].map((n) => [n, `dirty ${n}\n`])));
    writeFiles(f.child, { "committed/with space.txt": "changed\n" });
    rmSync(join(f.child, "committed/-leading.txt"));
    const r = await capture(f);
    expect(r.ok).toBe(true);
    expect(r.dirtyPaths).toEqual(expect.arrayContaining([...names, ...odd, "committed/-leading.txt"]));
    expectRoundTrip(f, r);
  });
});

describe("captureWorktree: hostile configuration", () => {
  it("produces applicable artifacts whatever diff.* and format.* say", async () => {
    const f = setup({ "README.md": "hello\n", "notes.txt": "lower case text\n" });
    const script = join(f.root, "garbage-diff.sh");
    writeFileSync(script, "#!/bin/sh\necho GARBAGE FROM EXTERNAL DIFF\n", { mode: 0o755 });
    const config: Record<string, string> = {
      "diff.noprefix": "true",
      "diff.mnemonicPrefix": "true",
      "diff.external": script,
      "diff.upper.textconv": "tr a-z A-Z",
      "diff.context": "0",
      "diff.suppressBlankEmpty": "true",
      "diff.submodule": "log",
      "diff.ignoreSubmodules": "all",
      "diff.renames": "false",
      "color.ui": "always",
      "format.signOff": "true",
      "format.signature": "SIGNATURE",
      "format.coverLetter": "true",
      "format.numbered": "true",
      "format.subjectPrefix": "CUSTOM",
      "format.thread": "deep",
      "format.useAutoBase": "true",
      "format.attach": "true",
      "format.headers": "X-Test: 1",
      "format.from": "true",
      "format.notes": "true",
      "status.showUntrackedFiles": "no",
      "add.ignoreErrors": "true",
    };
    for (const [key, value] of Object.entries(config)) g(f.repo, "config", key, value);
    writeFileSync(join(f.repo, ".git/info/attributes"), "*.txt diff=upper\n");
    commit(f.child, { "notes.txt": "lower case text\n\nmore lower text\n" }, "edit notes");
    writeFiles(f.child, { "notes.txt": "lower case text\n\nmore lower text\nand dirty\n", "u.txt": "new\n" });
    const r = await capture(f);
    expect(r).toMatchObject({ ok: true, commitCount: 1 });
    const mbox = readBlob(f.blobs, r.mboxBlob!).toString("utf8");
    const patch = patchText(f, r);
    for (const text of [mbox, patch]) {
      expect(text).not.toMatch(/GARBAGE|LOWER|SIGNATURE|Signed-off-by|X-Test/);
      expect(text).not.toContain("\u001b[");
      expect(text).toContain("diff --git a/notes.txt b/notes.txt");
    }
    expect(mbox.match(/^From [0-9a-f]{40} /gm)).toHaveLength(1);
    expectRoundTrip(f, r);
  });
});

describe("captureWorktree: exclusions and bounds", () => {
  it("reports dirty submodules and embedded repositories as not captured", async () => {
    const f = setup();
    const subsrc = initRepo(join(f.root, "subsrc"), { "lib.txt": "lib\n" });
    g(f.repo, "submodule", "add", "-q", subsrc, "sub");
    g(f.repo, "commit", "-q", "-m", "add submodule");
    f.base = g(f.repo, "rev-parse", "HEAD").trim();
    g(f.child, "reset", "-q", "--hard", f.base);
    g(f.child, "submodule", "update", "-q", "--init");
    writeFiles(f.child, { "sub/lib.txt": "changed inside\n" });
    initRepo(join(f.child, "emb[1]"), { "inner.txt": "inner\n" });
    mkdirSync(join(f.child, "nested/empty-repo"), { recursive: true });
    g(join(f.child, "nested/empty-repo"), "init", "-q");
    writeFiles(f.child, {
      "nested/empty-repo/file.txt": "no commit\n",
      emb1: "sibling\n",
      "nested/x.txt": "x\n",
    });
    const r = await capture(f);
    expect(r.ok).toBe(true);
    expect(r.uncaptured).toEqual([
      { reason: "dirty-submodule", paths: ["sub"] },
      { reason: "embedded-repository", paths: expect.arrayContaining(["emb[1]", "nested/empty-repo"]) },
    ]);
    const text = patchText(f, r);
    expect(text).toContain("b/emb1\n");
    expect(text).toContain("b/nested/x.txt\n");
    expect(text).not.toMatch(/emb\[1\]|empty-repo|a\/sub|b\/sub/);
    const target = applyFresh(f, r);
    expect(readFileSync(join(target, "emb1"), "utf8")).toBe("sibling\n");
  });

  it("skips uncommitted capture above maxDirtyBytes", async () => {
    const f = setup();
    commit(f.child, { "c.txt": "c\n" }, "kept");
    writeFiles(f.child, { "a.txt": "a".repeat(600), "b.txt": "b".repeat(600) });
    const r = await capture(f, { maxDirtyBytes: 1000 });
    expect(r).toMatchObject({ ok: true, commitCount: 1, hadUncommittedChanges: true, patchBlob: null });
    expect(r.mboxBlob).not.toBeNull();
    expect(r.uncaptured).toEqual([{ reason: "dirty-size-exceeded", paths: ["a.txt", "b.txt"] }]);
  });

  it("cancels an oversized patch stream and leaves no file behind", async () => {
    const f = setup();
    writeFileSync(join(f.child, "big.bin"), randomBytes(4 * 1024 * 1024));
    const r = await capture(f, { maxPatchBytes: 64 * 1024 });
    expect(r).toMatchObject({ ok: true, hadUncommittedChanges: true, patchBlob: null, patchBytes: 0 });
    expect(r.uncaptured).toEqual([{ reason: "patch-size-exceeded", paths: ["big.bin"] }]);
    expect(existsSync(f.blobs) ? readdirSync(f.blobs) : []).toEqual([]);
    expect(readdirSync(f.tmp)).toEqual([]);
  });

  it("reports merge commits, which format-patch cannot carry", async () => {
    const f = setup();
    g(f.child, "checkout", "-q", "-b", "side");
    commit(f.child, { "side.txt": "s\n" }, "side");
    g(f.child, "checkout", "-q", "tandem/sub/t1");
    commit(f.child, { "main.txt": "m\n" }, "main");
    g(f.child, "merge", "-q", "--no-ff", "-m", "merge side", "side");
    const r = await capture(f);
    expect(r.commitCount).toBe(2);
    expect(r.uncaptured).toEqual([
      { reason: "merge-commits", paths: [g(f.child, "rev-parse", "HEAD").trim()] },
    ]);
  });
});

describe("captureWorktree: fails closed", () => {
  it("reports a missing HEAD object as a failed capture, conservatively dirty", async () => {
    const f = setup();
    commit(f.child, { "c.txt": "c\n" }, "doomed");
    const head = g(f.child, "rev-parse", "HEAD").trim();
    rmSync(join(f.repo, ".git/objects", head.slice(0, 2), head.slice(2)));
    const r = await captureRaw(f);
    expect(r).toMatchObject({ ok: false, head: null, hadUncommittedChanges: true, mboxBlob: null });
    expect(r.uncaptured[0]!.reason).toMatch(/^capture-failed: git rev-parse failed/);
  });

  it("reports a broken .git link as a failed capture", async () => {
    const f = setup();
    writeFileSync(join(f.child, ".git"), "not a gitfile\n");
    const r = await captureRaw(f);
    expect(r).toMatchObject({ ok: false, hadUncommittedChanges: true });
    expect(r.uncaptured).toHaveLength(1);
    expect(r.uncaptured[0]!.reason).toMatch(/^capture-failed: /);
    expect(readdirSync(f.tmp)).toEqual([]);
  });

  it("still captures dirty work when format-patch fails", async () => {
    const f = setup();
    commit(f.child, { "v.txt": "version one\n" }, "one");
    commit(f.child, { "v.txt": "version two\n" }, "two");
    const lost = g(f.child, "rev-parse", "HEAD~1:v.txt").trim();
    rmSync(join(f.repo, ".git/objects", lost.slice(0, 2), lost.slice(2)));
    writeFiles(f.child, { "dirty.txt": "still here\n" });
    const r = await capture(f);
    expect(r).toMatchObject({ ok: false, commitCount: 2, mboxBlob: null, hadUncommittedChanges: true });
    expect(r.uncaptured).toEqual([
      { reason: expect.stringMatching(/^capture-failed: git format-patch/), paths: [] },
    ]);
    expect(patchText(f, r)).toContain("b/dirty.txt");
  });

  it("fails when the base is not an ancestor of HEAD", async () => {
    const f = setup();
    commit(f.repo, { "elsewhere.txt": "e\n" }, "parent moved on");
    const r = await capture(f, { base: g(f.repo, "rev-parse", "HEAD").trim() });
    expect(r.ok).toBe(false);
    expect(r.uncaptured[0]!.reason).toMatch(/not an ancestor/);
  });

  it("rejects a base that is not a full commit id", async () => {
    const f = setup();
    const r = await capture(f, { base: "HEAD" });
    expect(r).toMatchObject({ ok: false, hadUncommittedChanges: true });
    expect(r.uncaptured[0]!.reason).toMatch(/full commit id/);
  });
});

describe("captureWorktree: durability hook", () => {
  it("calls the crash point after the blobs are durable", async () => {
    const f = setup();
    commit(f.child, { "c.txt": "c\n" }, "c");
    writeFiles(f.child, { "d.txt": "d\n" });
    const seen: string[] = [];
    let present = false;
    const r = await capture(f, {
      crashAt: (point) => {
        seen.push(point);
        present = readdirSync(f.blobs).length === 2;
      },
    });
    expect(seen).toEqual(["capture:after-blob-write"]);
    expect(present).toBe(true);
    expect(r.ok).toBe(true);
  });
});

describe("gitToFile", () => {
  it("kills git mid-stream at the cap and deletes the partial file", async () => {
    const dir = initRepo(join(tempDir(), "r"));
    writeFileSync(join(dir, "big"), randomBytes(8 * 1024 * 1024));
    const blob = g(dir, "hash-object", "-w", "big").trim();
    const file = join(dir, "out");
    const res = await gitToFile(dir, ["cat-file", "blob", blob], { file, maxBytes: 100_000 });
    expect(res.exceeded).toBe(true);
    if (res.exceeded) expect(res.bytesSeen).toBeLessThan(8 * 1024 * 1024);
    expect(existsSync(file)).toBe(false);
  });

  it("writes complete output and deletes the file when git fails", async () => {
    const dir = initRepo(join(tempDir(), "r"));
    const file = join(dir, "out");
    expect(await gitToFile(dir, ["cat-file", "blob", "HEAD:README.md"], { file, maxBytes: 6 })).toEqual({
      exceeded: false,
      bytes: 6,
    });
    expect(readFileSync(file, "utf8")).toBe("hello\n");
    rmSync(file);
    await expect(gitToFile(dir, ["cat-file", "blob", "HEAD:nope"], { file, maxBytes: 100 })).rejects.toThrow(
      /cat-file/,
    );
    expect(existsSync(file)).toBe(false);
  });
});
