import { describe, expect, it } from "vitest";
import { BYPASS_GLOBAL } from "../../../src/core/git/globals.js";
import { type GitConfig, planGitImpact, revisionsToCheck } from "../../../src/core/git/impact-plan.js";
import { plan, table, words } from "./impact-table.js";

describe("apply and am", () => {
  table([
    ["apply fix.patch", "*: SU? ∩ patch -- fix.patch"],
    ["apply -R -p2 --directory=sub a.diff b.diff", "*: SU? ∩ patch -p2 --directory=sub -R -- a.diff b.diff"],
    ["apply --index --3way fix.patch", "*: SU? ∩ patch -- fix.patch"],
    [
      "apply --include=src/* --exclude=*.md x.diff",
      "*: SU? ∩ patch --include=src/* --exclude=*.md -- x.diff",
    ],
    ["apply --cached fix.patch", "none"],
    ["apply --check fix.patch", "none"],
    ["apply --stat fix.patch", "none"],
    ["apply --numstat --apply fix.patch", "*: SU? ∩ patch -- fix.patch"],
    ["apply", "unknown"],
    ["apply -", "unknown"],
    ["am 0001.patch", "*: SU? ∩ patch -- 0001.patch"],
    ["am -3 -p1 series.mbox", "*: SU? ∩ patch -p1 -- series.mbox"],
    ["am", "unknown"],
    ["am --abort", "*: S + SU? ∩ HEAD..ORIG_HEAD"],
    ["am --skip", "*: S"],
    ["am --continue", "none"],
    ["am --patch-format=hg x", "unknown"],
  ]);
});

describe("commit", () => {
  table([
    ["commit -m msg", "none"],
    ["commit -am msg", "none"],
    ["commit -n -m msg", "commit *: S"],
    ["commit --no-verify -m msg", "commit *: S"],
    ["commit --no-verify --verify -m msg", "none"],
    ["commit -anm msg", "commit *: SU"],
    ["commit -a -n", "commit *: SU"],
    ["commit --all --no-verify", "commit *: SU"],
    ["commit -n -m msg f", "commit only f: SU@ps"],
    ["commit -n --only -m msg -- f g", "commit only f,g: SU@ps"],
    ["commit -n -i f", "commit f: S + SU@ps"],
    ["commit -n --include -- f", "commit f: S + SU@ps"],
    ["commit -n -a f", "none"],
    ["commit -n -p", "commit *: SU"],
    ["commit -n --dry-run", "none"],
    ["commit -n --pathspec-from-file=list", "commit only file:list: SU@ps"],
    ["-c core.hooksPath=/dev/null commit -m msg", "commit *: S"],
    ["-c core.hookspath commit -m msg", "commit *: S"],
    ["-c Core.HooksPath=x commit -a", "commit *: SU"],
    ["--config-env=core.hooksPath=HOOKS commit", "commit *: S"],
    // TANDEM_BYPASS in the command's environment (decision 0050): judged like --no-verify.
    [`${BYPASS_GLOBAL} commit -am msg`, "commit *: SU"],
    ["-c user.name=x commit -m msg", "none"],
    ["commit -n -C HEAD --amend", "commit *: S"],
    ["commit -n -m", "unknown"],
  ]);
});

describe("merge, rebase, pull, cherry-pick, revert", () => {
  const noConfig: GitConfig = new Map();
  table(
    [
      ["merge topic", "*: SU? ∩ HEAD...topic"],
      ["merge --no-ff -m msg topic", "*: SU? ∩ HEAD...topic"],
      ["merge", "*: SU? ∩ HEAD...@{u}"],
      ["merge -", "*: SU? ∩ HEAD...@{-1}"],
      ["merge a b", "*: SU? ∩ commits a b ^HEAD"],
      ["merge --autostash topic", "*: SU?"],
      ["merge --abort", "*: S"],
      ["merge --quit", "none"],
      ["merge --continue", "none"],
      ["rebase main", "*: SU? ∩ HEAD..main"],
      ["rebase", "*: SU? ∩ HEAD..@{u}"],
      ["rebase --onto main old topic", "*: SU? ∩ HEAD..main + SU? ∩ HEAD..topic"],
      ["rebase -i HEAD~3", "*: SU? ∩ HEAD..HEAD~3"],
      ["rebase --root", "*: SU"],
      ["rebase --autostash main", "*: SU?"],
      ["rebase --abort", "*: S + SU? ∩ HEAD..ORIG_HEAD"],
      ["rebase --skip", "*: S"],
      ["rebase --quit", "none"],
      ["rebase --continue", "none"],
      ["rebase -x make main", "unknown"],
      ["rebase --exec=make main", "unknown"],
      ["pull", "*: SU? ∩ HEAD...@{u}"],
      ["pull origin", "*: SU? ∩ HEAD...@{u}"],
      ["pull origin main", "*: SU? ∩ HEAD...refs/remotes/origin/main"],
      ["pull origin +refs/heads/dev:tmp", "*: SU? ∩ HEAD...refs/remotes/origin/dev"],
      ["pull --rebase", "*: SU? ∩ HEAD..@{u}"],
      ["pull -r origin main", "*: SU? ∩ HEAD..refs/remotes/origin/main"],
      ["pull --rebase=false", "*: SU? ∩ HEAD...@{u}"],
      ["pull --autostash", "*: SU?"],
      ["pull https://example.com/repo.git main", "unknown"],
      ["pull ../other", "unknown"],
      ["pull origin refs/tags/v1", "unknown"],
      ["cherry-pick abc123", "*: SU? ∩ commits abc123"],
      ["cherry-pick -n a b", "*: SU? ∩ commits a b"],
      ["cherry-pick -m 1 merge1", "*: SU? ∩ commits merge1"],
      ["cherry-pick main~3..main", "*: SU? ∩ commits main~3..main"],
      ["cherry-pick --stdin", "unknown"],
      ["cherry-pick --abort", "*: S"],
      ["cherry-pick --skip", "*: S"],
      ["cherry-pick --quit", "none"],
      ["cherry-pick --continue", "none"],
      ["cherry-pick", "none"],
      ["revert HEAD", "*: SU? ∩ commits HEAD"],
      ["revert --no-edit HEAD~2 HEAD", "*: SU? ∩ commits HEAD~2 HEAD"],
      ["revert --abort", "*: S"],
    ],
    noConfig,
  );
});

describe("configuration that decides pull, merge and rebase", () => {
  it("asks for the configuration first when the command line does not settle it", () => {
    for (const line of ["merge topic", "rebase main", "pull", "pull --rebase", "pull --no-autostash"]) {
      expect(plan(words(line))).toBe("config");
    }
    expect(plan(words("merge --no-autostash topic"))).toBe("*: SU? ∩ HEAD...topic");
    expect(plan(words("rebase --no-autostash main"))).toBe("*: SU? ∩ HEAD..main");
    expect(plan(words("pull --no-rebase --no-autostash"))).toBe("*: SU? ∩ HEAD...@{u}");
    expect(plan(words("pull --autostash"))).toBe("*: SU?");
  });

  const cases: [line: string, config: Record<string, string>, expected: string][] = [
    ["merge topic", { "merge.autostash": "true" }, "*: SU?"],
    ["merge topic", { "merge.autostash": "false" }, "*: SU? ∩ HEAD...topic"],
    ["merge topic", { "rebase.autostash": "true" }, "*: SU? ∩ HEAD...topic"],
    ["rebase main", { "rebase.autostash": "yes" }, "*: SU?"],
    ["rebase main", { "rebase.autostash": "off" }, "*: SU? ∩ HEAD..main"],
    ["pull", { "pull.rebase": "true", "rebase.autostash": "true" }, "*: SU?"],
    ["pull", { "pull.rebase": "merges" }, "*: SU? ∩ HEAD..@{u}"],
    ["pull", { "branch.main.rebase": "true", "rebase.autostash": "1" }, "*: SU?"],
    ["pull", { "rebase.autostash": "true" }, "*: SU? ∩ HEAD...@{u}"],
    ["pull", { "merge.autostash": "true" }, "*: SU?"],
    ["pull --no-rebase", { "pull.rebase": "true", "rebase.autostash": "true" }, "*: SU? ∩ HEAD...@{u}"],
    ["pull --no-autostash", { "pull.rebase": "true", "rebase.autostash": "true" }, "*: SU? ∩ HEAD..@{u}"],
  ];
  for (const [line, config, expected] of cases) {
    it(`git ${line} with ${JSON.stringify(config)} → ${expected}`, () => {
      expect(plan(words(line), new Map(Object.entries(config)))).toBe(expected);
    });
  }
});

describe("global options and other subcommands", () => {
  table([
    ["status", "none"],
    ["log --oneline", "none"],
    ["diff HEAD", "none"],
    ["diff --output=out.txt", "unknown"],
    ["push -f", "none"],
    ["fetch --all", "none"],
    ["branch -D old", "none"],
    ["", "none"],
    ["--version", "none"],
    ["--no-pager log", "none"],
    ["-c color.ui=never -c core.quotePath=false checkout -- f", "f: U@ps"],
    ["--literal-pathspecs checkout -- *.txt", "*.txt: U@ps"],
    ["-C sub reset --hard", "*: SU + ? ∩ HEAD..HEAD"],
    // git itself is asked, with the same words, which working tree they name.
    ["--git-dir=/elsewhere/.git checkout -- f", "f: U@ps"],
    ["--work-tree /elsewhere checkout -- f", "f: U@ps"],
    ["--exec-path=/tmp/bin checkout -- f", "unknown"],
    ["--bogus checkout -- f", "unknown"],
    ["-c", "unknown"],
    ["co .", "unknown"],
    ["checkout-index -a -f", "*: U"],
    ["sparse-checkout set dir", "unknown"],
    ["worktree list", "none"],
    ["worktree remove --force ../wt", "unknown"],
    ["bisect start", "none"],
    ["bisect run make", "unknown"],
    ["submodule foreach git clean -fdx", "unknown"],
    ["filter-branch --tree-filter x", "unknown"],
  ]);

  it("keeps -c words for the queries and pathspec options apart", () => {
    const p = planGitImpact(words("-c a.b=1 --glob-pathspecs -C sub -C deeper checkout -- f"));
    expect(p.globals).toEqual({
      configArgs: ["-c", "a.b=1"],
      config: [{ key: "a.b", value: "1" }],
      pathspecArgs: ["--glob-pathspecs"],
      chdir: ["sub", "deeper"],
    });
  });

  it("does not pass a value taken from the command's environment on to the queries", () => {
    const p = planGitImpact(words("--config-env core.hooksPath=HOOKS commit"));
    expect(p.globals.configArgs).toEqual([]);
    expect(p.globals.config).toEqual([{ key: "core.hookspath", value: null }]);
  });

  it("says why a command cannot be read", () => {
    const reasonOf = (line: string) => {
      const e = planGitImpact(words(line)).effect;
      return e.kind === "unknown" ? e.reason : `not unknown: ${e.kind}`;
    };
    expect(reasonOf("restore --frobnicate f")).toContain("--frobnicate");
    expect(reasonOf("checkout -Z f")).toContain("-Z");
    expect(reasonOf("--git-dir")).toContain("needs a path");
    expect(reasonOf("apply")).toContain("stdin");
    expect(reasonOf("co .")).toContain("git co");
  });
});

describe("what the first query resolves", () => {
  const check = (line: string) => revisionsToCheck(planGitImpact(words(line)).effect);

  it("asks whether checkout's first word is a commit, and which remote branch it could guess", () => {
    expect(check("checkout main")).toEqual({ verify: "main^{commit}", glob: "refs/remotes/*/main" });
    expect(check("checkout --no-guess main")).toEqual({ verify: "main^{commit}", glob: null });
    expect(check("checkout main f")).toEqual({ verify: "main^{commit}", glob: null });
    expect(check("checkout *.txt")).toEqual({ verify: "*.txt^{commit}", glob: null });
  });

  it("asks whether a stash holds untracked files", () => {
    expect(check("stash pop")).toEqual({ verify: "stash@{0}^3", glob: null });
    expect(check("stash apply 2")).toEqual({ verify: "stash@{2}^3", glob: null });
  });

  it("asks nothing more for other commands", () => {
    expect(check("reset --hard")).toEqual({ verify: null, glob: null });
    expect(check("checkout -- f")).toEqual({ verify: null, glob: null });
  });
});
