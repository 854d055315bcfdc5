import { chmodSync, mkdtempSync, rmSync, statfsSync } from "node:fs";
import { join } from "node:path";

/**
 * Where a test run keeps its temporary files (decision 0084). The suite makes and deletes tens of
 * thousands of files (repositories, homes, stores). On an ext4 /tmp the kernel's search for a free
 * inode that was not recently deleted took ~8% of the run's CPU; on tmpfs it costs nothing, and
 * the cores are what bound the run. `TANDEM_TEST_TMPDIR` names another place (`/tmp` keeps the
 * disk); without it, /dev/shm is used when it is a tmpfs with room, else the system's default.
 */
export const TMP_OVERRIDE = "TANDEM_TEST_TMPDIR";
const TMPFS_MAGIC = 0x01021994;
/** Room a run needs at its peak, with a margin (clients' homes and caches included). */
export const NEEDED_BYTES = 4 * 1024 ** 3;

export interface TmpFacts {
  override: string | undefined;
  /** What statfs says of /dev/shm; null when it is missing or unreadable. */
  shm: { type: number; freeBytes: number } | null;
}

/** The parent of the run's temp directory, or null to leave TMPDIR as it is. Pure. */
export function runTmpParent(f: TmpFacts): string | null {
  if (f.override) return f.override;
  if (f.shm && f.shm.type === TMPFS_MAGIC && f.shm.freeBytes >= NEEDED_BYTES) return "/dev/shm";
  return null;
}

function shmFacts(): TmpFacts["shm"] {
  try {
    const s = statfsSync("/dev/shm");
    return { type: s.type, freeBytes: s.bavail * s.bsize };
  } catch {
    return null;
  }
}

/**
 * Points TMPDIR at a fresh directory for this run (workers and every process they start inherit
 * it) and returns its removal; a no-op when the default stays. World-traversable with the sticky
 * bit, as /tmp is, because the jail tests run commands as another user.
 */
export function useRunTmp(env: NodeJS.ProcessEnv = process.env): () => void {
  const parent = runTmpParent({ override: env[TMP_OVERRIDE], shm: shmFacts() });
  if (!parent) return () => {};
  const dir = mkdtempSync(join(parent, "tandem-test-run-"));
  chmodSync(dir, 0o1777);
  env.TMPDIR = dir;
  return () => rmSync(dir, { recursive: true, force: true });
}
