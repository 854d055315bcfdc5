import { describe, expect, it } from "vitest";
import { formatFindings } from "../../src/core/finalization/format.js";
import { emptyFindings, type Findings } from "../../src/core/finalization/verdict.js";

const OID = "0123456789abcdef0123456789abcdef01234567";
const with_ = (over: Partial<Findings>): Findings => ({ ...emptyFindings(), ...over });

describe("formatFindings", () => {
  it("prints nothing when there is nothing to report", () => {
    expect(formatFindings(emptyFindings())).toBe("");
  });

  it.each<[string, Partial<Findings>, string[]]>([
    [
      "dirty",
      {
        dirty: [
          { repo: "/w/r", path: "a.ts", state: ".M" },
          { repo: "/w/r", path: "n.ts", state: "??" },
        ],
      },
      [
        "Uncommitted changes in files this session owns (2):",
        "  - /w/r: a.ts (modified)",
        "  - /w/r: n.ts (untracked)",
        "  -> commit them and push: git -C /w/r add -- <paths> && git -C /w/r commit",
        "files other sessions own are not listed",
      ],
    ],
    [
      "unpushed with an upstream",
      { unpushed: [{ repo: "/w/r", branch: "main", upstream: "origin/main", ahead: 2 }] },
      [
        "Commits not on any remote (1):",
        "  - /w/r (main): 2 commits ahead of origin/main",
        "  -> git -C /w/r push",
      ],
    ],
    [
      "unpushed onto a moved remote: land, never pull",
      { unpushed: [{ repo: "/w/r", branch: "main", upstream: "origin/main", ahead: 2, behind: 3 }] },
      [
        "  - /w/r (main): 2 commits ahead of origin/main, 3 behind (the remote moved)",
        "  -> tandem --root /w/r land (rebases privately and pushes; a plain push would be rejected)",
      ],
    ],
    [
      "a branch without upstream",
      { unpushed: [{ repo: "/w/r", branch: "topic", reason: "it has no upstream" }] },
      ["  - /w/r (topic): it has no upstream", "  -> git -C /w/r push -u <remote> topic"],
    ],
    [
      "a detached HEAD",
      {
        unpushed: [
          { repo: "/w/r/sub", branch: null, reason: "detached HEAD x is on no remote-tracking ref" },
        ],
      },
      ["  - /w/r/sub (detached HEAD): detached", "push <remote> HEAD:refs/heads/<branch>"],
    ],
    [
      "a gitlink",
      {
        gitlinkMismatch: [
          { superproject: "/w/r", path: "lib", parentHead: OID, parentIndex: OID, childHead: null },
        ],
      },
      [
        "Submodule pointers that disagree (1):",
        "  - /w/r: lib: superproject HEAD 0123456789ab, index 0123456789ab, submodule HEAD none",
        "git -C /w/r add -- lib && git -C /w/r commit && git -C /w/r push",
        "git submodule update",
      ],
    ],
    [
      "unsupported",
      {
        unsupported: [
          {
            path: "/tmp/x",
            kind: "outside-roots",
            reason: "/tmp/x is outside the authorized roots",
            remedy: "add it",
          },
        ],
      },
      [
        "Owned paths outside what the end-turn check may verify (1):",
        "  - /tmp/x: /tmp/x is outside",
        "  -> add it",
      ],
    ],
    [
      "unverifiable",
      {
        unverifiable: [
          { repo: "/w/r", reason: "git status failed" },
          { path: "/w/q", reason: "no repo" },
        ],
      },
      [
        "Could not be verified (2):",
        "  - /w/r: git status failed",
        "  - /w/q: no repo",
        "never counts what it could not check",
      ],
    ],
    ["incomplete history", { incompleteHistory: true }, ["Claim history incomplete:", "tandem doctor"]],
    [
      "a stash entry the session created",
      { stashed: [{ repo: "/w/r", sha: OID, message: "On main: wip", ref: "stash@{1}" }] },
      [
        "Work left in stash entries this session created (1):",
        "  - /w/r: stash@{1} 0123456789ab On main: wip",
        "  -> git -C /w/r stash pop stash@{1} and commit the changes, or git -C /w/r stash drop stash@{1} if it is not needed",
        "check `git stash list` first",
      ],
    ],
    [
      "index flags hiding owned changes",
      {
        hidden: [
          { repo: "/w/r", path: "a.ts", flags: ["skip-worktree"] },
          { repo: "/w/r", path: "my b.ts", flags: ["skip-worktree", "assume-unchanged"] },
        ],
      },
      [
        "Owned files whose changes Git is told not to show (2):",
        "  - /w/r: a.ts (skip-worktree)",
        "  - /w/r: my b.ts (skip-worktree, assume-unchanged)",
        "  -> git -C /w/r update-index --no-skip-worktree -- a.ts",
        "  -> git -C /w/r update-index --no-skip-worktree --no-assume-unchanged -- 'my b.ts'",
        "then commit and push what `git status` shows for them",
      ],
    ],
  ])("%s: says what is wrong and what to do", (_name, over, expected) => {
    const text = formatFindings(with_(over));
    expect(text.startsWith("tandem: end-turn check failed")).toBe(true);
    expect(text.endsWith("Then run `tandem status --end-turn` again.\n")).toBe(true);
    for (const line of expected) expect(text).toContain(line);
  });

  it("prints nothing for ignored owned paths alone: they never fail the check", () => {
    expect(formatFindings(with_({ ignored: [{ repo: "/w/r", path: "run.log" }] }))).toBe("");
  });

  it("notes ignored owned paths after the failures, as not failing", () => {
    const text = formatFindings(
      with_({
        dirty: [{ repo: "/w/r", path: "a.ts", state: ".M" }],
        ignored: [{ repo: "/w/r", path: "run.log" }],
      }),
    );
    expect(text).toContain(
      "Ignored by Git, not finalized (1; this does not fail the check):\n  - /w/r: run.log",
    );
    expect(text.indexOf("Ignored by Git")).toBeGreaterThan(text.indexOf("Uncommitted changes"));
  });

  it("orders groups and quotes paths that need it in commands", () => {
    const text = formatFindings(
      with_({
        incompleteHistory: true,
        dirty: [{ repo: "/w/my repo", path: "a b.ts", state: "M." }],
        unverifiable: [{ repo: "/w/x", reason: "boom" }],
      }),
    );
    expect(text).toContain("git -C '/w/my repo' add -- <paths>");
    expect(text).toContain("/w/my repo: a b.ts (staged)");
    const order = ["Claim history incomplete", "Uncommitted changes", "Could not be verified"].map((h) =>
      text.indexOf(h),
    );
    expect(order).toEqual([...order].sort((a, b) => a - b));
  });

  it("never tells anyone to commit a non-Git path", () => {
    const text = formatFindings(
      with_({
        unsupported: [
          {
            path: "/w/out/report.html",
            kind: "invalid-root",
            reason: "finalization root is invalid",
            remedy: 'declare it {"path": "../out", "disposition": "output"}',
          },
          {
            path: "/w/r/link/f",
            kind: "symlink-escape",
            reason: "it leads through a symlink",
            remedy: "replace it",
          },
        ],
      }),
    );
    expect(text).not.toMatch(/commit/i);
    expect(text).not.toMatch(/git -C/);
  });
});
