import { describe, expect, it } from "vitest";
import type { Holder } from "../../../src/core/claims/decide.js";
import { gitGuardMessage, type JudgedGitCall, judgeGitCalls } from "../../../src/core/guards/git-guard.js";

const holder = (name: string): Holder => ({
  id: `id-${name}`,
  name,
  client: "claude-code",
  task: null,
  lastSeen: 0,
  live: true,
  group: `id-${name}`,
});
const owners = new Map([
  ["f.txt", holder("agent-wren")],
  ["src/a.ts", holder("agent-owl")],
]);

describe("the verdict on destructive git commands", () => {
  const cases: [string, JudgedGitCall[], string[]][] = [
    ["nothing at risk", [{ command: "git stash", atRisk: [], committed: [], stagedLost: [] }], []],
    [
      "only the caller's own dirty paths",
      [{ command: "git stash", atRisk: ["mine.txt"], committed: [], stagedLost: [] }],
      [],
    ],
    [
      "a peer's dirty path overwritten",
      [{ command: "git checkout .", atRisk: ["f.txt", "mine.txt"], committed: [], stagedLost: [] }],
      ["overwrite f.txt agent-wren"],
    ],
    [
      "a peer's path committed past the hook",
      [{ command: "git commit -n", atRisk: [], committed: ["src/a.ts"], stagedLost: [] }],
      ["commit src/a.ts agent-owl"],
    ],
    [
      "a peer's staged change dropped from the index",
      [{ command: "git reset", atRisk: [], committed: [], stagedLost: ["f.txt", "mine.txt"] }],
      ["unstage f.txt agent-wren"],
    ],
    [
      "a peer's path both overwritten and unstaged, named once as overwritten",
      [{ command: "git reset --hard", atRisk: ["f.txt"], committed: [], stagedLost: ["f.txt"] }],
      ["overwrite f.txt agent-wren"],
    ],
    [
      "a staged change of the caller's own only",
      [{ command: "git rm --cached mine.txt", atRisk: [], committed: [], stagedLost: ["mine.txt"] }],
      [],
    ],
    [
      "two commands, two peers",
      [
        { command: "git stash -u", atRisk: ["f.txt"], committed: [], stagedLost: [] },
        { command: "git commit -n", atRisk: [], committed: ["src/a.ts"], stagedLost: [] },
      ],
      ["overwrite f.txt agent-wren", "commit src/a.ts agent-owl"],
    ],
  ];
  it.each(cases)("%s", (_what, calls, expected) => {
    expect(judgeGitCalls(calls, owners).map((f) => `${f.effect} ${f.path} ${f.holder.name}`)).toEqual(
      expected,
    );
  });

  it("names the command, the holder and what to do instead", () => {
    const findings = judgeGitCalls(
      [{ command: "git stash -u", atRisk: ["f.txt"], committed: [], stagedLost: [] }],
      owners,
    );
    const text = gitGuardMessage(findings, 5000);
    expect(text).toMatch(/refused this command before it ran; nothing was changed/);
    expect(text).toMatch(/`git stash -u` would overwrite or remove another live agent's uncommitted edits/);
    expect(text).toMatch(
      /f\.txt: agent-wren's uncommitted work \(claude-code, no task declared, last seen 5s ago\)/,
    );
    expect(text).toMatch(/git stash push -- <your paths>/);
  });

  it("says a staged change would be lost, and how to unstage only one's own files", () => {
    const call = { command: "git rm --cached f.txt", atRisk: [], committed: [], stagedLost: ["f.txt"] };
    const text = gitGuardMessage(judgeGitCalls([call], owners), 5000);
    expect(text).toMatch(/refused this command before it ran; nothing was changed/);
    expect(text).toMatch(
      /`git rm --cached f\.txt` would drop or replace what another live agent staged with `git add`/,
    );
    expect(text).toMatch(/git keeps no other copy of it/);
    expect(text).toMatch(/f\.txt: agent-wren's uncommitted work/);
    expect(text).toMatch(/What to do: .*`git reset -- <your paths>`.*`git restore --staged -- <your paths>`/);
    expect(text).toMatch(/wait until agent-wren commits/);
    expect(text).not.toMatch(/git stash push/);
  });

  it("judges a command run in another worktree against that worktree's owners, not the caller's", () => {
    const there = new Map([["/w/wt", new Map([["f.txt", holder("agent-dove")]])]]);
    const call = {
      command: "git -C ../wt clean -fdx",
      atRisk: ["f.txt", "src/a.ts"],
      committed: [],
      stagedLost: [],
      worktree: "/w/wt",
    };
    const findings = judgeGitCalls([call], owners, there);
    expect(findings.map((f) => `${f.path} ${f.holder.name}`)).toEqual(["f.txt agent-dove"]);
    expect(gitGuardMessage(findings, 5000)).toMatch(
      /- f\.txt in the worktree \/w\/wt: agent-dove's uncommitted work/,
    );
    expect(judgeGitCalls([{ ...call, worktree: "/w/other" }], owners, there)).toEqual([]);
  });
});
