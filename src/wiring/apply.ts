import {
  chmodSync,
  closeSync,
  fsyncSync,
  mkdirSync,
  openSync,
  realpathSync,
  renameSync,
  rmdirSync,
  rmSync,
  statSync,
  unlinkSync,
  writeSync,
} from "node:fs";
import { basename, dirname, join } from "node:path";
import type { FilePlan } from "./plan.js";

/** A symlinked hook or settings file stays a symlink: we write to what it points at. */
function target(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

function modeFor(path: string, executable: boolean): number {
  let mode = executable ? 0o755 : 0o644;
  try {
    mode = statSync(path).mode & 0o7777;
  } catch {
    // New file: the defaults above.
  }
  return executable ? mode | 0o111 : mode;
}

/**
 * Temp file in the same directory, fsync, rename: a reader (an agent starting up, git running a
 * hook) sees the old file or the new one, never half of one.
 */
export function writeAtomic(path: string, text: string, executable: boolean): void {
  const file = target(path);
  mkdirSync(dirname(file), { recursive: true });
  const mode = modeFor(file, executable);
  const tmp = join(
    dirname(file),
    `.${basename(file)}.tandem-${process.pid}-${process.getBuiltinModule("node:crypto").randomBytes(4).toString("hex")}`,
  );
  const fd = openSync(tmp, "w", mode);
  try {
    writeSync(fd, text);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  try {
    chmodSync(tmp, mode);
    renameSync(tmp, file);
  } catch (err) {
    rmSync(tmp, { force: true });
    throw err;
  }
}

/**
 * `.claude/` and friends go too when deinit emptied them, and so do their parents (`.github/` of
 * `.github/hooks/`, `.codex/` of `.codex/rules/`) once empty; rmdir refuses a directory with
 * anything in it, and the work tree's top always holds `.git`, so the walk stops there at the latest.
 */
function removeEmptyDirs(dir: string, levels: number): void {
  for (let d = dir, i = 0; i < levels; d = dirname(d), i++) {
    try {
      rmdirSync(d);
    } catch {
      return; // Not empty, or already gone.
    }
  }
}

export function applyPlans(plans: readonly FilePlan[]): void {
  for (const p of plans) {
    if ((p.action === "create" || p.action === "update") && p.after !== null)
      writeAtomic(p.path, p.after, p.executable);
    else if (p.action === "delete") {
      unlinkSync(p.path);
      if (p.kind === "settings" || p.kind === "rules") removeEmptyDirs(dirname(p.path), 2);
    }
  }
}
