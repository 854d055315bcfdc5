/** Proper ancestor directories of a repository-relative path: `a/b/c` → `a`, `a/b`. */
function ancestorsOf(path: string): string[] {
  const out: string[] = [];
  for (let i = path.indexOf("/"); i !== -1; i = path.indexOf("/", i + 1)) out.push(path.slice(0, i));
  return out;
}

/** Status lists an untracked directory (an embedded repository) with a trailing slash. */
function clean(path: string): string {
  return path.replace(/\/+$/, "");
}

/**
 * Paths of `dirty` that collide with a path of `touched`: the same path, or one
 * is a directory holding the other (a patch creating `a/b` collides with an
 * untracked `a`, and one deleting `a` collides with a dirty `a/b`).
 */
export function overlapping(touched: Iterable<string>, dirty: Iterable<string>): string[] {
  const dirtySet = new Set([...dirty].map(clean));
  const dirtyDirs = new Set([...dirtySet].flatMap(ancestorsOf));
  const hits = new Set<string>();
  for (const raw of touched) {
    const t = clean(raw);
    if (dirtySet.has(t)) hits.add(t);
    for (const dir of ancestorsOf(t)) if (dirtySet.has(dir)) hits.add(dir);
    if (dirtyDirs.has(t)) {
      for (const d of dirtySet) if (d.startsWith(`${t}/`)) hits.add(d);
    }
  }
  return [...hits].sort();
}

/** `--only` prefixes as path components: `src`, `src/` and `./src` all mean the directory src. */
export function normalizePrefix(prefix: string): string {
  let p = prefix.replace(/\\/g, "/");
  while (p.startsWith("./")) p = p.slice(2);
  p = p.replace(/\/+$/, "");
  return p === "." ? "" : p;
}

/** Touched paths outside every prefix (an empty prefix admits everything). */
export function outsidePrefixes(touched: Iterable<string>, prefixes: readonly string[]): string[] {
  const norm = prefixes.map(normalizePrefix);
  if (norm.includes("")) return [];
  const outside = [...touched].filter((p) => !norm.some((n) => p === n || p.startsWith(`${n}/`)));
  return [...new Set(outside)].sort();
}
