import { describe, expect, it } from "vitest";
import { type PreflightFacts, preflight } from "../../src/subagents/apply/preflight.js";
import {
  type CommitFacts,
  partialRefusal,
  reconcileCommits,
  reconcileWorktree,
} from "../../src/subagents/apply/reconcile.js";
import { childEnv } from "../../src/subagents/lifecycle/child-env.js";
import { launchLine } from "../../src/subagents/lifecycle/launch.js";
import { finishedChild } from "./sub-fixture.js";

const F = "f".repeat(40);
const H = "a".repeat(40);
const M = "b".repeat(40);

const commits = (over: Partial<CommitFacts>): CommitFacts => ({
  stage: "am-started",
  fence: F,
  amHead: null,
  head: F,
  amInProgress: false,
  fenceIsAncestor: true,
  amHeadIsAncestor: false,
  seriesLanded: null,
  ...over,
});

describe("reconciling an interrupted apply from its marker", () => {
  it.each<[string, Partial<CommitFacts>, string]>([
    ["am session still running", { amInProgress: true, head: H }, "am-in-progress"],
    ["HEAD still at the fence", {}, "fresh"],
    ["exactly the artifact's commits after the fence", { head: H, seriesLanded: true }, "landed"],
    ["other commits after the fence", { head: H, seriesLanded: false }, "fail-closed"],
    ["fence no longer an ancestor (reset or rebased)", { head: H, fenceIsAncestor: false }, "fail-closed"],
    ["no HEAD at all", { head: null }, "fail-closed"],
    [
      "commits-applied, commits still in HEAD",
      { stage: "commits-applied", head: H, amHead: M, amHeadIsAncestor: true },
      "landed",
    ],
    [
      "commits-applied, HEAD reset below them",
      { stage: "commits-applied", head: F, amHead: M },
      "fail-closed",
    ],
    [
      "worktree-started, commits still there",
      { stage: "worktree-started", head: M, amHead: M, amHeadIsAncestor: true },
      "landed",
    ],
    [
      "blocked, HEAD rebased",
      { stage: "blocked", head: H, amHead: M, amHeadIsAncestor: false },
      "fail-closed",
    ],
  ])("%s", (_name, facts, kind) => {
    expect(reconcileCommits(commits(facts)).kind).toBe(kind);
  });

  it("records the landing only when the marker did not know about it yet", () => {
    expect(reconcileCommits(commits({ head: H, seriesLanded: true }))).toEqual({
      kind: "landed",
      amHead: H,
      recordLanding: true,
    });
    expect(
      reconcileCommits(commits({ stage: "commits-applied", head: H, amHead: M, amHeadIsAncestor: true })),
    ).toEqual({ kind: "landed", amHead: M, recordLanding: false });
  });

  it.each<[string, Parameters<typeof reconcileWorktree>[0], string]>([
    [
      "conflicts left by a three-way apply",
      { unmerged: ["a"], reverseApplies: false, forwardApplies: false },
      "blocked",
    ],
    ["the patch is all there", { unmerged: [], reverseApplies: true, forwardApplies: false }, "finish"],
    ["none of the patch is there", { unmerged: [], reverseApplies: false, forwardApplies: true }, "apply"],
    ["part of it is there", { unmerged: [], reverseApplies: false, forwardApplies: false }, "blocked"],
  ])("worktree stage: %s", (_name, facts, kind) => {
    expect(reconcileWorktree(facts).kind).toBe(kind);
  });

  it.each<[string, Parameters<typeof partialRefusal>[0], boolean]>([
    ["resolved by hand", { amInProgress: false, fenceIsAncestor: true, markersLeft: [] }, true],
    ["am still running", { amInProgress: true, fenceIsAncestor: true, markersLeft: [] }, false],
    ["applied commits gone", { amInProgress: false, fenceIsAncestor: false, markersLeft: [] }, false],
    ["markers left", { amInProgress: false, fenceIsAncestor: true, markersLeft: ["a.txt"] }, false],
  ])("acknowledge-partial: %s", (_name, facts, allowed) => {
    expect(partialRefusal(facts) === null).toBe(allowed);
  });
});

const facts = (over: Partial<PreflightFacts>): PreflightFacts => ({
  running: false,
  artifactError: null,
  uncaptured: [],
  ackUncaptured: false,
  touched: ["src/a.ts"],
  only: null,
  worktree: "/w",
  wiring: [],
  allowConfig: false,
  subId: "sub_1",
  child: finishedChild("/w"),
  head: H,
  expectedHead: null,
  anchor: F,
  anchorIsAncestor: true,
  operation: null,
  hasCommits: true,
  staged: [],
  dirty: [],
  ...over,
});

describe("apply preflight", () => {
  it.each<[string, Partial<PreflightFacts>, RegExp | null]>([
    ["a clean target", {}, null],
    ["child still running", { running: true }, /still running/],
    [
      "uncaptured work",
      { uncaptured: [{ reason: "dirty-submodule", paths: ["sub"] }] },
      /acknowledge-uncaptured/,
    ],
    [
      "uncaptured work, acknowledged",
      { uncaptured: [{ reason: "dirty-submodule", paths: ["sub"] }], ackUncaptured: true },
      null,
    ],
    ["expected head differs", { expectedHead: M }, /not --expected-head/],
    ["expected head matches", { expectedHead: H }, null],
    ["base not an ancestor", { anchorIsAncestor: false }, /not an ancestor/],
    ["staged changes with commits", { staged: ["x"] }, /clean index/],
    ["staged changes without commits", { staged: ["x"], dirty: ["x"], hasCommits: false }, null],
    ["dirty overlap", { dirty: ["src/a.ts"] }, /uncommitted changes in paths/],
    ["dirty parent directory", { dirty: ["src/"] }, /uncommitted changes in paths/],
    ["am in progress", { operation: "am" }, /git am is in progress/],
    ["path outside --only", { only: ["docs"] }, /outside --only/],
    ["artifact error", { artifactError: "capture again" }, /capture again/],
  ])("%s", (_name, over, refused) => {
    const v = preflight(facts(over));
    if (refused === null) expect(v.ok).toBe(true);
    else expect(v.ok ? "ok" : v.reason).toMatch(refused);
  });

  it("warns when applying without uncaptured work", () => {
    const v = preflight(
      facts({ uncaptured: [{ reason: "patch-size-exceeded", paths: ["big"] }], ackUncaptured: true }),
    );
    expect(v).toMatchObject({ ok: true, warnings: [expect.stringMatching(/patch-size-exceeded: big/)] });
  });
});

describe("launch lines", () => {
  it.each<[Parameters<typeof launchLine>, { command: string; args: string[] }]>([
    [["exec", ["sh", "-c", "make"]], { command: "sh", args: ["-c", "make"] }],
    [
      ["exec", ["make"], { command: "nice", args: ["-n", "5"] }],
      { command: "nice", args: ["-n", "5", "make"] },
    ],
    [
      ["claude-code", ["fix", "it"]],
      {
        command: "claude",
        args: [
          "-p",
          "--permission-mode",
          "acceptEdits",
          "--allowedTools",
          "Bash Edit Write MultiEdit NotebookEdit",
          "--",
          "fix it",
        ],
      },
    ],
    [["codex", ["fix"]], { command: "codex", args: ["exec", "--full-auto", "--", "fix"] }],
    [["cursor", ["fix"]], { command: "cursor-agent", args: ["-p", "--force", "--", "fix"] }],
    // Gemini is headless only with --prompt; the `=` form keeps a prompt starting with "-" a prompt.
    [["gemini-cli", ["-fix", "it"]], { command: "gemini", args: ["--yolo", "--prompt=-fix it"] }],
    [
      ["gemini-cli", ["fix"], { command: "/opt/gemini", args: ["-m", "m"] }],
      { command: "/opt/gemini", args: ["-m", "m", "--prompt=fix"] },
    ],
    [
      ["copilot-cli", ["-fix", "it"]],
      { command: "copilot", args: ["--allow-all", "--trust-folder", "--no-ask-user", "--prompt=-fix it"] },
    ],
    [
      ["codex", ["fix"], { command: "/opt/codex", args: ["exec"] }],
      { command: "/opt/codex", args: ["exec", "--", "fix"] },
    ],
  ])("%j", (args, line) => {
    expect(launchLine(...args)).toEqual(line);
  });

  it("needs something to run", () => {
    expect(() => launchLine("exec", [])).toThrow(/needs the command/);
  });
});

describe("the child's environment", () => {
  it("names the child and its parent, and drops what names the caller", () => {
    const env = childEnv(
      {
        PATH: "/bin",
        TANDEM_SESSION: "caller",
        CLAUDE_CODE_SESSION_ID: "c1",
        CODEX_THREAD_ID: "t1",
        TANDEM_ROOT: "/parent",
        GIT_DIR: "/parent/.git",
        TANDEM_TEST_CRASH_AT: "apply:before-am",
      },
      { subId: "sub_1", parentSession: "ses_p", childSession: "ses_c" },
    );
    expect(env).toEqual({
      PATH: "/bin",
      TANDEM_SUBAGENT: "sub_1",
      TANDEM_PARENT_SESSION: "ses_p",
      TANDEM_SESSION: "ses_c",
    });
  });
});
