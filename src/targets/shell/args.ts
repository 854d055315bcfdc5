/** Command-line option parsing, GNU style, over arguments that may be dynamic (null). */
import type { Arg } from "./types.js";

/** Option syntax of one command: which short and long options take a value. */
export interface OptionSpec {
  /** Short options that take a value (attached or in the next argument). */
  valued?: string;
  /** Short options whose value may only be attached (`sed -i.bak`). */
  attached?: string;
  /** Long options that take a value in the next argument when not given `=value`. */
  long?: string[];
}

export interface ParsedArgs {
  operands: Arg[];
  /** Options seen, keyed `-x` / `--name`, each with its values (`""` for a bare flag). */
  options: Map<string, string[]>;
  /** A dynamic argument sat where an option could be. */
  dynamic: boolean;
}

/** GNU getopt_long with argument permutation: options may follow operands until `--`. */
export function parseArgs(args: Arg[], spec: OptionSpec = {}): ParsedArgs {
  const parsed: ParsedArgs = { operands: [], options: new Map(), dynamic: false };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === null || arg === "-" || !arg.startsWith("-")) {
      parsed.operands.push(arg);
    } else if (arg === "--") {
      parsed.operands.push(...args.slice(i + 1));
      break;
    } else if (arg.startsWith("--")) {
      i += parseLong(arg, args[i + 1], spec, parsed);
    } else {
      i += parseShortCluster(arg, args[i + 1], spec, parsed);
    }
  }
  parsed.dynamic = parsed.operands.includes(null);
  return parsed;
}

function addOption(parsed: ParsedArgs, key: string, value: Arg): void {
  const values = parsed.options.get(key) ?? [];
  if (value === null) parsed.dynamic = true;
  values.push(value ?? "");
  parsed.options.set(key, values);
}

/** Returns how many following arguments were consumed. */
function parseLong(arg: string, next: Arg | undefined, spec: OptionSpec, parsed: ParsedArgs): number {
  const eq = arg.indexOf("=");
  if (eq !== -1) {
    addOption(parsed, arg.slice(0, eq), arg.slice(eq + 1));
    return 0;
  }
  if (spec.long?.includes(arg) && next !== undefined) {
    addOption(parsed, arg, next);
    return 1;
  }
  addOption(parsed, arg, "");
  return 0;
}

function parseShortCluster(arg: string, next: Arg | undefined, spec: OptionSpec, parsed: ParsedArgs): number {
  for (let j = 1; j < arg.length; j++) {
    const flag = arg[j]!;
    const rest = arg.slice(j + 1);
    if (spec.attached?.includes(flag)) {
      addOption(parsed, `-${flag}`, rest);
      return 0;
    }
    if (spec.valued?.includes(flag)) {
      if (rest !== "" || next === undefined) {
        addOption(parsed, `-${flag}`, rest);
        return 0;
      }
      addOption(parsed, `-${flag}`, next);
      return 1;
    }
    addOption(parsed, `-${flag}`, "");
  }
  return 0;
}

export function has(parsed: ParsedArgs, ...keys: string[]): boolean {
  return keys.some((key) => parsed.options.has(key));
}

export function values(parsed: ParsedArgs, ...keys: string[]): string[] {
  return keys.flatMap((key) => parsed.options.get(key) ?? []);
}

/**
 * Splits a wrapper's own options from the command it runs. Wrappers stop at their
 * first operand (the command), so there is no permutation here.
 */
export function splitOptions(args: Arg[], spec: OptionSpec): { options: Arg[]; rest: Arg[] } {
  let i = 0;
  for (; i < args.length; i++) {
    const arg = args[i];
    if (arg === null || arg === undefined || arg === "-" || !arg.startsWith("-")) break;
    if (arg === "--") return { options: args.slice(0, i), rest: args.slice(i + 1) };
    if (takesValue(arg, spec)) i++;
  }
  return { options: args.slice(0, i), rest: args.slice(i) };
}

/** Whether an option argument leaves its value to the next argument. */
function takesValue(arg: string, spec: OptionSpec): boolean {
  if (arg.startsWith("--")) return !arg.includes("=") && (spec.long?.includes(arg) ?? false);
  for (let j = 1; j < arg.length; j++) {
    if (spec.valued?.includes(arg[j]!)) return j === arg.length - 1;
  }
  return false;
}
