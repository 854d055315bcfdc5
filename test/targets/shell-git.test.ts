import { describe, it } from "vitest";
import { RUNTIME_TEXT } from "../../src/targets/shell/git.js";
import { check, here, type ShellCase } from "./shell-check.js";

type Row = ShellCase & { behaviour: string };

describe("git commands that can destroy or commit work are listed for the impact reader", () => {
  it.each<Row>([
    { behaviour: "checkout of the whole tree", command: "git checkout .", gitCalls: [here("checkout", ".")] },
    {
      behaviour: "checkout of paths claims none of them itself",
      command: "git checkout -- a.txt 'b c.txt'",
      gitCalls: [here("checkout", "--", "a.txt", "b c.txt")],
    },
    { behaviour: "checkout of a branch", command: "git checkout main", gitCalls: [here("checkout", "main")] },
    {
      behaviour: "checkout of a path from a commit",
      command: "git checkout HEAD~1 file.txt",
      gitCalls: [here("checkout", "HEAD~1", "file.txt")],
    },
    { behaviour: "checkout -p", command: "git checkout -p", gitCalls: [here("checkout", "-p")] },
    { behaviour: "restore", command: "git restore src/a.ts", gitCalls: [here("restore", "src/a.ts")] },
    {
      behaviour: "restore from a source",
      command: "git restore --source=HEAD~2 --worktree -- x",
      gitCalls: [here("restore", "--source=HEAD~2", "--worktree", "--", "x")],
    },
    { behaviour: "switch -f", command: "git switch -f main", gitCalls: [here("switch", "-f", "main")] },
    { behaviour: "stash", command: "git stash", gitCalls: [here("stash")] },
    {
      behaviour: "add, for what a later commit -n of the same line would commit",
      command: "git add -A && git commit -n -m x",
      gitCalls: [here("add", "-A"), here("commit", "-n", "-m", "x")],
    },
    {
      behaviour: "stash -u then drop, each its own call",
      command: "git stash -u && git stash drop",
      gitCalls: [here("stash", "-u"), here("stash", "drop")],
    },
    { behaviour: "stash pop", command: "git stash pop", gitCalls: [here("stash", "pop")] },
    { behaviour: "reset --hard", command: "git reset --hard", gitCalls: [here("reset", "--hard")] },
    {
      behaviour: "reset --keep",
      command: "git reset --keep HEAD~1",
      gitCalls: [here("reset", "--keep", "HEAD~1")],
    },
    { behaviour: "clean", command: "git clean -fdx", gitCalls: [here("clean", "-fdx")] },
    {
      behaviour: "rm also names its operands",
      command: "git rm -r old/",
      writes: ["old/"],
      gitCalls: [here("rm", "-r", "old/")],
    },
    {
      behaviour: "rm --cached names nothing but is listed",
      command: "git rm --cached keep.txt",
      gitCalls: [here("rm", "--cached", "keep.txt")],
    },
    {
      behaviour: "mv also names its operands",
      command: "git mv from.txt to.txt",
      writes: ["from.txt", "to.txt"],
      gitCalls: [here("mv", "from.txt", "to.txt")],
    },
    { behaviour: "apply", command: "git apply fix.patch", gitCalls: [here("apply", "fix.patch")] },
    { behaviour: "am", command: "git am < series.mbox", gitCalls: [here("am")] },
    { behaviour: "merge", command: "git merge feature", gitCalls: [here("merge", "feature")] },
    { behaviour: "rebase", command: "git rebase main", gitCalls: [here("rebase", "main")] },
    { behaviour: "pull", command: "git pull --rebase", gitCalls: [here("pull", "--rebase")] },
    {
      behaviour: "cherry-pick",
      command: "git cherry-pick abc123",
      gitCalls: [here("cherry-pick", "abc123")],
    },
    {
      behaviour: "revert",
      command: "git revert --no-edit HEAD",
      gitCalls: [here("revert", "--no-edit", "HEAD")],
    },
    { behaviour: "commit -n", command: "git commit -n -m x", gitCalls: [here("commit", "-n", "-m", "x")] },
    {
      behaviour: "commit --no-verify -a",
      command: "git commit --no-verify -am 'wip'",
      gitCalls: [here("commit", "--no-verify", "-am", "wip")],
    },
    {
      behaviour: "commit with hooks switched off keeps the -c option",
      command: "git -c core.hooksPath=/dev/null commit -m x",
      gitCalls: [here("-c", "core.hooksPath=/dev/null", "commit", "-m", "x")],
    },
    {
      behaviour: "other global options are kept",
      command: "git --no-pager --git-dir=.git --work-tree . checkout .",
      gitCalls: [here("--no-pager", "--git-dir=.git", "--work-tree=.", "checkout", ".")],
    },
  ])("$behaviour", check);
});

describe("every spelling that reaches git", () => {
  it.each<Row>([
    { behaviour: "an absolute path", command: "/usr/bin/git checkout .", gitCalls: [here("checkout", ".")] },
    {
      behaviour: "-C folded into the directory",
      command: "git -C sub checkout -- f",
      gitCalls: [{ cwd: "sub", args: ["checkout", "--", "f"] }],
    },
    {
      behaviour: "-C after -C is relative to it, an absolute one replaces it",
      command: "git -C a -C b reset --hard; git -C a -C /abs stash",
      gitCalls: [
        { cwd: "a/b", args: ["reset", "--hard"] },
        { cwd: "/abs", args: ["stash"] },
      ],
    },
    { behaviour: "-C . is the same directory", command: "git -C . stash", gitCalls: [here("stash")] },
    {
      behaviour: "after cd",
      command: "cd sub && git checkout .",
      gitCalls: [{ cwd: "sub", args: ["checkout", "."] }],
    },
    {
      behaviour: "after an absolute cd",
      command: "cd /repo && git stash",
      gitCalls: [{ cwd: "/repo", args: ["stash"] }],
    },
    {
      behaviour: "after a cd that cannot be followed, in an unknown directory",
      command: 'cd "$D" && git reset --hard',
      gitCalls: [{ cwd: null, args: ["reset", "--hard"] }],
    },
    { behaviour: "inside bash -c", command: "bash -lc 'git checkout .'", gitCalls: [here("checkout", ".")] },
    {
      behaviour: "in a subshell",
      command: "(cd sub; git checkout .); git stash",
      gitCalls: [{ cwd: "sub", args: ["checkout", "."] }, here("stash")],
    },
    { behaviour: "in a command substitution", command: "echo $(git stash)", gitCalls: [here("stash")] },
    { behaviour: "in a pipeline", command: "git stash 2>&1 | tail -1", gitCalls: [here("stash")] },
    { behaviour: "under env", command: "env LC_ALL=C git reset --hard", gitCalls: [here("reset", "--hard")] },
    { behaviour: "under sudo", command: "sudo git clean -f", gitCalls: [here("clean", "-f")] },
    { behaviour: "under command", command: "command git checkout .", gitCalls: [here("checkout", ".")] },
    {
      behaviour: "under timeout",
      command: "timeout 5 git reset --hard",
      gitCalls: [here("reset", "--hard")],
    },
    { behaviour: "under nice and nohup", command: "nice nohup git stash", gitCalls: [here("stash")] },
    {
      behaviour: "with a variable the script assigned",
      command: "F=f.txt; git checkout -- $F",
      gitCalls: [here("checkout", "--", "f.txt")],
    },
    {
      behaviour: "in a function",
      command: "clean() { git clean -fd; }; clean",
      gitCalls: [here("clean", "-fd")],
    },
    {
      behaviour: "with a commit message made at run time",
      command: "git commit -n -m \"$(cat <<'EOF'\nSubject\n\nBody\nEOF\n)\"",
      gitCalls: [here("commit", "-n", "-m", RUNTIME_TEXT)],
    },
  ])("$behaviour", check);
});

describe("git calls that cannot be listed are opaque", () => {
  it.each<Row>([
    { behaviour: "a path only known at run time", command: 'git checkout -- "$F"', opaque: true },
    {
      behaviour: "-C with a directory known at run time, judged here as the worst case",
      command: 'git -C "$D" reset --hard',
      opaque: true,
      gitCalls: [here("reset", "--hard")],
    },
    {
      behaviour: "a message that may split into several words",
      command: "git commit -n -m $(cat msg)",
      opaque: true,
    },
    { behaviour: "a subcommand known at run time", command: "git $SUB .", opaque: true },
    {
      behaviour: "xargs adds arguments we cannot see: judged as the worst checkout",
      command: "xargs git checkout --",
      opaque: true,
      gitCalls: [
        {
          ...here("checkout", "-f", "HEAD", "--", ":/"),
          text: "git checkout -- (its other arguments come from xargs's input: judged as `git checkout -f HEAD -- :/`)",
        },
      ],
    },
    { behaviour: "find -exec hands it names", command: "find . -exec git checkout -- {} \\;", opaque: true },
    {
      behaviour: "an alias, listed for git to expand",
      command: "git co .",
      opaque: true,
      gitCalls: [here("co", ".")],
    },
    {
      behaviour: "git configured by an exported variable",
      command:
        "export GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=core.hooksPath GIT_CONFIG_VALUE_0=/dev/null; git commit -m x",
      opaque: true,
      gitCalls: [here("commit", "-m", "x")],
    },
    {
      behaviour: "another subcommand that writes",
      command: "git bisect start",
      opaque: true,
      gitCalls: [here("bisect", "start")],
    },
    {
      behaviour: "a read-only one writing --output",
      command: "git diff --output=changes.diff",
      opaque: true,
    },
  ])("$behaviour", check);

  it.each([
    "git status && git diff HEAD~1 && git log --oneline -5",
    "git stash list && git stash show -p",
    "git fetch && git push",
  ])("%s is read-only: no call, not opaque", (command) => check({ command }));
});
