import { describe, expect, it } from "vitest";
import { CLINE_LINE_MAX, clineHeadline, withHeadline } from "../../src/clients/cline/headline.js";
import type { Conflict } from "../../src/core/claims/decide.js";
import { denialMessage } from "../../src/core/claims/messages.js";

const NOW = 1_000_000;

function conflict(
  path: string,
  name: string,
  client: string,
  task: string | null,
  linkOf?: string,
): Conflict {
  const holder = { id: name, name, client, task, lastSeen: NOW - 3000, live: true, group: name };
  const target = { worktree: "/r", path, raw: path, disposition: "git" as const, root: "/r", linkOf };
  return { target, claim: { worktree: "/r", path, holder, acquiredAt: 0, clean: false } };
}

/** Tandem's own refusal text, as the claim decision builds it. */
const denial = (...conflicts: Conflict[]) => denialMessage({ allow: false, refused: [], conflicts }, NOW);

const LONG_DIR = `${"deep/".repeat(30)}f.txt`;

describe("the one line Cline shows for a refusal", () => {
  const cases: { name: string; reason: string; want: string | null }[] = [
    {
      name: "a peer's file: its path, holder, client and what to do",
      reason: denial(conflict("src/f.txt", "agent-ab12", "claude-code", "writing f")),
      want: "Tandem refused: src/f.txt is held by agent-ab12 (claude-code); work on other files or wait until it commits.",
    },
    {
      name: "two holders: the first is named",
      reason: denial(
        conflict("a.txt", "agent-1", "codex", null),
        conflict("b.txt", "agent-2", "cline", null),
      ),
      want: "Tandem refused: a.txt is held by agent-1 (codex); work on other files or wait until it commits.",
    },
    {
      name: "a hard link: the name the tool used",
      reason: denial(conflict("other.txt", "agent-9", "gemini-cli", "t", "link.txt")),
      want: "Tandem refused: link.txt is held by agent-9 (gemini-cli); work on other files or wait until it commits.",
    },
    {
      name: "a path too long for the line: its file name",
      reason: denial(conflict(LONG_DIR, "agent-ab12", "claude-code", null)),
      want: "Tandem refused: f.txt is held by agent-ab12 (claude-code); work on other files or wait until it commits.",
    },
    {
      name: "no holder named (a guard, a store failure)",
      reason: "Tandem refused: it is busy.\nWait.",
      want: null,
    },
  ];
  for (const c of cases)
    it(c.name, () => {
      const got = clineHeadline(c.reason);
      expect(got).toBe(c.want);
      if (got) expect(got.length).toBeLessThanOrEqual(CLINE_LINE_MAX);
    });

  it("goes first, before the whole reason the model reads; a reason without a holder is left as it is", () => {
    const reason = denial(conflict("f.txt", "agent-ab12", "claude-code", null));
    expect(withHeadline(reason)).toBe(`${clineHeadline(reason)}\n${reason}`);
    expect(withHeadline("Tandem refused: R")).toBe("Tandem refused: R");
  });
});
