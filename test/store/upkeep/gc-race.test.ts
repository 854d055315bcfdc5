import { spawn } from "node:child_process";
import { existsSync, utimesSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { BLOB_GRACE_MS } from "../../../src/core/upkeep/retention.js";
import { ensureSession } from "../../../src/sessions/register.js";
import { verifyBlob, writeBlob } from "../../../src/store/blobs/files.js";
import { openDb } from "../../../src/store/db.js";
import { raw } from "../../../src/store/handle.js";
import { write } from "../../../src/store/ledger/append.js";
import { bundleForTest } from "../../helpers/bundle.js";
import { orphanBytes } from "../../helpers/gc-race-bytes.js";
import { tempDir } from "../../helpers/repo.js";

let workerJs = "";

beforeAll(async () => {
  workerJs = await bundleForTest("test/helpers/gc-race-worker.ts");
});

function run(...args: string[]): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [workerJs, ...args], { stdio: ["ignore", "ignore", "inherit"] });
    child.on("error", reject);
    child.on("exit", (code) => resolve(code ?? -1));
  });
}

const ORPHANS = 400;

describe("gc and a concurrent capture", () => {
  it("never deletes a blob a writer stores again and records while gc sweeps it", async () => {
    const stateDir = tempDir();
    const blobs = join(stateDir, "blobs");
    const setup = openDb(stateDir);
    write(setup, (tx) =>
      ensureSession(tx, {
        client: "codex",
        nativeId: "owner",
        kind: "session",
        parentId: null,
        agentPid: null,
        agentPidStart: null,
        cwd: null,
      }),
    );
    setup.close();
    // Orphans from long ago: nothing references them, so gc deletes each one it reaches first.
    const past = new Date(Date.now() - BLOB_GRACE_MS - 60_000);
    const names = Array.from({ length: ORPHANS }, (_, i) => {
      const { sha256 } = writeBlob(blobs, orphanBytes(i));
      utimesSync(join(blobs, sha256), past, past);
      return sha256;
    });
    // Four writers store the same bytes again and record them, while two processes sweep.
    const codes = await Promise.all([
      run("gc", stateDir, "6"),
      ...[0, 1, 2, 3].map((w) => run("writer", stateDir, String(w), String(ORPHANS))),
      run("gc", stateDir, "6"),
    ]);
    expect(codes).toEqual([0, 0, 0, 0, 0, 0]);

    const db = openDb(stateDir);
    const referenced = raw(db).prepare("SELECT blob FROM preserved").all() as { blob: string }[];
    db.close();
    expect(referenced).toHaveLength(ORPHANS);
    const missing = referenced.filter((r) => !verifyBlob(blobs, r.blob));
    expect(missing).toEqual([]);
    expect(new Set(referenced.map((r) => r.blob))).toEqual(new Set(names));
  });

  it("the sweep deletes the orphans nobody stores again", async () => {
    const stateDir = tempDir();
    const blobs = join(stateDir, "blobs");
    openDb(stateDir).close();
    const past = new Date(Date.now() - BLOB_GRACE_MS - 60_000);
    const { sha256 } = writeBlob(blobs, orphanBytes(0));
    utimesSync(join(blobs, sha256), past, past);
    expect(await run("gc", stateDir, "1")).toBe(0);
    expect(existsSync(join(blobs, sha256))).toBe(false);
  });
});
