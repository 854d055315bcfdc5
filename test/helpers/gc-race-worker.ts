// Run as separate processes by the blob race test (test/store/upkeep/gc-race.test.ts).
//   writer STATE_DIR ID COUNT: stores the bytes of orphan i (i ≡ ID mod 4) again, as a capture or
//     the safety net would, and records a preserved version naming it;
//   gc STATE_DIR ROUNDS: runs `tandem gc`'s sweep over and over meanwhile.
import { join } from "node:path";
import { writeBlob } from "../../src/store/blobs/files.js";
import { openDb } from "../../src/store/db.js";
import { raw } from "../../src/store/handle.js";
import { append, write } from "../../src/store/ledger/append.js";
import { runGc } from "../../src/store/upkeep/gc.js";
import { orphanBytes } from "./gc-race-bytes.js";

const [mode, stateDir, idArg, countArg] = process.argv.slice(2);
const db = openDb(stateDir!, { lockSeconds: 30 });
const blobs = join(stateDir!, "blobs");
if (mode === "writer") {
  const id = Number(idArg);
  // The owner is a live session: gc keeps every version of its files.
  const owner = (raw(db).prepare("SELECT id FROM sessions WHERE native_id = 'owner'").get() as { id: string })
    .id;
  for (let i = id; i < Number(countArg); i += 4) {
    const ref = writeBlob(blobs, orphanBytes(i));
    write(db, (tx) =>
      append(tx, {
        kind: "work.preserved",
        session: null,
        data: {
          worktree: "/r",
          path: `f${i}.txt`,
          owner,
          version: 1,
          blob: ref.sha256,
          bytes: ref.bytes,
          stamp: `${ref.bytes}:${i}:33188`,
          reason: "peer-command",
        },
      }),
    );
  }
} else {
  for (let r = 0; r < Number(idArg); r++) runGc(db, { stateDir: stateDir!, olderThanMs: 0, dryRun: false });
}
db.close();
