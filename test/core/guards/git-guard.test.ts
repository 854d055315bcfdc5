import { describe, expect, it } from "vitest";
import type { Holder } from "../../../src/core/claims/decide.js";
import { gitGuardMessage, judgeGitCalls } from "../../../src/core/guards/git-guard.js";

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
  const cases: [string, { command: string; atRisk: string[]; committed: string[] }[], string[]][] = [
    ["nothing at risk", [{ command: "git stash", atRisk: [], committed: [] }], []],
    [
      "only the caller's own dirty paths",
      [{ command: "git stash", atRisk: ["mine.txt"], committed: [] }],
      [],
    ],
    [
      "a peer's dirty path overwritten",
      [{ command: "git checkout .", atRisk: ["f.txt", "mine.txt"], committed: [] }],
      ["overwrite f.txt agent-wren"],
    ],
    [
      "a peer's path committed past the hook",
      [{ command: "git commit -n", atRisk: [], committed: ["src/a.ts"] }],
      ["commit src/a.ts agent-owl"],
    ],
    [
      "two commands, two peers",
      [
        { command: "git stash -u", atRisk: ["f.txt"], committed: [] },
        { command: "git commit -n", atRisk: [], committed: ["src/a.ts"] },
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
    const findings = judgeGitCalls([{ command: "git stash -u", atRisk: ["f.txt"], committed: [] }], owners);
    const text = gitGuardMessage(findings, 5000);
    expect(text).toMatch(/refused this command before it ran; nothing was changed/);
    expect(text).toMatch(/`git stash -u` would overwrite or remove another live agent's uncommitted edits/);
    expect(text).toMatch(
      /f\.txt: agent-wren's uncommitted work \(claude-code, no task declared, last seen 5s ago\)/,
    );
    expect(text).toMatch(/git stash push -- <your paths>/);
  });

  it("judges a command run in another worktree against that worktree's owners, not the caller's", () => {
    const there = new Map([["/w/wt", new Map([["f.txt", holder("agent-dove")]])]]);
    const call = {
      command: "git -C ../wt clean -fdx",
      atRisk: ["f.txt", "src/a.ts"],
      committed: [],
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
