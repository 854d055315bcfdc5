import { linkSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";

/** The pid a lock file names: null when it names none, "gone" when there is no file. */
function pidIn(file: string): number | null | "gone" {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return "gone";
    throw e;
  }
  const pid = Number.parseInt(text, 10);
  return Number.isInteger(pid) && pid > 0 ? pid : null;
}

/** Whether the process is there (EPERM: it exists under another user). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * Publishes a lock file that already holds our pid: written under a private name, then hard-linked
 * to the lock's name, which fails atomically when it exists. (Creating the lock empty and writing
 * the pid after let a peer read it empty in between, take it for a crashed holder's, and remove it.)
 */
function publish(file: string): boolean {
  const mine = `${file}.${process.pid}`;
  writeFileSync(mine, String(process.pid));
  try {
    linkSync(mine, file);
    return true;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
    return false;
  } finally {
    unlinkSync(mine);
  }
}

/** Removes the lock only while it is still ours; a lock already gone is no failure of the landing. */
function release(file: string): void {
  if (pidIn(file) !== process.pid) return;
  try {
    unlinkSync(file);
  } catch {}
}

/** The live pid holding the lock now, or null (none, or a crashed holder's file). */
export function lockHolder(file: string): number | null {
  const pid = pidIn(file);
  return typeof pid === "number" && alive(pid) ? pid : null;
}

/** Creates `file` exclusively with our pid; a release function, or the pid that holds it. */
export function tryLock(file: string): (() => void) | { heldBy: number } {
  mkdirSync(dirname(file), { recursive: true });
  for (let tries = 0; tries < 3; tries++) {
    if (publish(file)) return () => release(file);
    const pid = pidIn(file);
    // Released between our try and our read: try again.
    if (pid === "gone") continue;
    if (pid !== null && alive(pid)) return { heldBy: pid };
    // A crashed lander's file: remove it and race the others for a fresh one. Two breakers can
    // still race here (one may remove the other's fresh file); it takes a crash to get here.
    try {
      unlinkSync(file);
    } catch {}
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
