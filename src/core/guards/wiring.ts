import type { WiringFile } from "../../clients/types.js";
import { GIT_HOOK_NAMES } from "../git/hook-names.js";
import { isInside, normalizeAbsolute } from "../paths/lexical.js";

/**
 * Which paths are Tandem's own wiring: the files that decide whether its hooks run at all. An
 * agent that may edit them can switch coordination off, so they are told apart here, purely.
 */

/** The rule an agent's refused edit of the wiring is reported under. */
export const WIRING_RULE = "protected-wiring";
/** Set to 1 in an agent's environment (by the person starting it) to let that agent edit the wiring. */
export const ALLOW_WIRING_ENV = "TANDEM_ALLOW_WIRING_EDITS";

export type WiringRow = WiringFile;

/**
 * A shell command that hands the permission to a process it starts (`TANDEM_ALLOW_WIRING_EDITS=1
 * claude -p …`, `export …`): only the person starting an agent may give it.
 */
export function grantsWiringEdits(command: string): boolean {
  return command.includes(`${ALLOW_WIRING_ENV}=`);
}

/** Where the wiring of one checkout lives; every path is physical and absolute. */
export interface WiringFacts {
  /** The project's wiring files relative to a top (config/project-wiring.ts derives them). */
  projectFiles: readonly WiringRow[];
  /** The coordination root and the top of its working tree (often the same directory). */
  tops: readonly string[];
  /** Git's common directory: `<common>/hooks` is where git looks for hooks by default. */
  commonDir: string | null;
  /** Where core.hooksPath sends git for its hooks, when it is set; null when unset or unknown. */
  hooksDir: string | null;
}

export interface WiringHit {
  /** The wiring file itself (absolute): the target, or a file inside the directory targeted. */
  file: string;
  what: string;
  dir?: boolean;
}

function inDir(dir: string, rel: string): string {
  return normalizeAbsolute(`${dir}/${rel}`);
}

function gitHooks(dir: string, where: string): WiringHit[] {
  return GIT_HOOK_NAMES.map((name) => ({ file: inDir(dir, name), what: `the git ${name} hook${where}` }));
}

/** Every wiring file of a checkout, as absolute paths. */
export function wiringFiles(facts: WiringFacts): WiringHit[] {
  const out: WiringHit[] = [];
  for (const top of new Set(facts.tops)) {
    for (const row of facts.projectFiles) out.push({ ...row, file: inDir(top, row.file) });
  }
  if (facts.commonDir !== null) {
    out.push(...gitHooks(inDir(facts.commonDir, "hooks"), ""));
    // core.hooksPath lives here: pointing it elsewhere silences every git hook.
    out.push({ file: inDir(facts.commonDir, "config"), what: "git's config (core.hooksPath)" });
  }
  if (facts.hooksDir !== null) out.push(...gitHooks(facts.hooksDir, " (core.hooksPath)"));
  return out;
}

/**
 * A matcher over one checkout's wiring: the hit for a path that is a wiring file, or a directory
 * holding one (`rm -rf .claude` removes the hooks as surely as editing them). A project top and
 * its ancestors are never counted as such a directory: everything lies below them, and the
 * ordinary claim rules judge whole-tree commands.
 */
export function wiringMatcher(facts: WiringFacts): (path: string) => WiringHit | null {
  const files = wiringFiles(facts);
  const byPath = new Map(files.map((f) => [f.file, f]));
  // Indexed by path so that a 100-file patch costs a few lookups per target, not one test per
  // wiring file (dozens of git hooks): the first file in list order wins, as a scan would find it.
  const dirs = firstByPath(
    files.filter((f) => f.dir).map((f): [string, WiringHit] => [normalizeAbsolute(f.file), f]),
  );
  const holders = firstByPath(
    files.flatMap((f) => ancestry(normalizeAbsolute(f.file)).map((a): [string, WiringHit] => [a, f])),
  );
  return (path) => {
    const p = normalizeAbsolute(path);
    const exact = byPath.get(p);
    if (exact) return exact;
    const within = earliest(ancestry(p).map((a) => dirs.get(a)));
    if (within) return { file: p, what: within.f.what };
    if (facts.tops.some((top) => isInside(p, top))) return null;
    return holders.get(p)?.f ?? null;
  };
}

type Indexed = { f: WiringHit; i: number };

/** Each path's first entry (by list position). */
function firstByPath(entries: [string, WiringHit][]): Map<string, Indexed> {
  const out = new Map<string, Indexed>();
  entries.forEach(([path, f], i) => {
    if (!out.has(path)) out.set(path, { f, i });
  });
  return out;
}

function earliest(found: (Indexed | undefined)[]): Indexed | undefined {
  let best: Indexed | undefined;
  for (const x of found) if (x && (!best || x.i < best.i)) best = x;
  return best;
}

/** A normalized absolute path and each directory above it, up to `/`. */
function ancestry(p: string): string[] {
  const out = [p];
  for (let cut = p.lastIndexOf("/"); cut > 0; cut = p.lastIndexOf("/", cut - 1)) out.push(p.slice(0, cut));
  if (p !== "/") out.push("/");
  return out;
}

/** A repository path a change touches that is part of Tandem's wiring. */
export interface WiringChange {
  path: string;
  what: string;
}

export function describeWiring(changes: readonly WiringChange[]): string {
  return changes.map((c) => `${c.path} (${c.what})`).join(", ");
}

/** Is `path` (physical, absolute) one of Tandem's wiring files, or a directory holding one? */
export function wiringFile(path: string, facts: WiringFacts): WiringHit | null {
  return wiringMatcher(facts)(path);
}
