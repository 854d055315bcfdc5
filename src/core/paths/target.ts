import {
  absoluteTarget,
  isInside,
  normalizeAbsolute,
  type PathEnv,
  type PhysicalResolver,
} from "./lexical.js";
import type { Classification } from "./roots.js";

/** A target that passes through root `root` on its way to a physical location outside it. */
export interface SymlinkEscape {
  root: string;
  lexical: string;
  physical: string;
}

export interface ResolvedTarget {
  raw: string;
  /** Absolute, lexically normalized: where the target appears to be. */
  lexical: string;
  /** Where a write really lands; classification and claim keys use this one. */
  physical: string;
  escape: SymlinkEscape | null;
}

export type TargetFacts =
  | {
      raw: string;
      ok: true;
      physical: string;
      /** Where the target appears to be: a symlink at a wiring file's place is still wiring. */
      lexical?: string;
      escape: SymlinkEscape | null;
      classification: Classification;
    }
  | { raw: string; ok: false; reason: string };

export type TargetResult = { ok: true; target: ResolvedTarget } | { ok: false; reason: string };

/**
 * raw → lexical → physical for one write target, reporting a symlink escape against `rootPaths`
 * (physical paths of every configured root, valid or not). A batch passes one
 * `physicalResolver()` so directories shared by its targets are resolved once.
 */
export function resolveTarget(
  raw: string,
  cwd: string,
  rootPaths: readonly string[],
  env: PathEnv = {},
  physicalOf: PhysicalResolver,
): TargetResult {
  const abs = absoluteTarget(raw, cwd, env);
  if (!abs.ok) return abs;
  return resolveAbsolute(raw, abs.path, normalizeAbsolute(abs.path), rootPaths, physicalOf);
}

/** resolveTarget for a path already absolute and lexically normal: a ledger key under its root. */
export function resolveNormal(
  raw: string,
  abs: string,
  rootPaths: readonly string[],
  physicalOf: PhysicalResolver,
): TargetResult {
  return resolveAbsolute(raw, abs, abs, rootPaths, physicalOf);
}

function resolveAbsolute(
  raw: string,
  abs: string,
  lexical: string,
  rootPaths: readonly string[],
  physicalOf: PhysicalResolver,
): TargetResult {
  const physical = physicalOf(abs);
  if (!physical.ok) return physical;
  const escaped = findEscape(lexical, physical.path, rootPaths, physicalOf);
  if (!escaped.ok) return escaped;
  return { ok: true, target: { raw, lexical, physical: physical.path, escape: escaped.value } };
}

type EscapeResult = { ok: true; value: SymlinkEscape | null } | { ok: false; reason: string };

/**
 * A target escapes root R when some directory on its lexical path is physically inside R while
 * the final location is not. Walking the prefixes physically (rather than comparing strings)
 * also catches paths that reach R through an alias such as a symlinked home directory.
 */
function findEscape(
  lexical: string,
  physical: string,
  rootPaths: readonly string[],
  physicalOf: PhysicalResolver,
): EscapeResult {
  // A fully physical path has no symlink on it, so every prefix is where it appears to be.
  if (lexical === physical) return { ok: true, value: null };
  let found: SymlinkEscape | null = null;
  let cur = "/";
  for (const seg of lexical.split("/").filter(Boolean)) {
    const step = physicalOf(cur === "/" ? `/${seg}` : `${cur}/${seg}`);
    if (!step.ok) return step;
    cur = step.path;
    // The deepest prefix wins: that is the root the target most specifically appears to be in.
    const left = rootPaths.filter((r) => isInside(r, cur) && !isInside(r, physical));
    const root = innermost(left);
    if (root !== null) found = { root, lexical, physical };
  }
  return { ok: true, value: found };
}

function innermost(paths: readonly string[]): string | null {
  let best: string | null = null;
  for (const p of paths) if (best === null || p.length > best.length) best = p;
  return best;
}
