// Run as separate processes by the sync-lock race test (test/remote/sync-lock-race.test.ts).
//   STATE_DIR WINNERS_FILE: for each byte read from stdin (one per round) tries to take the sync
//   lock once, appends "<round> won <pid>" or "<round> lost <holder>" to WINNERS_FILE (O_APPEND,
//   one write per line), then writes "<round>\n" to stdout. Winners keep the lock: the test makes
//   its holder dead again before the next round.
import { appendFileSync, readSync, writeSync } from "node:fs";
import { takeSyncLock } from "../../src/remote/sync-lock.js";

const [stateDir, winners] = process.argv.slice(2) as [string, string];
const byte = Buffer.alloc(1);
for (let round = 0; ; round++) {
  let n = 0;
  try {
    n = readSync(0, byte, 0, 1, null);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "EAGAIN") {
      round--;
      continue;
    }
    throw err;
  }
  if (n === 0) break;
  const lock = takeSyncLock(stateDir, Date.now());
  const line =
    typeof lock === "function" ? `${round} won ${process.pid}\n` : `${round} lost ${lock.heldBy}\n`;
  appendFileSync(winners, line);
  writeSync(1, `${round}\n`);
}
