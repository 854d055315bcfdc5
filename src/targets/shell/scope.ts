/**
 * The shell's state as the walker follows it: the working directory and the
 * variables the script assigned. Pure functions over `Scope` values. Where two
 * paths through the script meet (after `a && b`, an `if`, a loop) the states are
 * merged, and whatever differs between them becomes unknown: a value is only ever
 * static when every way of reaching that point agrees on it.
 */
import { posix } from "node:path";
import type { Arg, Env, Scope, Var, Vars } from "./types.js";

export const NO_VARS: Vars = new Map();

/** A state where nothing is known (after `source FILE` or `eval "$X"`). */
export const LOST: Scope = { cwd: null, vars: NO_VARS };

/** Variables bash gives a fresh value on each use: never static. */
const DYNAMIC = new Set(
  "RANDOM SRANDOM SECONDS LINENO BASHPID EPOCHSECONDS EPOCHREALTIME BASH_COMMAND OLDPWD PPID".split(" "),
);

/**
 * Where `path` lands in `scope`; null when it is relative to a directory we lost. A `..` in it
 * is kept: the kernel takes it from where the directory really is (`cd link && rm ../f` leaves
 * the link's target), which the edge resolves on disk, not by dropping a name.
 */
export function placeTarget(path: string, scope: Scope): string | null {
  if (posix.isAbsolute(path) || scope.cwd === "") return path;
  if (scope.cwd === null) return null;
  return path.split("/").includes("..")
    ? `${scope.cwd.replace(/\/$/, "")}/${path}`
    : posix.join(scope.cwd, path);
}

/** The directory `cd DIR` leads to from `cwd`; null when it cannot be told (`cd -`, `cd "$X"`). */
export function enterDirectory(cwd: string | null, dir: Arg): string | null {
  if (dir === null || dir === "-" || /^[+-]\d+$/.test(dir)) return null;
  if (posix.isAbsolute(dir)) return posix.normalize(dir);
  if (cwd === null) return null;
  const joined = posix.join(cwd, dir);
  return joined === "." ? "" : joined;
}

/** The state after `cd`: bash sets PWD itself, so an assigned PWD no longer holds. */
export function changeDirectory(scope: Scope, dir: Arg): Scope {
  const vars = scope.vars.has("PWD") ? forgetVars(scope.vars, ["PWD"]) : scope.vars;
  return { cwd: enterDirectory(scope.cwd, dir), vars };
}

/** A variable's static value; `$PWD` follows the directory when the caller's cwd is known. */
export function lookupVar(scope: Scope, name: string, base: string | undefined): Arg {
  const known = scope.vars.get(name);
  if (known) return known.value;
  if (name !== "PWD" || scope.cwd === null) return null;
  if (posix.isAbsolute(scope.cwd)) return scope.cwd;
  return base === undefined ? null : posix.resolve(base, scope.cwd);
}

/** `vars` with `name` set; an unknown value is the same as no entry. */
export function setVar(vars: Vars, name: string, value: Arg, exported?: boolean): Vars {
  if (value === null || DYNAMIC.has(name)) return forgetVars(vars, [name]);
  const next = new Map(vars);
  next.set(name, { value, exported: exported ?? vars.get(name)?.exported ?? false });
  return next;
}

/** The variables `names` become unknown. */
export function forgetVars(vars: Vars, names: Iterable<string>): Vars {
  let next: Map<string, Var> | undefined;
  for (const name of names) {
    if (!vars.has(name)) continue;
    next ??= new Map(vars);
    next.delete(name);
  }
  return next ?? vars;
}

/** `vars` with `names` put back as they were in `before` (a function's locals after it returns). */
export function restoreVars(vars: Vars, before: Vars, names: Iterable<string>): Vars {
  const next = new Map(vars);
  for (const name of names) {
    const old = before.get(name);
    if (old) next.set(name, old);
    else next.delete(name);
  }
  return next;
}

/** What a child shell (`bash -c`) sees: the exported variables and the command's own environment. */
export function childVars(vars: Vars, env: Env): Vars {
  const child = new Map<string, Var>();
  for (const [name, v] of vars) if (v.exported) child.set(name, v);
  return withEnv(child, env);
}

/** `vars` with a command's environment laid over them (a function call sees it too). */
export function withEnv(vars: Vars, env: Env): Vars {
  if (env.size === 0) return vars;
  const next = new Map(vars);
  for (const [name, value] of env) {
    if (value === null) next.delete(name);
    else next.set(name, { value, exported: true });
  }
  return next;
}

/** The state when either `a` or `b` may hold: whatever they disagree on is unknown. */
export function mergeScopes(a: Scope, b: Scope): Scope {
  if (a === b) return a;
  return {
    cwd: a.cwd === b.cwd ? a.cwd : null,
    vars: a.vars === b.vars ? a.vars : mergeVars(a.vars, b.vars),
  };
}

function mergeVars(a: Vars, b: Vars): Vars {
  const merged = new Map<string, Var>();
  for (const [name, v] of a) if (sameVar(v, b.get(name))) merged.set(name, v);
  return merged;
}

function sameVar(a: Var, b: Var | undefined): boolean {
  return b !== undefined && a.value === b.value && a.exported === b.exported;
}

export function sameScope(a: Scope, b: Scope): boolean {
  if (a === b) return true;
  if (a.cwd !== b.cwd || a.vars.size !== b.vars.size) return false;
  for (const [name, v] of a.vars) if (!sameVar(v, b.vars.get(name))) return false;
  return true;
}
