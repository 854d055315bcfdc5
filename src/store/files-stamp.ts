import { statSync } from "node:fs";
import { dbFile } from "./db.js";
import { corruptMarker, identityFile } from "./identity.js";

/**
 * What the store's files are now: device and inode of `state.db`, and of its identity file with its
 * size, mtime and ctime (a rewrite that sets the mtime back still moves the ctime), and whether
 * the store is marked corrupt. A long-lived connection opened on other files (the store deleted,
 * replaced by `doctor --reset`, or its identity rewritten), or on a store since found damaged,
 * must be reopened (and so refused), not used.
 */
export function filesStamp(stateDir: string): string {
  const parts = [dbFile(stateDir), identityFile(stateDir)].map((file) => {
    const st = statSync(file, { bigint: true, throwIfNoEntry: false });
    return st
      ? `${st.dev}:${st.ino}:${file.endsWith(".db") ? "" : `${st.size}:${st.mtimeNs}:${st.ctimeNs}`}`
      : "-";
  });
  // Damage another process found closes the gates: a pooled connection goes back through openDb.
  const marked = statSync(corruptMarker(stateDir), { throwIfNoEntry: false }) ? "corrupt" : "";
  return `${parts.join("|")}|${marked}`;
}
