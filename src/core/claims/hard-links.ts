/**
 * A hard link is one file under several names: writing any name writes the bytes every other name
 * shows. A person's `ln f.txt h` runs no hook, so when an agent later writes `h`, the claim
 * decision must see that it writes `f.txt` too (decision 0045). Pure: the hook gathers file
 * identities only for targets that have other names (nlink > 1).
 */
import type { ClaimKey, ClaimTarget } from "./decide.js";

/** What identifies a file whatever its name: the device and inode numbers. */
export interface FileId {
  dev: number;
  ino: number;
}

/** A target that is a regular file with other names. */
export interface LinkedTarget {
  target: ClaimTarget;
  id: FileId;
}

/** A path a peer holds, with the identity of the file it names now (null when it is no regular file). */
export interface HeldFile {
  key: ClaimKey;
  id: FileId | null;
}

const sameFile = (a: FileId, b: FileId): boolean => a.dev === b.dev && a.ino === b.ino;

/**
 * The other names of linked targets among the held paths: each as a target of its own, judged
 * against the claims like any other, that says which named target it is another name of.
 */
export function otherNames(targets: readonly LinkedTarget[], held: readonly HeldFile[]): ClaimTarget[] {
  const out: ClaimTarget[] = [];
  for (const { target, id } of targets) {
    for (const h of held) {
      if (h.id === null || !sameFile(h.id, id)) continue;
      if (h.key.worktree === target.worktree && h.key.path === target.path) continue;
      out.push({ ...target, worktree: h.key.worktree, path: h.key.path, linkOf: target.path });
    }
  }
  return out;
}
