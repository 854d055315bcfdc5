import { isAbsolute, relative } from "node:path";

/**
 * Something in a config file or a TANDEM_* variable that Tandem could not use. The setting
 * falls back (to the other layers, else the default) and coordination carries on; the problem
 * is reported at session start, in `tandem status` and by `tandem doctor`.
 */
export interface ConfigProblem {
  /** The config file, or "environment" for a TANDEM_* variable. */
  source: string;
  kind: "unknown-key" | "bad-value" | "syntax" | "unreadable";
  /** Dotted key path (`agents.finalizationRoots[0].path`), the variable's name, or "" for the whole file. */
  key: string;
  /** 1-based position of the key itself (of the broken spot for file-level syntax); null without one. */
  line: number | null;
  column: number | null;
  /** What was wrong, reading after the key: `is "ten"`, `is missing`, or a syntax error in words. */
  problem: string;
  /** What is allowed there, reading after "it must be". */
  allowed: string | null;
  /** The key (full path) or value most likely meant. */
  didYouMean: string | null;
  /** What Tandem uses instead, as shown to people (`600`, `the built-in command`). */
  using: string | null;
}

export const ENVIRONMENT = "environment";

/** The three parts of a message; `doctor` shows the fix on its own line. */
export interface ProblemText {
  where: string;
  what: string;
  fix: string;
}

/** A file shown relative to the root when it lies inside it, else whole. */
export function shownSource(source: string, root: string | undefined): string {
  if (!root) return source;
  const rel = relative(root, source);
  return rel && !rel.startsWith("..") && !isAbsolute(rel) ? rel : source;
}

function whereOf(p: ConfigProblem, root?: string): string {
  if (p.source === ENVIRONMENT) return ENVIRONMENT;
  const at = p.line !== null ? `:${p.line}:${p.column ?? 1}` : "";
  return `${shownSource(p.source, root)}${at}`;
}

/** `write it as "freshnessSeconds" inside "agents"`: where a suggested key goes. */
function placement(path: string): string {
  const dot = path.lastIndexOf(".");
  if (dot < 0) return `write it as "${path}" at the top level`;
  return `write it as "${path.slice(dot + 1)}" inside "${path.slice(0, dot)}"`;
}

function unknownKey(p: ConfigProblem): Omit<ProblemText, "where"> {
  const meant = p.didYouMean ? ` (did you mean "${p.didYouMean}"?)` : "";
  const stays = p.didYouMean && p.using ? `, so ${p.didYouMean} stays ${p.using}` : "";
  return {
    what: `unknown key "${p.key}"${meant}; Tandem ignores it${stays}`,
    fix: p.didYouMean ? placement(p.didYouMean) : `remove it; the keys allowed there are ${p.allowed}`,
  };
}

function badValue(p: ConfigProblem): Omit<ProblemText, "where"> {
  const env = p.source === ENVIRONMENT;
  const subject = env ? p.key : p.key ? `"${p.key}"` : "the file";
  const meant = p.didYouMean ? ` (did you mean "${p.didYouMean}"?)` : "";
  const using = p.using
    ? `; Tandem uses ${p.using} instead`
    : p.key
      ? "; Tandem ignores it"
      : "; Tandem uses the defaults";
  const target = p.didYouMean ? `"${p.didYouMean}"` : p.allowed;
  return {
    what: `${subject} ${p.problem}, but it must be ${p.allowed}${meant}${using}`,
    fix: env ? `set ${p.key} to ${target}, or unset it` : `set it to ${target}`,
  };
}

function syntax(p: ConfigProblem): Omit<ProblemText, "where"> {
  const fix = "correct the JSON there (comments and trailing commas are allowed)";
  if (!p.key) {
    return {
      what: `the JSON is broken: ${p.problem}; Tandem keeps every key it could still read and uses the defaults for the rest`,
      fix,
    };
  }
  const using = p.using ? `; Tandem uses ${p.using} instead` : "";
  return { what: `the value of "${p.key}" cannot be read: ${p.problem}${using}`, fix };
}

/** The problem as where / what / fix, file paths shown relative to `root` when inside it. */
export function describeConfigProblem(p: ConfigProblem, root?: string): ProblemText {
  const where = whereOf(p, root);
  switch (p.kind) {
    case "unknown-key":
      return { where, ...unknownKey(p) };
    case "bad-value":
      return { where, ...badValue(p) };
    case "syntax":
      return { where, ...syntax(p) };
    case "unreadable":
      return {
        where,
        what: `the file cannot be read (${p.problem}); Tandem uses the defaults for everything in it`,
        fix: "make it readable (check its permissions) or remove it",
      };
  }
}

/** One line: where, what was wrong and what Tandem does about it, and the fix. */
export function formatConfigProblem(p: ConfigProblem, root?: string): string {
  const t = describeConfigProblem(p, root);
  return `${t.where}: ${t.what}. Fix: ${t.fix}.`;
}

/** A few words for a narrow place (the status box): where, and which key. */
export function shortConfigProblem(p: ConfigProblem, root?: string): string {
  const where = whereOf(p, root);
  if (p.kind === "unknown-key") return `${where}: unknown key "${p.key}"`;
  if (p.kind === "bad-value") return `${where}: bad value${p.key ? ` for "${p.key}"` : ""}`;
  if (p.kind === "syntax") return `${where}: broken JSON${p.key ? ` in "${p.key}"` : ""}`;
  return `${where}: unreadable`;
}
