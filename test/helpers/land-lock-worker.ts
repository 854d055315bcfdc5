// Run as a separate process by the land lock test: takes the lock N times, and proves while
// holding it that no other holder is inside.

import { appendFileSync, closeSync, openSync, unlinkSync } from "node:fs";
import { waitLock } from "../../src/land/lock.js";

const [lockFile, inside, log, countArg] = process.argv.slice(2);
for (let i = 0; i < Number(countArg); i++) {
  const lock = await waitLock(lockFile!, 120_000);
  if (typeof lock !== "function") {
    process.stderr.write(`never got the lock (held by ${lock.heldBy})\n`);
    process.exit(2);
  }
  try {
    // A second holder inside at the same time would find this file already there.
    closeSync(openSync(inside!, "wx"));
  } catch {
    process.stderr.write("two holders inside at once\n");
    process.exit(3);
  }
  appendFileSync(log!, `${process.pid} ${i}\n`);
  unlinkSync(inside!);
  lock();
}
