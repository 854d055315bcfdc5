/**
 * Other spellings of a destructive git command, read by the shell reader and planned by the
 * impact planner with the repository's aliases as git would report them: each must come out as
 * the same judgment as its plain spelling (or, where its words are unknown, as the worst case).
 */
import { describe, expect, it } from "vitest";
import { planGitImpact } from "../../src/core/git/impact-plan.js";
import { extractShellTargets } from "../../src/targets/shell.js";
import { render } from "../core/git/impact-table.js";
import { HOME } from "./shell-check.js";

/** What the command's git calls would put at risk, one rendered plan per call, and whether it is opaque. */
async function judged(command: string, aliases: Record<string, string> = {}) {
  const found = await extractShellTargets(command, { home: HOME });
  expect(found.error).toBeUndefined();
  const map = new Map(Object.entries(aliases));
  const plans = found.gitCalls.map((c) => render(planGitImpact(c.args, undefined, map).effect));
  return { plans: plans.filter((p) => p !== "none"), opaque: found.opaque };
}

interface Row {
  spelling: string;
  /** The plain command it must be judged like. */
  plain: string;
  aliases?: Record<string, string>;
  /**
   * Run under the safety net as well: words only known at run time, and every alias (the reader
   * cannot tell an alias from a subcommand it does not know; git is asked at the hook).
   */
  opaque?: boolean;
}

describe("a destructive git command spelled another way is judged like its plain spelling", () => {
  it.each<Row>([
    // The six spellings.
    { spelling: "git config alias.y 'checkout .' && git y", plain: "git checkout .", opaque: true },
    { spelling: "GIT_DIR=.git git checkout .", plain: "git checkout ." },
    { spelling: "git --work-tree=. checkout -- .", plain: "git checkout -- ." },
    { spelling: "git read-tree -u --reset HEAD", plain: "git reset --hard HEAD" },
    { spelling: "git checkout-index -f -a", plain: "git checkout-index --force --all" },
    { spelling: "echo . | xargs git checkout", plain: "git checkout ." },
    // Aliases from the command line, the same command, and the repository's config.
    { spelling: "git -c alias.y='checkout .' y", plain: "git checkout .", opaque: true },
    {
      spelling: "git config --global alias.wipe 'reset --hard'; git wipe",
      plain: "git reset --hard",
      opaque: true,
    },
    {
      spelling: "git config set --local alias.co checkout && git co -- .",
      plain: "git checkout -- .",
      opaque: true,
    },
    { spelling: "git co -f main", plain: "git checkout -f main", aliases: { co: "checkout" }, opaque: true },
    { spelling: "git CO -f main", plain: "git checkout -f main", aliases: { co: "checkout" }, opaque: true },
    { spelling: "git a", plain: "git checkout .", aliases: { a: "b .", b: "checkout" }, opaque: true },
    {
      spelling: "git up",
      plain: "git stash -u",
      aliases: { up: "-c color.ui=never stash -u" },
      opaque: true,
    },
    // Repository and working tree from the environment or options.
    { spelling: "export GIT_WORK_TREE=.; git stash -u", plain: "git stash -u" },
    { spelling: "env GIT_DIR=.git git reset --hard", plain: "git reset --hard" },
    { spelling: "git --git-dir .git --work-tree . clean -fd", plain: "git clean -fd" },
    { spelling: 'GIT_DIR="$X" git checkout .', plain: "git checkout .", opaque: true },
    { spelling: 'git --work-tree "$W" restore -- .', plain: "git restore -- .", opaque: true },
    // xargs with input the reader can see.
    { spelling: "printf '%s\\n' . | xargs git checkout --", plain: "git checkout -- ." },
    { spelling: "printf '%s\\0' a.txt b.txt | xargs -0 git rm -f", plain: "git rm -f a.txt b.txt" },
    { spelling: "echo a b | xargs -n1 git checkout --", plain: "git checkout -- a; git checkout -- b" },
    { spelling: "echo . | xargs -I{} git checkout -- {}", plain: "git checkout -- ." },
    // xargs with input it cannot see: the most the subcommand can destroy.
    { spelling: "cat list | xargs git checkout", plain: "git checkout -f HEAD -- :/", opaque: true },
    { spelling: "git ls-files | xargs git clean", plain: "git clean -ffdx", opaque: true },
    { spelling: "git ls-files -m | xargs git add", plain: "git add -A", opaque: true },
    // Plumbing under the porcelain.
    { spelling: "git read-tree -m -u HEAD~1", plain: "git read-tree -u -m HEAD~1" },
    { spelling: "git checkout-index -f -- a.txt", plain: "git checkout-index --force a.txt" },
  ])("$spelling", async ({ spelling, plain, aliases, opaque }) => {
    const want = await judged(plain);
    expect(want.plans.length).toBeGreaterThan(0);
    expect(want.plans.every((p) => p !== "unknown")).toBe(true);
    const got = await judged(spelling, aliases);
    expect(got.plans).toEqual(want.plans);
    expect(got.opaque).toBe(opaque ?? false);
  });
});

describe("what git's own plumbing puts at risk", () => {
  it.each([
    ["git read-tree -u --reset HEAD", "*: SU + ? ∩ HEAD..HEAD"],
    ["git read-tree -m -u HEAD~1", "*: S + SU? ∩ HEAD..HEAD~1"],
    ["git read-tree HEAD", "unstage *: S"],
    ["git read-tree -u -m --dry-run HEAD", "none"],
    ["git checkout-index -a", "none"],
    ["git checkout-index -f -a", "*: U"],
    ["git checkout-index -f --stage=2 -a", "*: SU?"],
    ["git checkout-index -f --temp -a", "none"],
    ["git update-index --force-remove a.txt", "unstage :(literal)a.txt: S@ps"],
    ["git update-index --refresh", "none"],
    ["git update-index --force-remove --stdin", "unknown"],
  ])("%s → %s", async (command, expected) => {
    const found = await extractShellTargets(command, { home: HOME });
    const plans = found.gitCalls.map((c) => render(planGitImpact(c.args, undefined, new Map()).effect));
    expect(plans).toEqual([expected]);
  });
});

describe("what git is not asked to expand stays under the safety net", () => {
  it.each<[string, Record<string, string>]>([
    ["git y", { y: "!git checkout ." }],
    ["git a", { a: "b", b: "a" }],
    ["git y", { y: "checkout 'unclosed" }],
    ["git nope .", {}],
  ])("%s with aliases %j is opaque and judged unknown", async (command, aliases) => {
    const got = await judged(command, aliases);
    expect(got).toEqual({ plans: ["unknown"], opaque: true });
  });

  it("does not let an alias name a command git runs itself", async () => {
    expect(await judged("git status", { status: "checkout ." })).toEqual({ plans: [], opaque: false });
  });

  it("follows an alias defined earlier in the same command over the repository's", async () => {
    const got = await judged("git config alias.co 'reset --hard'; git co", { co: "checkout" });
    expect(got.plans).toEqual((await judged("git reset --hard")).plans);
  });
});

describe("the repository named another way reaches git's own queries", () => {
  it("hands GIT_DIR, GIT_WORK_TREE and the options on as words git is asked with", async () => {
    const found = await extractShellTargets("GIT_WORK_TREE=. git --git-dir .git checkout .", { home: HOME });
    expect(found.gitCalls.map((c) => c.args)).toEqual([["--work-tree=.", "--git-dir=.git", "checkout", "."]]);
    const plan = planGitImpact(found.gitCalls[0]!.args, undefined, new Map());
    expect(plan.globals.configArgs).toEqual(["--work-tree=.", "--git-dir=.git"]);
  });
});
