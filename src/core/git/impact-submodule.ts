/**
 * `git submodule` commands that reach into each submodule's working tree, planned as the plain git
 * commands they amount to there (issue 37.6): `update --force` is a forced checkout in each,
 * `deinit -f` removes each working tree, `foreach CMD` runs CMD in each. Pure: src/git/submodule-calls.ts
 * lists the submodules and hands each plain command to the impact reader.
 */

export type SubmodulePlan =
  /** Nothing in any working tree at risk (status, init, sync, a plain update …). */
  | { kind: "none" }
  | { kind: "unknown"; reason: string }
  /** Run `calls` (words after `git`) in each initialised submodule the pathspecs select. */
  | { kind: "each"; pathspecs: string[]; recursive: boolean; calls: string[][] };

const NONE: SubmodulePlan = { kind: "none" };

/** A forced checkout throws away every local change to tracked files. */
const FORCED_CHECKOUT = ["checkout", "-f"];
/** What removing a working tree loses beyond that: untracked and ignored files. */
const REMOVE_ALL = ["clean", "-ffdx"];

/** Options of `update` that take a value as the next word. */
const UPDATE_VALUES = new Set(["--reference", "--depth", "--jobs", "-j", "--filter"]);

/** `args`: the words after `git submodule`. */
export function planSubmodule(args: readonly string[]): SubmodulePlan {
  let i = 0;
  while (args[i] === "--quiet" || args[i] === "-q" || args[i] === "--cached") i++;
  const sub = args[i];
  const rest = args.slice(i + 1);
  if (sub === "update") return planUpdate(rest);
  if (sub === "deinit") return planDeinit(rest);
  if (sub === "foreach") return planForeach(rest);
  return NONE;
}

function planUpdate(args: readonly string[]): SubmodulePlan {
  const { flags, paths } = split(args, UPDATE_VALUES);
  if (!flags.has("--force") && !flags.has("-f")) return NONE;
  return { kind: "each", pathspecs: paths, recursive: flags.has("--recursive"), calls: [FORCED_CHECKOUT] };
}

function planDeinit(args: readonly string[]): SubmodulePlan {
  const { flags, paths } = split(args, new Set());
  if (!flags.has("--force") && !flags.has("-f")) return NONE;
  return { kind: "each", pathspecs: paths, recursive: false, calls: [FORCED_CHECKOUT, REMOVE_ALL] };
}

/** Shell syntax the plain word split below cannot read: the net covers such a command. */
const SHELL_SYNTAX = /[;&|<>$`\\"'(){}*?~#\n=]/;

function planForeach(args: readonly string[]): SubmodulePlan {
  let i = 0;
  let recursive = false;
  for (; i < args.length; i++) {
    const a = args[i]!;
    if (a === "--recursive") recursive = true;
    else if (a !== "--quiet" && a !== "-q") break;
  }
  // git joins the words and runs them with the shell in each submodule.
  const command = args.slice(i).join(" ");
  const words = command.trim().split(/\s+/).filter(Boolean);
  if (words.length === 0) return NONE;
  if (SHELL_SYNTAX.test(command) || words[0] !== "git") {
    return { kind: "unknown", reason: "git submodule foreach runs a shell command Tandem does not read" };
  }
  return { kind: "each", pathspecs: [], recursive, calls: [words.slice(1)] };
}

/** Flags and the path words; `values` are the options that take the next word. */
function split(
  args: readonly string[],
  values: ReadonlySet<string>,
): { flags: Set<string>; paths: string[] } {
  const flags = new Set<string>();
  const paths: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === "--") {
      paths.push(...args.slice(i + 1));
      break;
    }
    if (!a.startsWith("-") || a === "-") paths.push(a);
    else if (values.has(a)) i++;
    else if (/^-[a-zA-Z]{2,}$/.test(a)) for (const c of a.slice(1)) flags.add(`-${c}`);
    else flags.add(a.split("=")[0]!);
  }
  return { flags, paths };
}
