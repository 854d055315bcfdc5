import { describe, expect, it } from "vitest";
import type { BlameRow } from "../../../src/core/lines/blame.js";
import { UNATTRIBUTED } from "../../../src/core/lines/layout.js";
import { blameTrace } from "../../../src/core/provenance/agent-trace.js";

const who = (session: string) => ({
  session,
  name: session === UNATTRIBUTED ? "unattributed" : `agent-${session}`,
  client: session === UNATTRIBUTED ? null : "codex",
});
const row = (first: number, last: number, removed: number, ...owners: string[]): BlameRow => ({
  first,
  last,
  added: Math.max(0, last - first + 1),
  removed,
  authors: owners.map(who),
});
const ctx = {
  id: "550e8400-e29b-41d4-a716-446655440000",
  at: new Date(Date.UTC(2026, 0, 2)),
  tool: "1.2.3",
  base: "abc",
};

describe("blame as an Agent Trace record", () => {
  it.each([
    {
      what: "one session's hunks are one ai conversation, its ranges 1-based inclusive",
      rows: [row(2, 3, 1, "a"), row(9, 9, 0, "a")],
      conversations: [
        [
          "ai",
          "tandem:session/a",
          [
            [2, 3, null],
            [9, 9, null],
          ],
        ],
      ],
    },
    {
      what: "a hunk of two sessions is in both conversations, marked mixed",
      rows: [row(4, 4, 1, "a", "b"), row(10, 12, 0, "b")],
      conversations: [
        ["ai", "tandem:session/a", [[4, 4, "mixed"]]],
        [
          "ai",
          "tandem:session/b",
          [
            [4, 4, "mixed"],
            [10, 12, null],
          ],
        ],
      ],
    },
    {
      what: "unattributed lines are an unknown contributor with no session link",
      rows: [row(1, 2, 0, UNATTRIBUTED)],
      conversations: [["unknown", null, [[1, 2, null]]]],
    },
    {
      what: "a pure deletion has no lines to name: no range, and a session with only that has no conversation",
      rows: [row(7, 6, 2, "a")],
      conversations: [],
    },
  ])("$what", ({ rows, conversations }) => {
    const t = blameTrace("src/f.ts", rows, ctx);
    const seen = t.files[0]!.conversations.map((c) => [
      c.contributor.type,
      c.related[0]?.url ?? null,
      c.ranges.map((r) => [r.start_line, r.end_line, r.contributor?.type ?? null]),
    ]);
    expect(seen).toEqual(conversations);
  });

  it("carries the record's required fields, Tandem's own under metadata, and the rows blame always printed", () => {
    const rows = [row(7, 6, 2, "a")];
    const t = blameTrace("src/f.ts", rows, ctx);
    expect(t).toMatchObject({
      version: "0.1.0",
      id: ctx.id,
      timestamp: "2026-01-02T00:00:00.000Z",
      tool: { name: "tandem", version: "1.2.3" },
      files: [{ path: "src/f.ts" }],
      metadata: {
        "dev.tandem": {
          base: "abc",
          uncommitted: true,
          sessions: { a: { name: "agent-a", client: "codex" } },
        },
      },
      path: "src/f.ts",
      hunks: rows,
    });
    expect("vcs" in t).toBe(false);
  });
});
