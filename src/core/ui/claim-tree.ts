/**
 * Claims as a tree of the repository's paths: directories collapse, each file names its holder.
 * Pure, and shared by the server's tests and the page.
 */

export interface TreeClaim {
  path: string;
  holder: string;
  state: "live" | "stale" | "ended";
}

export interface DirNode {
  name: string;
  /** Path from the root, "" for the root itself. */
  path: string;
  dirs: Map<string, DirNode>;
  files: TreeClaim[];
  /** Claims anywhere below. */
  count: number;
  /** Distinct holders anywhere below, sorted. */
  holders: string[];
}

export type TreeRow =
  | {
      kind: "dir";
      depth: number;
      name: string;
      path: string;
      count: number;
      holders: string[];
      open: boolean;
    }
  | { kind: "file"; depth: number; name: string; path: string; holder: string; state: TreeClaim["state"] };

const dir = (name: string, path: string): DirNode => ({
  name,
  path,
  dirs: new Map(),
  files: [],
  count: 0,
  holders: [],
});

export function claimTree(claims: readonly TreeClaim[]): DirNode {
  const root = dir("", "");
  const holders = new Map<DirNode, Set<string>>();
  for (const c of claims) {
    const parts = c.path.split("/").filter((p) => p !== "");
    let node = root;
    const chain = [root];
    for (const part of parts.slice(0, -1)) {
      const path = node.path ? `${node.path}/${part}` : part;
      let next = node.dirs.get(part);
      if (!next) {
        next = dir(part, path);
        node.dirs.set(part, next);
      }
      node = next;
      chain.push(node);
    }
    node.files.push(c);
    for (const d of chain) {
      d.count++;
      const set = holders.get(d) ?? new Set<string>();
      holders.set(d, set);
      set.add(c.holder);
    }
  }
  for (const [d, set] of holders) d.holders = [...set].sort();
  return root;
}

/**
 * The rows to draw, depth first, directories before files, both by name; a collapsed directory's
 * contents are left out. A directory holding a single directory and no files is still its own row:
 * the path stays readable as a tree.
 */
export function treeRows(root: DirNode, collapsed: ReadonlySet<string>): TreeRow[] {
  const rows: TreeRow[] = [];
  const walk = (node: DirNode, depth: number) => {
    for (const d of [...node.dirs.values()].sort((a, b) => a.name.localeCompare(b.name))) {
      const open = !collapsed.has(d.path);
      rows.push({ kind: "dir", depth, name: d.name, path: d.path, count: d.count, holders: d.holders, open });
      if (open) walk(d, depth + 1);
    }
    for (const f of [...node.files].sort((a, b) => a.path.localeCompare(b.path))) {
      const name = f.path.slice(f.path.lastIndexOf("/") + 1);
      rows.push({ kind: "file", depth, name, path: f.path, holder: f.holder, state: f.state });
    }
  };
  walk(root, 0);
  return rows;
}

/** Large trees start with their top-level directories closed, so the first paint stays small. */
export function initialCollapsed(root: DirNode, openUpTo = 200): Set<string> {
  if (root.count <= openUpTo) return new Set();
  return new Set([...root.dirs.values()].map((d) => d.path));
}

/** A stable hue per holder, so one session keeps its colour across views and reloads. */
export function holderHue(name: string): number {
  let h = 0;
  for (let i = 0; i < name.length; i++) h = (h * 31 + name.charCodeAt(i)) >>> 0;
  return h % 360;
}
