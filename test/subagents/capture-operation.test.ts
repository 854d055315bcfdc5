import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { PLAIN } from "../../src/core/printed.js";
import { gitStatus } from "../../src/git/run.js";
import { type ChildStateFacts, childStateGate } from "../../src/subagents/apply/capture-gate.js";
import { captureWorktree } from "../../src/subagents/capture/capture.js";
import {
  type InProgress,
  type OperationFiles,
  operationFrom,
} from "../../src/subagents/capture/operation.js";
import { g, initRepo, tempDir, writeFiles } from "../helpers/repo.js";

const A = "a".repeat(40);
const B = "b".repeat(40);
const C = "c".repeat(40);

describe("which operation a worktree's git dir shows", () => {
  const cases: [string, OperationFiles, Partial<InProgress> | null][] = [
    ["nothing", {}, null],
    [
      "a merge-backend rebase, with its branch, onto, original head and stopped commit",
      {
        "rebase-merge": "",
        "rebase-merge/head-name": "refs/heads/tandem/sub/x",
        "rebase-merge/onto": A,
        "rebase-merge/orig-head": B,
        "rebase-merge/stopped-sha": C,
      },
      { operation: "rebase", branch: "tandem/sub/x", onto: A, origHead: B, incoming: C },
    ],
    [
      "an apply-backend rebase",
      { "rebase-apply": "", "rebase-apply/head-name": "refs/heads/b", "rebase-apply/onto": A },
      { operation: "rebase", branch: "b", onto: A },
    ],
    [
      "git am (rebase-apply/applying)",
      { "rebase-apply": "", "rebase-apply/applying": "" },
      { operation: "am" },
    ],
    [
      "a rebase of a detached HEAD names no branch",
      { "rebase-merge": "", "rebase-merge/head-name": "detached HEAD" },
      { operation: "rebase", branch: null },
    ],
    ["a merge", { MERGE_HEAD: `${A}\n${B}` }, { operation: "merge", incoming: A }],
    ["a cherry-pick", { CHERRY_PICK_HEAD: A }, { operation: "cherry-pick", incoming: A }],
    ["a revert", { REVERT_HEAD: A }, { operation: "revert", incoming: A }],
    [
      "a cherry-pick sequence between commits",
      { sequencer: "", "sequencer/todo": `pick ${A} next` },
      { operation: "cherry-pick" },
    ],
    [
      "a revert sequence between commits",
      { sequencer: "", "sequencer/todo": `revert ${A} next` },
      { operation: "revert" },
    ],
    ["a sequencer without a todo", { sequencer: "" }, { operation: "sequencer" }],
    ["a bisect", { BISECT_LOG: "# bad", BISECT_START: "main" }, { operation: "bisect", branch: "main" }],
    [
      "a merge stopped during a bisect reports the merge",
      { BISECT_LOG: "", MERGE_HEAD: A },
      { operation: "merge" },
    ],
    [
      "unreadable state still counts",
      { "rebase-merge": "" },
      { operation: "rebase", branch: null, onto: null },
    ],
  ];
  it.each(cases)("%s", (_name, files, expected) => {
    const op = operationFrom(files, ["x.txt"]);
    if (expected === null) expect(op).toBeNull();
    else expect(op).toMatchObject({ ...expected, conflicted: ["x.txt"] });
  });
});

const REBASE: InProgress = {
  operation: "rebase",
  branch: "tandem/sub/x",
  onto: A,
  origHead: B,
  incoming: C,
  conflicted: ["a.txt"],
};

const facts = (over: Partial<ChildStateFacts>): ChildStateFacts => ({
  inProgress: null,
  conflictMarkers: [],
  allowInProgress: false,
  allowConflictMarkers: false,
  worktree: "/w/child dir",
  branch: "tandem/sub/x",
  subId: "sub_1",
  printer: PLAIN,
  ...over,
});

describe("the gate on half-done child work", () => {
  it.each<[string, Partial<ChildStateFacts>, RegExp | null]>([
    ["finished work passes", {}, null],
    [
      "a rebase is refused with quoted commands and the branch",
      { inProgress: REBASE },
      /git -C '\/w\/child dir' rebase --abort.*tandem sub capture sub_1.*--allow-in-progress/,
    ],
    [
      "--allow-in-progress lets a rebase without markers through",
      { inProgress: REBASE, allowInProgress: true },
      null,
    ],
    [
      "markers are refused even with --allow-in-progress",
      { inProgress: REBASE, allowInProgress: true, conflictMarkers: ["a.txt"] },
      /adds conflict markers to a\.txt.*--allow-conflict-markers/,
    ],
    [
      "markers alone are refused",
      { conflictMarkers: ["a.txt", "b.txt"] },
      /adds conflict markers to a\.txt, b\.txt/,
    ],
    [
      "--allow-conflict-markers lets markers through",
      { conflictMarkers: ["a.txt"], allowConflictMarkers: true },
      null,
    ],
    [
      "a bisect is ended with bisect reset",
      { inProgress: { ...REBASE, operation: "bisect", conflicted: [] } },
      /bisect reset/,
    ],
  ])("%s", (_name, over, refusal) => {
    const warnings: string[] = [];
    const r = childStateGate(facts(over), warnings);
    if (refusal === null) expect(r).toBeNull();
    else expect(r?.reason).toMatch(refusal);
    if (over.allowInProgress && r === null) expect(warnings.join(" ")).toContain("--allow-in-progress");
  });

  it("names the conflicted paths of a refused operation", () => {
    expect(childStateGate(facts({ inProgress: REBASE }), [])?.paths).toEqual(["a.txt"]);
  });
});

/** A repository with a child worktree whose branch edits a.txt, and a branch `side` that edits it too. */
function setup() {
  const root = tempDir();
  const repo = initRepo(join(root, "repo"), { "a.txt": "base\n" });
  const base = g(repo, "rev-parse", "HEAD").trim();
  g(repo, "checkout", "-q", "-b", "side");
  writeFiles(repo, { "a.txt": "side\n" });
  g(repo, "commit", "-qam", "side");
  g(repo, "checkout", "-q", "main");
  const child = join(root, "child");
  g(repo, "worktree", "add", "-q", "-b", "tandem/sub/t1", child, base);
  writeFiles(child, { "a.txt": "child\n" });
  g(child, "commit", "-qam", "child");
  const blobs = join(root, "blobs");
  const tmp = join(root, "tmp");
  mkdirSync(tmp);
  const capture = () =>
    captureWorktree({
      worktree: child,
      base,
      blobsDir: blobs,
      maxDirtyBytes: 1 << 30,
      maxPatchBytes: 1 << 30,
      tmpDir: tmp,
    });
  return { repo, child, base, capture };
}

/** Runs git expecting it to stop (exit non-zero) on the conflict. */
function stops(cwd: string, ...args: string[]): void {
  const r = gitStatus(cwd, ["-c", "user.name=T", "-c", "user.email=t@t.invalid", ...args]);
  expect(r.status, r.stderr).not.toBe(0);
}

describe("capture in a real child worktree", () => {
  it("records a clean child as having nothing in progress", async () => {
    const f = setup();
    const r = await f.capture();
    expect(r.inProgress).toBeNull();
    expect(r.conflictMarkers).toEqual([]);
  });

  it.each<[string, string[]]>([
    ["an apply-backend rebase", ["rebase", "--apply", "side"]],
    ["a merge-backend rebase", ["rebase", "--merge", "side"]],
  ])("records %s with its branch, conflicted path and the markers it left", async (_name, args) => {
    const f = setup();
    stops(f.child, ...args);
    const r = await f.capture();
    const side = g(f.repo, "rev-parse", "side").trim();
    expect(r.inProgress).toMatchObject({
      operation: "rebase",
      branch: "tandem/sub/t1",
      onto: side,
      conflicted: ["a.txt"],
    });
    expect(r.conflictMarkers).toEqual(["a.txt"]);
  });

  it("records a revert stopped on a conflict", async () => {
    const f = setup();
    writeFiles(f.child, { "a.txt": "child2\n" });
    g(f.child, "commit", "-qam", "child2");
    stops(f.child, "revert", "--no-edit", "HEAD~1");
    const r = await f.capture();
    expect(r.inProgress).toMatchObject({ operation: "revert", conflicted: ["a.txt"] });
    expect(r.conflictMarkers).toEqual(["a.txt"]);
  });

  it("records git am stopped on a patch that does not apply", async () => {
    const f = setup();
    const mbox = join(f.child, "..", "side.mbox");
    writeFiles(join(f.child, ".."), { "side.mbox": g(f.repo, "format-patch", "-1", "side", "--stdout") });
    stops(f.child, "am", mbox);
    const r = await f.capture();
    expect(r.inProgress?.operation).toBe("am");
  });

  it("records a bisect, which leaves no conflict", async () => {
    const f = setup();
    g(f.child, "bisect", "start", "HEAD", f.base);
    const r = await f.capture();
    expect(r.inProgress).toMatchObject({ operation: "bisect", branch: "tandem/sub/t1", conflicted: [] });
  });
});
