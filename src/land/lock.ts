import { closeSync, mkdirSync, openSync, readFileSync, unlinkSync, writeSync } from "node:fs";
import { dirname } from "node:path";

/** The process holding a lock file, or null when it is gone (the lock is stale). */
function holderPid(file: string): number | null {
  try {
    const pid = Number.parseInt(readFileSync(file, "utf8"), 10);
    if (!Number.isInteger(pid) || pid <= 0) return null;
    process.kill(pid, 0);
    return pid;
  } catch (e) {
    // EPERM: the process exists under another user; it still holds the lock.
    return (e as NodeJS.ErrnoException).code === "EPERM"
      ? Number.parseInt(readFileSync(file, "utf8"), 10)
      : null;
  }
}

/** Creates `file` exclusively with our pid; a release function, or the pid that holds it. */
export function tryLock(file: string): (() => void) | { heldBy: number } {
  mkdirSync(dirname(file), { recursive: true });
  for (let tries = 0; tries < 3; tries++) {
    try {
      const fd = openSync(file, "wx");
      writeSync(fd, String(process.pid));
      closeSync(fd);
      return () => unlinkSync(file);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
      const pid = holderPid(file);
      if (pid !== null) return { heldBy: pid };
      // A crashed lander's file: remove it and race the others for a fresh one. Two breakers can
      // still race here (one may remove the other's fresh file); it takes a crash to get here.
      try {
        unlinkSync(file);
      } catch {}
    }
  }
  return { heldBy: 0 };
}

/** Waits (polling) up to `waitMs` for the lock: landers of one checkout queue behind each other. */
export async function waitLock(file: string, waitMs: number): Promise<(() => void) | { heldBy: number }> {
  const until = Date.now() + waitMs;
  for (;;) {
    const lock = tryLock(file);
    if (typeof lock === "function" || Date.now() >= until) return lock;
    await new Promise((r) => setTimeout(r, 50 + Math.floor(Math.random() * 50)));
  }
}
