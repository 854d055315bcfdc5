/**
 * Lexical path handling for write targets (docs/product.md §4.3 step 2). Pure: no filesystem access.
 *
 * Agents report targets in many spellings: relative to the payload cwd, absolute, or — when the
 * client runs on Windows against a WSL checkout — as `\\wsl$\<distro>\…` UNC paths or `C:\…`
 * drive paths. Everything here turns those into one absolute POSIX spelling so that two
 * spellings of the same file produce the same claim key.
 */

export type PathResult = { ok: true; path: string } | { ok: false; reason: string };

export interface PathEnv {
  /** The WSL distribution we run in (`WSL_DISTRO_NAME`); a UNC path naming another one is refused. */
  wslDistro?: string;
  /** Where WSL mounts Windows drives (`automount.root` in wsl.conf); `/mnt` by default. */
  driveRoot?: string;
}

const WSL_HOSTS = new Set(["wsl$", "wsl.localhost"]);
const WIN_SEP = /[\\/]/;

/**
 * Absolute POSIX path for `raw`, with Windows spellings translated but POSIX `..` segments kept.
 * The physical resolver needs them uncollapsed: `link/..` is the parent of the link's target,
 * not the directory holding the link.
 */
export function absoluteTarget(raw: string, cwd: string, env: PathEnv = {}): PathResult {
  const target = translate(raw, env, "path");
  if (!target.ok || target.path.startsWith("/")) return target;
  const base = translate(cwd, env, "working directory");
  if (!base.ok) return base;
  if (!base.path.startsWith("/")) {
    return fail(`the working directory ${show(cwd)} is not absolute, so ${show(raw)} cannot be located`);
  }
  return { ok: true, path: `${base.path}/${target.path}` };
}

/** Absolute, lexically normalized POSIX path for `raw` (relative paths are taken against `cwd`). */
export function lexicalTarget(raw: string, cwd: string, env: PathEnv = {}): PathResult {
  const abs = absoluteTarget(raw, cwd, env);
  return abs.ok ? { ok: true, path: normalizeAbsolute(abs.path) } : abs;
}

/** Collapses `.`, `..` and repeated or trailing slashes; `..` at the top stays at `/`. */
export function normalizeAbsolute(path: string): string {
  return `/${segments(path).join("/")}`;
}

/**
 * The claim key of `absPath` relative to `root`: `.` for the root itself, `../x` for a target
 * beside it. Both arguments are absolute.
 */
export function relativeKey(root: string, absPath: string): string {
  // The usual case, a normal path below a normal root, needs no splitting.
  if (isNormal(root) && isNormal(absPath)) {
    if (absPath === root) return ".";
    if (root === "/") return absPath.slice(1);
    if (absPath.startsWith(`${root}/`)) return absPath.slice(root.length + 1);
  }
  const from = segments(root);
  const to = segments(absPath);
  let common = 0;
  while (common < from.length && common < to.length && from[common] === to[common]) common++;
  const ups = from.slice(common).map(() => "..");
  return [...ups, ...to.slice(common)].join("/") || ".";
}

/**
 * A claim key as the ledger stores it below its root (`src/a.ts`, not `.`, `../x` or `a//b`):
 * joined to a normal root it is already normal, and it is never an agent's spelling, so it is not
 * read as a Windows path (a file may be named `C:notes`).
 */
export function isPlainKey(key: string): boolean {
  return key !== "" && !key.includes("\0") && isNormal(`/${key}`);
}

/** True when `child` is `parent` or lies below it, comparing whole segments (`/a/bc` is not in `/a/b`). */
export function isInside(parent: string, child: string): boolean {
  const p = isNormal(parent) ? parent : normalizeAbsolute(parent);
  const c = isNormal(child) ? child : normalizeAbsolute(child);
  return p === "/" || c === p || c.startsWith(`${p}/`);
}

/** Already in normal form (the usual case: physical paths), so the per-call split can be skipped. */
export function isNormal(path: string): boolean {
  if (path === "/") return true;
  return path.startsWith("/") && !path.endsWith("/") && !/\/\/|\/\.\.?(?:\/|$)/.test(path);
}

function segments(path: string): string[] {
  const out: string[] = [];
  for (const seg of path.split("/")) {
    if (seg === "" || seg === ".") continue;
    if (seg === "..") out.pop();
    else out.push(seg);
  }
  return out;
}

/** Validates `raw` and maps Windows spellings to POSIX; POSIX input is returned unchanged. */
function translate(raw: string, env: PathEnv, what: string): PathResult {
  if (raw === "") return fail(`the ${what} is empty`);
  if (raw.includes("\0")) return fail(`the ${what} ${show(raw)} contains a NUL byte`);
  return windowsForm(raw, env) ?? { ok: true, path: raw };
}

/** The POSIX form of a Windows drive or UNC path, or null when `raw` is not one. */
function windowsForm(raw: string, env: PathEnv): PathResult | null {
  if (/^[A-Za-z]:/.test(raw)) return drivePath(raw, env);
  if (!/^[\\/]{2}/.test(raw)) return null;
  const parts = raw.slice(2).split(WIN_SEP);
  const host = (parts[0] ?? "").toLowerCase();
  if (host === "?" || host === ".") return devicePath(raw, env);
  if (WSL_HOSTS.has(host)) return wslPath(raw, parts.slice(1), env);
  // `//name/x` is a legal POSIX path (Linux reads it as `/name/x`); only backslashes mark real UNC.
  if (raw.startsWith("//")) return null;
  return fail(
    `${show(raw)} is a Windows network path (\\\\${parts[0]}\\…) that has no place in this Linux filesystem; ` +
      "only WSL paths (\\\\wsl$\\<distro>\\… or \\\\wsl.localhost\\<distro>\\…) and drive paths (C:\\…) can be mapped",
  );
}

function drivePath(raw: string, env: PathEnv): PathResult {
  const rest = raw.slice(2);
  if (rest !== "" && !WIN_SEP.test(rest[0] ?? "")) {
    return fail(
      `${show(raw)} is relative to the current directory of drive ${raw.slice(0, 2)}, which is unknown here; ` +
        "use an absolute path",
    );
  }
  const mount = normalizeAbsolute(env.driveRoot ?? "/mnt");
  const drive = raw.slice(0, 1).toLowerCase();
  return { ok: true, path: `${mount === "/" ? "" : mount}/${drive}${windowsTail(rest)}` };
}

function wslPath(raw: string, parts: string[], env: PathEnv): PathResult {
  const distro = parts[0] ?? "";
  if (distro === "") return fail(`${show(raw)} names no WSL distribution after the host`);
  if (env.wslDistro && env.wslDistro.toLowerCase() !== distro.toLowerCase()) {
    return fail(
      `${show(raw)} points into WSL distribution "${distro}", but this session runs in "${env.wslDistro}"; ` +
        `work on that checkout from inside "${distro}"`,
    );
  }
  return { ok: true, path: windowsTail(`/${parts.slice(1).join("/")}`) || "/" };
}

/** `\\?\C:\x` and `\\?\UNC\wsl$\…` are long-path spellings of ordinary drive and UNC paths. */
function devicePath(raw: string, env: PathEnv): PathResult {
  const inner = raw.slice(4);
  if (/^UNC[\\/]/i.test(inner)) return windowsForm(`\\\\${inner.slice(4)}`, env) ?? unsupportedDevice(raw);
  if (/^[A-Za-z]:[\\/]/.test(inner)) return drivePath(inner, env);
  return unsupportedDevice(raw);
}

function unsupportedDevice(raw: string): PathResult {
  return fail(`${show(raw)} is a Windows device path that cannot be mapped into this Linux filesystem`);
}

/**
 * Windows resolves `..` lexically before touching the disk, and never above the drive or share,
 * so collapse the tail on its own before it is put under `/mnt/c` or `/`.
 */
function windowsTail(rest: string): string {
  const segs = segments(rest.split(WIN_SEP).join("/"));
  return segs.length === 0 ? "" : `/${segs.join("/")}`;
}

function fail(reason: string): PathResult {
  return { ok: false, reason };
}

/** Quotes a path for a message so spaces, newlines and control bytes stay visible. */
function show(path: string): string {
  return JSON.stringify(path);
}

/** Resolves an absolute path to its physical location (symlinks followed); the edge supplies it. */
export type PhysicalResolver = (abs: string) => PathResult;
