/**
 * Fewer pathspecs for one `git status`: git matches every path it looks at against every pathspec,
 * so 1,000 literal pathspecs cost it about twice as much as none (bench/server.mjs, end-turn). The
 * cover is a few ancestor directories that contain every path asked about; whatever else they hold
 * is filtered out afterwards, by owner, the way dirt in an owned directory already is.
 */
import { dirname } from "node:path/posix";

export interface CoverLimits {
  /** At most this many pathspecs. */
  count: number;
  /** At most this many bytes of pathspecs, each counted with its `:(literal)` prefix and a separator. */
  bytes: number;
}

/** Beyond a few dozen pathspecs git's matching starts to show; 64 KiB keeps clear of any argv limit. */
export const COVER_LIMITS: CoverLimits = { count: 64, bytes: 64 * 1024 };

const LITERAL_PREFIX = ":(literal)".length;

/**
 * The narrowest set of `paths` and ancestors of them within `limits`, every path at or below one of
 * them and none below another; null for the whole tree. `paths` are relative to a repository top
 * ("." is the top itself). Deepest paths give way to their parents first, so 1,000 files in ten
 * directories become those ten directories.
 */
export function coverPaths(paths: Iterable<string>, limits: CoverLimits = COVER_LIMITS): string[] | null {
  let cover = outermost(new Set(paths));
  while (cover !== null && !fits(cover, limits)) cover = climbDeepest(cover);
  return cover;
}

/** Every one of `paths` lies at or below one of `cover` (null: the whole tree covers everything). */
export function covers(cover: readonly string[] | null, paths: Iterable<string>): boolean {
  if (cover === null) return true;
  const specs = new Set(cover);
  for (const p of paths) {
    let q = p;
    while (!specs.has(q) && q !== ".") q = dirname(q);
    if (q === ".") return false;
  }
  return true;
}

function fits(cover: readonly string[], limits: CoverLimits): boolean {
  if (cover.length > limits.count) return false;
  let bytes = 0;
  for (const p of cover) bytes += LITERAL_PREFIX + p.length + 1;
  return bytes <= limits.bytes;
}

/** How many names the path has: "a" 1, "a/b" 2. */
function depth(p: string): number {
  let n = 1;
  for (let i = p.indexOf("/"); i !== -1; i = p.indexOf("/", i + 1)) n++;
  return n;
}

/** Every path of the greatest depth replaced by its parent; null once that parent is the top. */
function climbDeepest(cover: readonly string[]): string[] | null {
  const depths = cover.map(depth);
  let deepest = 0;
  for (const d of depths) if (d > deepest) deepest = d;
  const next = new Set<string>();
  for (const [i, p] of cover.entries()) {
    if (depths[i]! < deepest) next.add(p);
    else {
      const parent = dirname(p);
      if (parent === ".") return null;
      next.add(parent);
    }
  }
  return outermost(next);
}

/** The paths that lie below no other path of the set; null when the set holds the top ("."). */
function outermost(paths: ReadonlySet<string>): string[] | null {
  if (paths.has(".") || paths.has("")) return null;
  const out: string[] = [];
  for (const p of paths) {
    let covered = false;
    for (let q = dirname(p); q !== "." && !covered; q = dirname(q)) covered = paths.has(q);
    if (!covered) out.push(p);
  }
  return out.sort();
}
