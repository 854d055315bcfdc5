/** Issue 37.6, the pure half of judging the land check: peers' files its targets reach, and the message. */
import { describe, expect, it } from "vitest";
import type { Holder } from "../../../src/core/claims/decide.js";
import { landCheckRefusal, peerHits } from "../../../src/core/guards/land-check.js";

const P: Holder = {
  id: "p",
  name: "agent-p",
  client: "claude-code",
  task: null,
  lastSeen: 0,
  live: true,
  group: "p",
};
const owners = new Map([
  ["notes.txt", P],
  ["src/lib/a.ts", P],
]);

describe("peerHits", () => {
  const cases: [string, (string | null)[], string[]][] = [
    ["the peer's file itself", ["notes.txt"], ["notes.txt"]],
    ["a directory holding a peer's file", ["src"], ["src/lib/a.ts"]],
    ["the whole root", ["."], ["notes.txt", "src/lib/a.ts"]],
    ["a sibling with a shared prefix", ["src/li", "notes"], []],
    ["a path outside the root", [null], []],
    ["its own private worktree", [".git/tandem/tmp/land-1/notes.txt"], []],
  ];
  for (const [name, targets, want] of cases) {
    it(name, () => {
      expect(peerHits(targets, owners).map((h) => h.path)).toEqual(want);
    });
  }
});

describe("landCheckRefusal", () => {
  it("names the command, the peer's files and what to change", () => {
    const text = landCheckRefusal("rm x", [{ path: "notes.txt", holder: P }], "git says no");
    expect(text).toContain("the land check `rm x` was refused before it ran");
    expect(text).toContain("- notes.txt: agent-p (claude-code)");
    expect(text).toContain("git says no");
    expect(text).toContain("$TANDEM_LAND_CHECK_DIR");
  });
});
