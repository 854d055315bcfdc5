/**
 * Reading a git command line the way git's own option parser does: the global
 * options before the subcommand, then the subcommand's options (bundled short
 * flags, `--opt=value`, negations, unique abbreviations), operands and `--`.
 */

/** `none`: a flag; `required`: takes a value (inline or the next word); `optional`: only inline. */
type Arity = "none" | "required" | "optional";

interface OptionSpec {
  long: Map<string, Arity>;
  /** Short letter → the long name it stands for (short-only options are named `-x`). */
  short: Map<string, string>;
}

/**
 * Builds a spec from words like `force/f`, `message/m=`, `gpg-sign/S?`, `-b=`:
 * a name, an optional `/letter`, then `=` (value required) or `?` (inline value only).
 */
export function optionSpec(words: string): OptionSpec {
  const spec: OptionSpec = { long: new Map(), short: new Map() };
  for (const word of words.split(/\s+/).filter(Boolean)) {
    const arity: Arity = word.endsWith("=") ? "required" : word.endsWith("?") ? "optional" : "none";
    const bare = arity === "none" ? word : word.slice(0, -1);
    const [name, letter] = bare.startsWith("-") ? [bare, bare.slice(1)] : bare.split("/");
    spec.long.set(name!, arity);
    if (letter) spec.short.set(letter, name!);
  }
  return spec;
}

export interface ParsedArgv {
  /** Every option seen, in order: its long name and its value (`true`, a string, or `false` when negated). */
  opts: { name: string; value: string | boolean }[];
  /** Words that are not options, before any `--`. */
  operands: string[];
  /** The words after `--`, or null when there is none. */
  afterDashDash: string[] | null;
}

export type ParseResult = { ok: true; argv: ParsedArgv } | { ok: false; reason: string };

/** Parses a subcommand's arguments; an option the spec does not know makes the result unreadable. */
export function parseArgv(args: readonly string[], spec: OptionSpec): ParseResult {
  const argv: ParsedArgv = { opts: [], operands: [], afterDashDash: null };
  let endOfOptions = false;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === "--") {
      argv.afterDashDash = args.slice(i + 1);
      break;
    }
    if (endOfOptions || arg === "-" || !arg.startsWith("-")) {
      argv.operands.push(arg);
      continue;
    }
    if (arg === "--end-of-options") {
      endOfOptions = true;
      continue;
    }
    const next = (): string | undefined => args[++i];
    const error = arg.startsWith("--")
      ? longOption(arg, spec, argv, next)
      : shortOptions(arg, spec, argv, next);
    if (error) return { ok: false, reason: error };
  }
  return { ok: true, argv };
}

function longOption(arg: string, spec: OptionSpec, argv: ParsedArgv, next: () => string | undefined) {
  const eq = arg.indexOf("=");
  const written = eq === -1 ? arg.slice(2) : arg.slice(2, eq);
  const inline = eq === -1 ? undefined : arg.slice(eq + 1);
  const found = resolveLong(written, spec);
  if (!found) return `option ${arg} is not understood`;
  const arity = spec.long.get(found.name)!;
  if (found.negated || arity === "none") {
    // A negation never takes a value, and neither does a flag.
    if (inline !== undefined) return `option ${arg} takes no value`;
    argv.opts.push({ name: found.name, value: !found.negated });
    return null;
  }
  if (arity === "optional") {
    argv.opts.push({ name: found.name, value: inline ?? true });
    return null;
  }
  const value = inline ?? next();
  if (value === undefined) return `option ${arg} needs a value`;
  argv.opts.push({ name: found.name, value });
  return null;
}

/** An exact name, a negation (`--no-x` of `x`, or `--x` of `no-x`), or a unique abbreviation. */
function resolveLong(written: string, spec: OptionSpec): { name: string; negated: boolean } | null {
  const candidates = new Map<string, { name: string; negated: boolean }>();
  for (const [name, arity] of spec.long) {
    if (name.startsWith("-")) continue;
    candidates.set(name, { name, negated: false });
    if (arity === "required") continue;
    if (name.startsWith("no-")) candidates.set(name.slice(3), { name, negated: true });
    else candidates.set(`no-${name}`, { name, negated: true });
  }
  const exact = candidates.get(written);
  if (exact) return exact;
  const prefixed = [...candidates.entries()].filter(([key]) => key.startsWith(written));
  const names = new Set(prefixed.map(([, v]) => `${v.name}:${v.negated}`));
  return names.size === 1 ? prefixed[0]![1] : null;
}

function shortOptions(arg: string, spec: OptionSpec, argv: ParsedArgv, next: () => string | undefined) {
  for (let j = 1; j < arg.length; j++) {
    const name = spec.short.get(arg[j]!);
    if (name === undefined) return `option -${arg[j]} (in ${arg}) is not understood`;
    const arity = spec.long.get(name)!;
    if (arity === "none") {
      argv.opts.push({ name, value: true });
      continue;
    }
    const rest = arg.slice(j + 1);
    if (arity === "optional") argv.opts.push({ name, value: rest === "" ? true : rest });
    else {
      const value = rest === "" ? next() : rest;
      if (value === undefined) return `option -${arg[j]} needs a value`;
      argv.opts.push({ name, value });
    }
    return null;
  }
  return null;
}

/** The last setting of a flag (false when never given or negated last). */
export function flag(argv: ParsedArgv, ...names: string[]): boolean {
  for (let i = argv.opts.length - 1; i >= 0; i--) {
    const o = argv.opts[i]!;
    if (names.includes(o.name)) return o.value !== false;
  }
  return false;
}

/** Whether a flag was set or negated at all (e.g. `--autostash` / `--no-autostash`). */
export function given(argv: ParsedArgv, ...names: string[]): boolean {
  return argv.opts.some((o) => names.includes(o.name));
}

/** The last string value of an option, or undefined. */
export function value(argv: ParsedArgv, name: string): string | undefined {
  const all = values(argv, name);
  return all[all.length - 1];
}

export function values(argv: ParsedArgv, name: string): string[] {
  return argv.opts
    .filter((o) => o.name === name && typeof o.value === "string")
    .map((o) => o.value as string);
}

export function count(argv: ParsedArgv, name: string): number {
  return argv.opts.filter((o) => o.name === name && o.value !== false).length;
}

/** Operands before and after `--`, for commands where both are pathspecs. */
export function allOperands(argv: ParsedArgv): string[] {
  return [...argv.operands, ...(argv.afterDashDash ?? [])];
}

/** Which of the named flags was set last (`--soft --hard` → `hard`), or undefined. */
export function lastOf(argv: ParsedArgv, ...names: string[]): string | undefined {
  for (let i = argv.opts.length - 1; i >= 0; i--) {
    const o = argv.opts[i]!;
    if (names.includes(o.name) && o.value !== false) return o.name;
  }
  return undefined;
}
