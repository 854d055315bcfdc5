// Run as a separate process by the concurrency test: appends N events for one session.

import { ensureSession } from "../../src/sessions/register.js";
import { openDb } from "../../src/store/db.js";
import { append, write } from "../../src/store/ledger/append.js";

const [stateDir, worker, countArg] = process.argv.slice(2);
const count = Number(countArg);
// The test is about order and integrity, not lock waits: 8 writers in tight loops on a loaded
// 2-core machine can starve one past the 5 s a hook waits.
const db = openDb(stateDir!, { lockSeconds: 60 });
const { session } = write(db, (tx) =>
  ensureSession(tx, {
    client: "codex",
    nativeId: `worker-${worker}`,
    kind: "session",
    parentId: null,
    agentPid: process.pid,
    agentPidStart: null,
    cwd: null,
  }),
);
for (let i = 1; i < count; i++) {
  write(db, (tx) => {
    if (i % 2 === 0) append(tx, { kind: "task.set", session: session.id, data: { text: `${worker}:${i}` } });
    else
      append(tx, {
        kind: "claim.acquired",
        session: session.id,
        data: { worktree: "/w", path: `w${worker}/f${i}`, disposition: "git", root: "/w" },
      });
  });
}
db.close();
