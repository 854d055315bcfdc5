import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/**
 * Keeps this checkout's presence alive on NATS while it has live sessions (decision 0063). Over
 * NATS a presence key lapses after `remote.nats.presenceTtlSeconds` unless refreshed, and hooks
 * start rounds only while agents call tools; so the first background round of a checkout stays
 * on as its keeper and runs a round every third of the time to live, until no session is live.
 * A crashed machine's keeper dies with it, and its presence leaves every view within the TTL.
 */

const KEEPER_FILE = "nats-keeper.pid";

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** Becomes the checkout's keeper unless a live one exists; returns the release, or null. */
export function takeKeeper(stateDir: string): (() => void) | null {
  const file = join(stateDir, KEEPER_FILE);
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      writeFileSync(file, `${process.pid}\n`, { flag: "wx" });
      return () => {
        // Only our own file: a later keeper may have replaced a file it judged dead.
        if (readPid(file) === process.pid) rmSync(file, { force: true });
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
      const pid = readPid(file);
      if (pid !== null && alive(pid)) return null;
      rmSync(file, { force: true });
    }
  }
  return null;
}

function readPid(file: string): number | null {
  try {
    const pid = Number(readFileSync(file, "utf8").trim());
    return Number.isInteger(pid) && pid > 0 ? pid : null;
  } catch {
    return null;
  }
}

/**
 * Runs `round` every `everyMs` while it reports live sessions. `round` answers true (sessions
 * live), false (none: the quiet document is out, stop) or null (another round held the lock).
 */
export async function keepPresence(everyMs: number, round: () => Promise<boolean | null>): Promise<void> {
  for (;;) {
    await new Promise((ok) => setTimeout(ok, everyMs));
    if ((await round()) === false) return;
  }
}
