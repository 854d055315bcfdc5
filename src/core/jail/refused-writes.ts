/**
 * After a jailed command, which of its writes the kernel refused (issue 36 §5): the lines of its
 * output that report `EROFS`, `EACCES`, `EBUSY` or `EXDEV` naming a path the session's jail made read-only, with why
 * that path was read-only. The reader did not stop these; the post-tool hook tells the agent whose
 * file it was and what to do. Pure: the output, the command's directory, the plan's binds and the
 * command's text in.
 *
 * `sed -i` names only its temporary file (`sed: cannot rename ./sedAb12Cd: …`), made beside the
 * file it edits: the reader then becomes the message, and the bound files of that directory the
 * command's text names are the ones it meant.
 */
import { isInside, relativeKey } from "../paths/lexical.js";

export interface PlannedBind {
  /** Absolute. */
  path: string;
  /** Why it is read-only ("agent-x's uncommitted file", "Tandem's state …"). */
  reasons: readonly string[];
}

export interface RefusedWrite {
  /** As the output named it. */
  named: string;
  bind: PlannedBind;
}

// EROFS, EACCES, EPERM; EBUSY where an unlink or a rename meets a bind's mount point (rm, mv over
// it, git checkout); EXDEV where a hard link would cross out of the bind.
const REFUSED =
  /Read-only file system|Permission denied|Operation not permitted|Device or resource busy|Invalid cross-device link|\[Errno (30|13|1|16|18)\]/;
// A path as tools print it: quoted, or a run of non-space characters ended by `:`.
const QUOTED = /['"`‘“]([^'"`’”\n]+)['"`’”]/g;
const BARE = /(?:^|\s)([^\s'"`:]+):/g;

function candidates(line: string): string[] {
  const out: string[] = [];
  for (const m of line.matchAll(QUOTED)) out.push(m[1]!);
  for (const m of line.matchAll(BARE)) out.push(m[1]!);
  return out;
}

const SED_TEMP = /^sed[A-Za-z0-9]{6}$/;

/** Whether the command's text names `base` as a word of its own (not inside a longer name). */
function names(command: string, base: string): boolean {
  const at = (i: number) => command[i] ?? " ";
  for (let i = command.indexOf(base); i >= 0; i = command.indexOf(base, i + 1)) {
    if (!/[\w.-]/.test(at(i - 1)) && !/[\w.-]/.test(at(i + base.length))) return true;
  }
  return false;
}

/** For sed's temporary file, the binds beside it that the command names; otherwise none. */
function sedMeant(abs: string, command: string, binds: readonly PlannedBind[]): PlannedBind[] {
  const cut = abs.lastIndexOf("/");
  if (!command || !SED_TEMP.test(abs.slice(cut + 1))) return [];
  const dir = abs.slice(0, cut) || "/";
  return binds.filter((b) => {
    const bcut = b.path.lastIndexOf("/");
    return (b.path.slice(0, bcut) || "/") === dir && names(command, b.path.slice(bcut + 1));
  });
}

function absolute(cwd: string, p: string): string {
  const joined = p.startsWith("/") ? p : `${cwd.replace(/\/+$/, "")}/${p}`;
  const parts: string[] = [];
  for (const seg of joined.split("/")) {
    if (seg === "" || seg === ".") continue;
    if (seg === "..") parts.pop();
    else parts.push(seg);
  }
  return `/${parts.join("/")}`;
}

/** The refused writes the output reports, each path once, in the order first seen. */
export function refusedWrites(
  output: string,
  cwd: string,
  binds: readonly PlannedBind[],
  command = "",
): RefusedWrite[] {
  const out: RefusedWrite[] = [];
  const seen = new Set<string>();
  const add = (abs: string, named: string, bind: PlannedBind) => {
    if (seen.has(abs)) return;
    seen.add(abs);
    out.push({ named, bind });
  };
  for (const line of output.split("\n")) {
    if (!REFUSED.test(line)) continue;
    for (const named of candidates(line)) {
      const abs = absolute(cwd, named);
      // The bind itself, or a path inside a bound directory (a peer's worktree, the state).
      const bind = binds.find((b) => isInside(b.path, abs));
      if (bind) add(abs, named, bind);
      else for (const b of sedMeant(abs, command, binds)) add(b.path, relativeKey(cwd, b.path), b);
    }
  }
  return out;
}
