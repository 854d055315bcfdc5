import { existsSync, lstatSync, readlinkSync, realpathSync } from "node:fs";
import { isNormal, type PathResult } from "../core/paths/lexical.js";
import { DirListings } from "./dir-listing.js";

/** Linux gives up after 40 links (ELOOP); so do we, instead of spinning on a cycle. */
const MAX_LINKS = 40;

/**
 * Where a write to `abs` would physically land (docs/product.md §4.3 step 2).
 *
 * `abs` is absolute and may still contain `..`: those are resolved against the physical parent,
 * as the kernel does. Components that do not exist yet are kept as written (treated like the
 * directories `mkdir -p` would create), and a dangling symlink is followed to where its target
 * would be created.
 */
export function physicalPath(abs: string): PathResult {
  if (!abs.startsWith("/")) return { ok: false, reason: `${JSON.stringify(abs)} is not an absolute path` };
  // Fast path: the whole path exists, one syscall. Asking first avoids a thrown ENOENT per new
  // file, which dominated a 100-file patch (exceptions are the expensive part of a failed call).
  if (existsSync(abs)) {
    try {
      return { ok: true, path: realpathSync.native(abs) };
    } catch (err) {
      if (!isMissing(err)) return unresolvable(abs, err);
    }
  }
  try {
    return walk(abs);
  } catch (err) {
    return unresolvable(abs, err);
  }
}

export type { PhysicalResolver } from "../core/paths/lexical.js";

import type { PhysicalResolver } from "../core/paths/lexical.js";

/**
 * physicalPath for a batch of targets (a 1,000-path end-turn scope, a 100-file patch): each
 * directory is resolved once and each leaf costs one lstat at most (none once its directory has
 * been listed), where realpath would walk every component of every path. A leaf that is a
 * symlink, or anything unusual, takes the full walk.
 */
export function physicalResolver(listings: DirListings = new DirListings()): PhysicalResolver {
  const dirs = new Map<string, PathResult>();
  return (abs) => {
    const cut = abs.lastIndexOf("/");
    const leaf = abs.slice(cut + 1);
    // `.`/`..` components or doubled slashes are left to the full walk.
    if (cut < 0 || leaf === "" || !isNormal(abs)) return physicalPath(abs);
    const dir = cut === 0 ? "/" : abs.slice(0, cut);
    let parent = dirs.get(dir);
    if (!parent) {
      parent = physicalPath(dir);
      dirs.set(dir, parent);
    }
    if (!parent.ok) return physicalPath(abs);
    const at = parent.path === "/" ? `/${leaf}` : `${parent.path}/${leaf}`;
    const known = listings.typeOf(parent.path, leaf);
    if (known !== undefined) return known === "symlink" ? physicalPath(abs) : { ok: true, path: at };
    try {
      if (!lstatSync(at, { throwIfNoEntry: false })?.isSymbolicLink()) return { ok: true, path: at };
    } catch {
      // ENOTDIR, EACCES…: the full walk decides and words the failure.
    }
    return physicalPath(abs);
  };
}

/** Component-by-component resolution, for paths whose tail does not exist. */
function walk(abs: string): PathResult {
  const pending = abs.split("/").reverse();
  let cur = "/";
  let links = 0;
  while (pending.length > 0) {
    const seg = pending.pop()!;
    if (seg === "" || seg === ".") continue;
    if (seg === "..") {
      cur = parentOf(cur);
      continue;
    }
    const next = cur === "/" ? `/${seg}` : `${cur}/${seg}`;
    if (!isSymlink(next)) {
      cur = next;
      continue;
    }
    if (++links > MAX_LINKS)
      return { ok: false, reason: `too many symbolic links under ${JSON.stringify(abs)}` };
    const target = readlinkSync(next);
    if (target.startsWith("/")) cur = "/";
    pending.push(...target.split("/").reverse());
  }
  return { ok: true, path: cur };
}

/** Missing components are not links; any other lstat failure (EACCES…) propagates. */
function isSymlink(path: string): boolean {
  try {
    return lstatSync(path, { throwIfNoEntry: false })?.isSymbolicLink() ?? false;
  } catch (err) {
    if (isMissing(err)) return false;
    throw err;
  }
}

function parentOf(path: string): string {
  const cut = path.lastIndexOf("/");
  return cut <= 0 ? "/" : path.slice(0, cut);
}

function isMissing(err: unknown): boolean {
  const code = (err as NodeJS.ErrnoException).code;
  return code === "ENOENT" || code === "ENOTDIR";
}

function unresolvable(abs: string, err: unknown): PathResult {
  const detail = (err as NodeJS.ErrnoException).code ?? String(err);
  return { ok: false, reason: `cannot resolve ${JSON.stringify(abs)} on disk (${detail})` };
}
