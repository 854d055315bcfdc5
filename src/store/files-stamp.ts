import { statSync } from "node:fs";
import { dbFile } from "./db.js";
import { identityFile } from "./identity.js";

/**
 * What the store's files are now: device and inode of `state.db`, and of its identity file with its
 * size and mtime. A long-lived connection opened on other files (the store deleted, replaced by
 * `doctor --reset`, or its identity rewritten) must be reopened, not used.
 */
export function filesStamp(stateDir: string): string {
  const parts = [dbFile(stateDir), identityFile(stateDir)].map((file) => {
    const st = statSync(file, { bigint: true, throwIfNoEntry: false });
    return st ? `${st.dev}:${st.ino}:${file.endsWith(".db") ? "" : `${st.size}:${st.mtimeNs}`}` : "-";
  });
  return parts.join("|");
}
