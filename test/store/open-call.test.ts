import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { type Db, openDb } from "../../src/store/db.js";
import { raw } from "../../src/store/handle.js";
import { openCallAt } from "../../src/store/wiring/rows.js";
import { tempDir } from "../helpers/repo.js";

/**
 * Decision 0070: a config change is an agent's when a session's tool call was open at its change
 * time. A call whose end never arrived stops counting after the window, and an ended session's
 * call never counts.
 */
let db: Db | null = null;
afterEach(() => db?.close());

function ledger(rows: [ts: number, session: string, kind: string][]): Db {
  db = openDb(join(tempDir(), "state"));
  const insert = raw(db).prepare("INSERT INTO events (ts, session_id, kind, data) VALUES (?, ?, ?, '{}')");
  for (const [ts, session, kind] of rows) insert.run(ts, session, kind);
  return db;
}

const WINDOW = 600_000;

describe("openCallAt", () => {
  it.each([
    ["a call asked for and not ended", [[1_000, "A", "tool.requested"]], 2_000, "A"],
    [
      "a completed call",
      [
        [1_000, "A", "tool.requested"],
        [1_500, "A", "tool.completed"],
      ],
      2_000,
      null,
    ],
    [
      "a refused call",
      [
        [1_000, "A", "tool.requested"],
        [1_500, "A", "claim.denied"],
      ],
      2_000,
      null,
    ],
    [
      "a call of a session that ended",
      [
        [1_000, "A", "tool.requested"],
        [1_500, "A", "session.ended"],
      ],
      2_000,
      null,
    ],
    ["a call older than the window", [[1_000, "A", "tool.requested"]], 1_000 + WINDOW + 1, null],
    ["a call asked for after the change", [[3_000, "A", "tool.requested"]], 2_000, null],
    [
      "one open call among ended ones",
      [
        [1_000, "A", "tool.requested"],
        [1_100, "B", "tool.requested"],
        [1_200, "A", "tool.completed"],
      ],
      2_000,
      "B",
    ],
  ] as const)("%s", (_what, rows, at, want) => {
    expect(openCallAt(ledger(rows.map((r) => [...r])), at, WINDOW)).toBe(want);
  });
});
