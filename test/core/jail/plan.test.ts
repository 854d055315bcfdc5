import { describe, expect, it } from "vitest";
import { jailArgv } from "../../../src/core/jail/argv.js";
import { mountPoints, unescapeMountPath } from "../../../src/core/jail/mountinfo.js";
import { type Candidate, type JailFacts, jailCandidates, mountPlan } from "../../../src/core/jail/plan.js";

const facts = (over: Partial<JailFacts> = {}): JailFacts => ({
  root: "/r",
  peers: [],
  stateDir: "/r/.git/tandem",
  commonDir: "/r/.git",
  install: ["/usr/bin/node", "/opt/tandem/dist"],
  wiring: [{ file: "/r/.tandem/config.jsonc", what: "Tandem's project configuration" }],
  ...over,
});

describe("jail candidates", () => {
  it("lists peers' files and worktrees, the state, git's config and hooks, the install and the wiring", () => {
    const peers = [{ name: "agent-b", owned: ["/r/b.txt", "/wt/c/x"], worktrees: ["/wt/c"] }];
    expect(jailCandidates(facts({ peers })).map((c) => [c.path, c.reason])).toEqual([
      ["/wt/c", "agent-b's worktree"],
      ["/r/b.txt", "agent-b's uncommitted file"],
      ["/wt/c/x", "agent-b's uncommitted file"],
      ["/r/.git/tandem", "Tandem's state (store, saved versions, server address)"],
      ["/r/.git/config", "git's config (core.hooksPath)"],
      ["/r/.git/hooks", "git's hooks"],
      ["/usr/bin/node", "the installed Tandem or Node"],
      ["/opt/tandem/dist", "the installed Tandem or Node"],
      ["/r/.tandem/config.jsonc", "Tandem's project configuration"],
    ]);
  });

  it("outside a repository there is no git config or hooks to guard", () => {
    const paths = jailCandidates(facts({ commonDir: null })).map((c) => c.path);
    expect(paths).not.toContain("/r/.git/config");
    expect(paths).toContain("/r/.git/tandem");
  });
});

describe("mount plan", () => {
  const c = (path: string, reason = "r"): Candidate => ({ path, reason });
  type Case = [string, Candidate[], [string, string | null][], string[], string[]];
  const cases: Case[] = [
    ["a file that exists is bound", [c("/r/a")], [["/r/a", "/r/a"]], ["/r/a"], []],
    ["a file not there yet is skipped", [c("/r/new")], [["/r/new", null]], [], ["/r/new"]],
    ["a symlink binds its target", [c("/r/link")], [["/r/link", "/elsewhere/f"]], ["/elsewhere/f"], []],
    [
      "two names of one file bind it once",
      [c("/r/a"), c("/r/l")],
      [
        ["/r/a", "/r/a"],
        ["/r/l", "/r/a"],
      ],
      ["/r/a"],
      [],
    ],
    [
      "a file inside a bound directory is covered by it",
      [c("/r/.git/tandem/x"), c("/r/.git/tandem")],
      [
        ["/r/.git/tandem/x", "/r/.git/tandem/x"],
        ["/r/.git/tandem", "/r/.git/tandem"],
      ],
      ["/r/.git/tandem"],
      [],
    ],
    [
      "a missing file inside a bound directory is not reported as open",
      [c("/r/.git/hooks/pre-commit"), c("/r/.git/hooks")],
      [
        ["/r/.git/hooks/pre-commit", null],
        ["/r/.git/hooks", "/r/.git/hooks"],
      ],
      ["/r/.git/hooks"],
      [],
    ],
    ["a directory holding the caller's root stays writable", [c("/")], [["/", "/"]], [], ["/"]],
    ["the caller's root itself stays writable", [c("/r")], [["/r", "/r"]], [], ["/r"]],
    [
      "a sibling whose name extends another is not inside it",
      [c("/r/a b"), c("/r/a")],
      [
        ["/r/a b", "/r/a b"],
        ["/r/a", "/r/a"],
      ],
      ["/r/a", "/r/a b"],
      [],
    ],
    ["a name with a newline is kept whole", [c("/r/x\ny")], [["/r/x\ny", "/r/x\ny"]], ["/r/x\ny"], []],
  ];
  it.each(cases)("%s", (_name, candidates, real, binds, skipped) => {
    const plan = mountPlan(candidates, new Map(real), "/r");
    expect(plan.binds.map((b) => b.path)).toEqual(binds);
    expect(plan.skipped.map((s) => s.path)).toEqual(skipped);
  });

  it("says why a path is bound, through which symlink, and why one is not", () => {
    const plan = mountPlan(
      [c("/r/l", "agent-b's uncommitted file"), c("/r/n", "Codex's hooks")],
      new Map([
        ["/r/l", "/r/t"],
        ["/r/n", null],
      ]),
      "/r",
    );
    expect(plan.binds[0]?.reasons).toEqual(["agent-b's uncommitted file, through the symlink /r/l"]);
    expect(plan.skipped[0]?.why).toMatch(/nothing there yet/);
  });
});

describe("mountinfo", () => {
  it.each([
    ["/plain", "/plain"],
    ["/a\\040b", "/a b"],
    ["/x\\012y", "/x\ny"],
    ["/t\\011u\\134v", "/t\tu\\v"],
  ])("%s reads as %j", (field, path) => expect(unescapeMountPath(field)).toBe(path));

  it("lists each line's mount point", () => {
    const text = [
      "22 1 254:0 / / rw,relatime shared:1 - ext4 /dev/vda rw",
      "40 22 254:0 /r/a\\040b /r/a\\040b ro,relatime - ext4 /dev/vda rw",
      "",
    ].join("\n");
    expect([...mountPoints(text)]).toEqual(["/", "/r/a b"]);
  });
});

describe("jail argv", () => {
  it("passes paths and the command as separate arguments, after their count", () => {
    const { file, args } = jailArgv(["/r/a b", "/r/x\ny"], ["sh", "-c", "echo $1", "--"], "/tmp/f");
    expect(file).toBe("unshare");
    expect(args.slice(args.indexOf("tandem-jail"))).toEqual([
      "tandem-jail",
      "/tmp/f",
      "2",
      "/r/a b",
      "/r/x\ny",
      "sh",
      "-c",
      "echo $1",
      "--",
    ]);
  });
});
