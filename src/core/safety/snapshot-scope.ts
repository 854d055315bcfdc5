/**
 * How much a shell command's before-and-after measurement must read (docs/safety-net.md,
 * docs/decisions/0018). The shell reader names every file a command writes unless it marks the
 * command opaque; a command it read fully, that runs no git command judged for its effect on
 * uncommitted work, can change only the files it names — so stamping those (none for a read-only
 * command) measures it exactly, without a `git status` of the whole tree. Everything else, and
 * any named file a live peer owns (its bytes are copied first, which needs the dirty set), reads
 * the whole tree. So does a named path that is a directory already (`rm -r DIR`, `cp -r A DIR`
 * change files inside it that the command does not name), one inside a submodule, and one that
 * is a file with other names (a hard link: writing it changes every name, which no path says).
 */

export interface CommandShape {
  /** Part of the command writes in ways the reader cannot name. */
  opaque: boolean;
  /** The reader failed on the command. */
  error: boolean;
  /** Git commands whose effect on uncommitted work the impact reader judged (checkout, commit…). */
  gitCalls: number;
  /** Commands that change Tandem's wiring without naming a file. */
  wiringCommands: number;
}

export interface NamedFile {
  /** The worktree the claim is in, and the path in it. */
  worktree: string;
  path: string;
}

export type SnapshotScope = { scope: "tree" } | { scope: "named"; paths: string[] };

const TREE: SnapshotScope = { scope: "tree" };

/** Facts asked for only when the command's shape allows a named snapshot. */
export interface NamedFacts {
  /** Whether a live peer owns (claimed or touched) any of the paths. */
  peerOwned(paths: string[]): boolean;
  /** Whether the path (relative to the top) is a directory now. */
  isDirectory(path: string): boolean;
  /**
   * Whether the path is in another repository under the top (a submodule, a nested clone) or in a
   * `.git` directory: the top's status shows such a change as a gitlink, or not at all.
   */
  elsewhere(path: string): boolean;
  /** Whether the path is a symlink, or a file with more than one name (link count > 1). */
  linked(path: string): boolean;
}

/**
 * `top`: the repository the snapshot measures, when the coordination root is its top (otherwise
 * null: keys would differ between the two).
 */
export function snapshotScope(
  shape: CommandShape,
  named: readonly NamedFile[],
  top: string | null,
  facts: NamedFacts,
): SnapshotScope {
  if (top === null || shape.opaque || shape.error || shape.gitCalls > 0 || shape.wiringCommands > 0)
    return TREE;
  if (named.some((f) => f.worktree !== top)) return TREE;
  const paths = [...new Set(named.map((f) => f.path))].sort();
  if (paths.some((p) => facts.elsewhere(p) || facts.isDirectory(p) || facts.linked(p))) return TREE;
  if (paths.length > 0 && facts.peerOwned(paths)) return TREE;
  return { scope: "named", paths };
}
