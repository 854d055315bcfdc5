/**
 * Pathname expansion as bash does it by default: `*`, `?` and `[…]` match within
 * one path segment, a leading dot only matches a literal dot, `**` is just `*`, and
 * results come sorted. Patterns are written with backslash escapes for characters
 * that must match literally (quoted text is escaped before it gets here).
 */
import { posix } from "node:path";

/** Names in a directory (without `.` and `..`), or null when it is not one we can read. */
export type ListDir = (dir: string) => string[] | null;

/** How many more directory entries the command may read before its globs are unknown. */
export interface GlobBudget {
  left: number;
}

/** Whether the pattern has a `*`, `?` or complete `[…]` that is not escaped. */
export function hasGlob(pattern: string): boolean {
  for (let i = 0; i < pattern.length; i++) {
    const ch = pattern[i];
    if (ch === "\\") i++;
    else if (ch === "*" || ch === "?" || (ch === "[" && bracketEnd(pattern, i) !== -1)) return true;
  }
  return false;
}

/** A pattern with its backslash escapes removed: the word bash keeps when nothing matches. */
export function unescapePattern(pattern: string): string {
  return pattern.replace(/\\(.)/gs, "$1");
}

/** Escapes text so that it matches only itself. */
export function escapeGlob(text: string): string {
  return text.replace(/[\\*?[\]]/g, "\\$&");
}

/**
 * The paths `pattern` matches under `base`, spelled as the pattern spells them
 * (`./*` gives `./a`); [] when none match; null when the budget runs out or a
 * bracket cannot be read.
 */
export function matchGlob(pattern: string, base: string, list: ListDir, budget: GlobBudget): string[] | null {
  const segments = pattern.split("/");
  let found = [{ shown: "", path: pattern.startsWith("/") ? "/" : base }];
  let globbed = false;
  for (const [i, segment] of segments.entries()) {
    const join = (shown: string, name: string) => (i === 0 ? name : `${shown}/${name}`);
    const matcher = segmentMatcher(segment);
    if (matcher === undefined) return null;
    if (segment === "" || (matcher === null && !globbed)) {
      // Before the first glob bash does not look at the file system; a trailing `/` keeps directories.
      const dirsOnly = segment === "" && i === segments.length - 1 && globbed;
      const kept = dirsOnly ? found.filter((f) => list(f.path) !== null) : found;
      const name = unescapePattern(segment);
      found = kept.map((f) => ({ shown: join(f.shown, name), path: posix.join(f.path, name) }));
      continue;
    }
    const next: typeof found = [];
    for (const f of found) {
      const names = list(f.path);
      if (names === null) continue;
      budget.left -= names.length;
      if (budget.left < 0) return null;
      const literal = unescapePattern(segment);
      const hits = names.filter((name) => (matcher ? matcher(name) : name === literal)).sort();
      for (const name of hits) next.push({ shown: join(f.shown, name), path: posix.join(f.path, name) });
    }
    if (next.length === 0) return [];
    found = next;
    globbed = true;
  }
  return found.map((f) => f.shown);
}

type Matcher = (name: string) => boolean;

/** A matcher for one segment; null when it has no glob; undefined when it cannot be read. */
function segmentMatcher(segment: string): Matcher | null | undefined {
  if (!hasGlob(segment)) return null;
  let source = "^";
  for (let i = 0; i < segment.length; i++) {
    const ch = segment[i]!;
    if (ch === "\\") {
      source += escapeRegExp(segment[++i] ?? "\\");
    } else if (ch === "*") {
      source += ".*";
    } else if (ch === "?") {
      source += ".";
    } else if (ch === "[" && bracketEnd(segment, i) !== -1) {
      const end = bracketEnd(segment, i);
      const bracket = bracketSource(segment.slice(i + 1, end));
      if (bracket === null) return undefined;
      source += bracket;
      i = end;
    } else {
      source += escapeRegExp(ch);
    }
  }
  let regex: RegExp;
  try {
    regex = new RegExp(`${source}$`, "su");
  } catch {
    return undefined; // a range such as [z-a]
  }
  const dotted = segment.startsWith(".") || segment.startsWith("\\.");
  return (name) => (dotted || !name.startsWith(".")) && regex.test(name);
}

/** Where the bracket expression opening at `start` closes, or -1 when it does not. */
function bracketEnd(pattern: string, start: number): number {
  let i = start + 1;
  if (pattern[i] === "!" || pattern[i] === "^") i++;
  if (pattern[i] === "]") i++; // a leading ] is a member
  for (; i < pattern.length; i++) {
    const ch = pattern[i];
    if (ch === "\\") i++;
    else if (ch === "/") return -1;
    else if (ch === "[" && pattern[i + 1] === ":") {
      const close = pattern.indexOf(":]", i + 2);
      if (close !== -1) i = close + 1;
    } else if (ch === "]") return i;
  }
  return -1;
}

const CLASSES: Record<string, string> = {
  alpha: "\\p{L}",
  digit: "0-9",
  alnum: "\\p{L}\\p{N}",
  upper: "\\p{Lu}",
  lower: "\\p{Ll}",
  space: "\\s",
  blank: " \\t",
  punct: "\\p{P}\\p{S}",
  xdigit: "0-9A-Fa-f",
  cntrl: "\\p{Cc}",
};

/** A bracket expression's body as a regular expression class; null for a class we do not know. */
function bracketSource(body: string): string | null {
  let i = 0;
  let source = "[";
  if (body[0] === "!" || body[0] === "^") {
    source += "^";
    i = 1;
  }
  for (; i < body.length; i++) {
    const ch = body[i]!;
    if (ch === "[" && body[i + 1] === ":") {
      const close = body.indexOf(":]", i + 2);
      const cls = close === -1 ? undefined : CLASSES[body.slice(i + 2, close)];
      if (cls === undefined) return null;
      source += cls;
      i = close + 1;
    } else if (ch === "-" && i > 0 && i < body.length - 1 && source !== "[^") {
      source += "-";
    } else {
      const literal = ch === "\\" ? (body[++i] ?? "\\") : ch;
      source += literal.replace(/[\\\][^-]/g, "\\$&");
    }
  }
  return `${source}]`;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
}
