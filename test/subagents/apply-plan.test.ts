import { describe, expect, it } from "vitest";
import { type ApplyStep, planResume, type ResumeFacts } from "../../src/subagents/apply/plan.js";
import type { GateFacts } from "../../src/subagents/apply/preflight.js";
import { finishedChild } from "./sub-fixture.js";

const F = "f".repeat(40);
const H = "a".repeat(40);

const gate: GateFacts = {
  running: false,
  artifactError: null,
  uncaptured: [],
  ackUncaptured: false,
  touched: ["c1.txt", "README.md"],
  only: null,
  worktree: "/child",
  wiring: [],
  allowConfig: false,
  subId: "sub_1",
  child: finishedChild("/child"),
};

/** An apply that crashed after `git am` landed the series, with an uncommitted patch still to apply. */
const facts = (over: Partial<ResumeFacts> = {}): ResumeFacts => ({
  gate,
  row: {
    stage: "am-started",
    fence: F,
    amHead: null,
    paths: [],
    stagedBefore: [],
    preApply: [],
    ackUncaptured: false,
  },
  expectedHead: null,
  commits: {
    stage: "am-started",
    fence: F,
    amHead: null,
    head: H,
    amInProgress: false,
    fenceIsAncestor: true,
    amHeadIsAncestor: false,
    seriesLanded: true,
  },
  hasPatch: true,
  patchPaths: ["README.md"],
  worktree: null,
  dirty: [],
  partial: null,
  ...over,
});

const kind = (s: ApplyStep): string => (s.kind === "refuse" ? `refuse: ${s.reason}` : s.kind);

describe("the plan of an interrupted apply", () => {
  it.each<[string, Partial<ResumeFacts>, RegExp]>([
    ["commits landed, target clean: continue with the patch", {}, /^run$/],
    [
      "commits landed, a patch path edited in the target since",
      { dirty: ["README.md"] },
      /^refuse: the commits are in, but .*README\.md/,
    ],
    ["an unrelated dirty path does not stop it", { dirty: ["mine.txt"] }, /^run$/],
    ["nothing landed: start over", { commits: { ...facts().commits, head: F } }, /^start-over$/],
    [
      "am still running",
      { commits: { ...facts().commits, amInProgress: true } },
      /^refuse: a `git am` session/,
    ],
    ["--expected-head other than the fence", { expectedHead: H }, /^refuse: --expected-head/],
    ["the child still runs", { gate: { ...gate, running: true } }, /^refuse: the child is still running/],
    [
      "patch already in the worktree",
      {
        row: { ...facts().row, stage: "worktree-started", amHead: H },
        commits: { ...facts().commits, stage: "worktree-started", amHead: H, amHeadIsAncestor: true },
        worktree: { unmerged: [], reverseApplies: true, forwardApplies: false },
      },
      /^finish$/,
    ],
    [
      "patch left conflicts",
      {
        row: { ...facts().row, stage: "worktree-started", amHead: H },
        commits: { ...facts().commits, stage: "worktree-started", amHead: H, amHeadIsAncestor: true },
        worktree: { unmerged: ["README.md"], reverseApplies: false, forwardApplies: false },
      },
      /^blocked$/,
    ],
  ])("%s", (_label, over, expected) => {
    expect(kind(planResume(facts(over)).step)).toMatch(expected);
  });

  it("records the landing it found and applies only the patch on top", () => {
    expect(planResume(facts()).step).toMatchObject({
      kind: "run",
      am: false,
      amHead: H,
      recordLanding: true,
      patch: true,
    });
  });
});
