import { readdirSync, statSync } from "node:fs";

export type EntryType = "file" | "dir" | "symlink" | "other";

/** Questions about one directory before it is read whole: below this, one lstat per name is cheaper. */
const READ_AFTER = 8;
/** A directory this large (its st_size) is not read whole for a handful of names. */
const MAX_DIR_BYTES = 1 << 20;

/**
 * Entry types of the directories a batch keeps asking about. A thousand owned files sit in a few
 * dozen directories: after a few questions a directory is read once, with the types the kernel
 * reports alongside the names, instead of one lstat per file. `undefined` means "not known here:
 * ask the filesystem" — also for a name the listing lacks, which a case-insensitive filesystem
 * may still resolve, or which may have appeared since.
 */
export class DirListings {
  private readonly asks = new Map<string, number>();
  private readonly listings = new Map<string, Map<string, EntryType> | null>();

  typeOf(dir: string, name: string): EntryType | undefined {
    let listing = this.listings.get(dir);
    if (listing === undefined) {
      const n = (this.asks.get(dir) ?? 0) + 1;
      this.asks.set(dir, n);
      if (n < READ_AFTER) return undefined;
      listing = read(dir);
      this.listings.set(dir, listing);
    }
    return listing?.get(name);
  }
}

function read(dir: string): Map<string, EntryType> | null {
  try {
    if (statSync(dir).size > MAX_DIR_BYTES) return null;
    const out = new Map<string, EntryType>();
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      // A name that is not valid UTF-8 cannot be matched reliably: trust only lstat then.
      if (e.name.includes("\uFFFD")) return null;
      out.set(e.name, typeOf(e));
    }
    return out;
  } catch {
    return null;
  }
}

function typeOf(e: { isSymbolicLink(): boolean; isDirectory(): boolean; isFile(): boolean }): EntryType {
  if (e.isSymbolicLink()) return "symlink";
  if (e.isDirectory()) return "dir";
  return e.isFile() ? "file" : "other";
}
