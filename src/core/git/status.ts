/**
 * The one reader of `git status --porcelain=v2 -z` output (src/git/status.ts runs it). Version 2
 * because callers need what version 1 lacks: the branch headers, a submodule's state and the
 * commits a gitlink records. Paths are relative to the top and arrive verbatim (`-z`: no quoting).
 * An unknown record type throws: a record nobody read could be lost work.
 */

/** `# branch.*` headers (with `--branch`); null where git printed none or "(initial)"/"(detached)". */
export interface BranchHeaders {
  oid: string | null;
  head: string | null;
  upstream: string | null;
  /** From `# branch.ab +A -B`; absent when the upstream is gone. */
  ahead: number | null;
  behind: number | null;
}

interface Changed {
  /** Index against HEAD, then worktree against index; `.` for unchanged (`UU`… when unmerged). */
  xy: string;
  /** `N...` for a file, `S<c><m><u>` for a submodule (commit changed, modified, untracked). */
  sub: string;
  path: string;
}

export type StatusRecord =
  | (Changed & { kind: "ordinary"; modes: Modes; hashes: { head: string; index: string } })
  /** A rename or copy (score `R…`/`C…`): `origPath` is the source. */
  | (Changed & { kind: "renamed"; modes: Modes; hashes: { head: string; index: string }; origPath: string })
  | (Changed & { kind: "unmerged" })
  | { kind: "untracked"; path: string }
  /** With `--ignored`; `dir/` stands for everything below it. */
  | { kind: "ignored"; path: string };

/** The octal modes in HEAD, the index and the worktree (`160000`: a gitlink, `000000`: none). */
export interface Modes {
  head: string;
  index: string;
  worktree: string;
}

export interface StatusReport {
  branch: BranchHeaders;
  records: StatusRecord[];
}

export function parseStatus(out: string): StatusReport {
  const branch: BranchHeaders = { oid: null, head: null, upstream: null, ahead: null, behind: null };
  const records: StatusRecord[] = [];
  const parts = out.split("\0");
  if (parts[parts.length - 1] === "") parts.pop();
  for (let i = 0; i < parts.length; i++) {
    const r = parts[i]!;
    const type = r.slice(0, 2);
    if (type === "# ") header(r.slice(2), branch);
    else if (type === "? ") records.push({ kind: "untracked", path: r.slice(2) });
    else if (type === "! ") records.push({ kind: "ignored", path: r.slice(2) });
    else if (type === "1 ") {
      const [f, path] = fields(r, 8);
      records.push({
        kind: "ordinary",
        ...changed(f, path),
        modes: modes(f),
        hashes: { head: f[6]!, index: f[7]! },
      });
    } else if (type === "2 ") {
      const [f, path] = fields(r, 9);
      const origPath = parts[++i];
      if (origPath === undefined) throw new Error("a git status rename record lacks its source path");
      const hashes = { head: f[6]!, index: f[7]! };
      records.push({ kind: "renamed", ...changed(f, path), modes: modes(f), hashes, origPath });
    } else if (type === "u ") {
      const [f, path] = fields(r, 10);
      records.push({ kind: "unmerged", ...changed(f, path) });
    } else throw new Error(`unexpected git status record: ${JSON.stringify(r.slice(0, 80))}`);
  }
  return { branch, records };
}

/** The `n` space-separated fields of a record, then its path: the rest, which may hold spaces. */
function fields(record: string, n: number): [string[], string] {
  let at = 0;
  for (let i = 0; i < n; i++) {
    at = record.indexOf(" ", at) + 1;
    if (at === 0) throw new Error(`malformed git status record: ${JSON.stringify(record.slice(0, 80))}`);
  }
  return [record.slice(0, at - 1).split(" "), record.slice(at)];
}

function changed(f: string[], path: string): Changed {
  return { xy: f[1]!, sub: f[2]!, path };
}

function modes(f: string[]): Modes {
  return { head: f[3]!, index: f[4]!, worktree: f[5]! };
}

function header(h: string, b: BranchHeaders): void {
  const space = h.indexOf(" ");
  const key = h.slice(0, space);
  const value = h.slice(space + 1);
  if (key === "branch.oid") b.oid = value === "(initial)" ? null : value;
  else if (key === "branch.head") b.head = value === "(detached)" ? null : value;
  else if (key === "branch.upstream") b.upstream = value;
  else if (key === "branch.ab") {
    const m = /^\+(\d+) -(\d+)$/.exec(value);
    if (m) [b.ahead, b.behind] = [Number(m[1]), Number(m[2])];
  }
}

/** A path a status names, and which sides of it differ. */
export interface StatusEntry {
  path: string;
  staged: boolean;
  unstaged: boolean;
  untracked: boolean;
  ignored: boolean;
}

/** One entry per path named: a rename's source is a staged removal of its own. */
export function statusEntries(records: readonly StatusRecord[]): StatusEntry[] {
  const out: StatusEntry[] = [];
  const entry = (path: string, e: Partial<StatusEntry>) =>
    out.push({ path, staged: false, unstaged: false, untracked: false, ignored: false, ...e });
  for (const r of records) {
    if (r.kind === "untracked") entry(r.path, { untracked: true });
    else if (r.kind === "ignored") entry(r.path, { ignored: true });
    else {
      entry(r.path, { staged: r.xy[0] !== ".", unstaged: r.xy[1] !== "." });
      if (r.kind === "renamed") entry(r.origPath, { staged: true });
    }
  }
  return out;
}

/** Every path the records name (ignored ones included when asked for), rename sources too. */
export function statusPaths(records: readonly StatusRecord[]): string[] {
  return statusEntries(records).map((e) => e.path);
}

/** Whether `path` is one of `set`, or lies below one of them (a pathspec naming a directory). */
function underAny(path: string, set: ReadonlySet<string>): boolean {
  for (let p = path.replace(/\/$/, ""); p !== ""; p = p.slice(0, Math.max(0, p.lastIndexOf("/")))) {
    if (set.has(p)) return true;
  }
  return false;
}

/**
 * The records a status limited to literal `paths` would have given, picked from a whole-tree
 * status: a path named or below a named directory, and a wholly ignored `dir/` holding a named path.
 */
export function withinPathspecs(records: readonly StatusRecord[], paths: readonly string[]): StatusRecord[] {
  const set = new Set(paths.map((p) => p.replace(/\/$/, "")));
  const holds = (dir: string) => paths.some((p) => p.startsWith(dir));
  return records.filter(
    (r) =>
      underAny(r.path, set) ||
      (r.kind === "renamed" && underAny(r.origPath, set)) ||
      (r.kind === "ignored" && r.path.endsWith("/") && holds(r.path)),
  );
}
