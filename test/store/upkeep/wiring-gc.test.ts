import { existsSync, utimesSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { BLOB_GRACE_MS } from "../../../src/core/upkeep/retention.js";
import { writeBlob } from "../../../src/store/blobs/files.js";
import { openDb } from "../../../src/store/db.js";
import { append, write } from "../../../src/store/ledger/append.js";
import { runGc } from "../../../src/store/upkeep/gc.js";
import { putWiring } from "../../../src/store/wiring/rows.js";
import { tempDir } from "../../helpers/repo.js";

describe("tandem gc and the wiring's blobs", () => {
  it("keeps a recorded wiring file's content and the bytes a restoration displaced, and sweeps an old orphan", () => {
    const stateDir = tempDir();
    const blobs = join(stateDir, "blobs");
    const db = openDb(stateDir);
    const old = new Date(Date.now() - BLOB_GRACE_MS - 60_000);
    const stored = (text: string) => {
      const sha = writeBlob(blobs, Buffer.from(text)).sha256;
      utimesSync(join(blobs, sha), old, old);
      return sha;
    };
    const recorded = stored('{"hooks":{}}');
    const displaced = stored("{ not json");
    const orphan = stored("nobody's");
    const root = "/r";
    write(db, (tx) => {
      putWiring(db, { root, launcher: "tandem", clients: ["cursor"], gitHooks: false }, [
        { path: "/r/.cursor/hooks.json", root, stamp: "1", blob: recorded },
      ]);
      append(tx, {
        kind: "wiring.restored",
        session: null,
        data: {
          root,
          file: "/r/.cursor/hooks.json",
          changes: ["unreadable"],
          foundBy: null,
          via: "hook",
          lastCommandBy: null,
          changedAt: null,
          displaced,
        },
      });
    });
    runGc(db, { stateDir, olderThanMs: 30 * 86_400_000, dryRun: false, now: Date.now() });
    db.close();
    expect(existsSync(join(blobs, recorded))).toBe(true);
    expect(existsSync(join(blobs, displaced))).toBe(true);
    expect(existsSync(join(blobs, orphan))).toBe(false);
  });
});
