/**
 * The global options before a git subcommand (`git -c k=v --literal-pathspecs -C dir checkout …`):
 * which to hand on to the queries that stand in for the command, and which make it unreadable.
 */

export interface GitGlobals {
  /**
   * `-c k=v`, `--git-dir=…`, `--work-tree=…` words, passed on to every query so git reads the same
   * config, repository and working tree as the command.
   */
  configArgs: string[];
  /** Config keys set on the command line (lower-cased section and name), with their values (null: from env). */
  config: { key: string; value: string | null }[];
  /** `--literal-pathspecs` and friends: passed on to the queries that take the command's pathspecs. */
  pathspecArgs: string[];
  /** `-C DIR` words still in the arguments, applied in order after the call's own directory. */
  chdir: string[];
}

export type GlobalsResult =
  | { ok: true; globals: GitGlobals; rest: string[] }
  | { ok: false; reason: string }
  /** Options that print something and exit (`git --version`): nothing runs. */
  | { ok: "exits" };

const PATHSPEC = new Set([
  "--literal-pathspecs",
  "--glob-pathspecs",
  "--noglob-pathspecs",
  "--icase-pathspecs",
]);
const HARMLESS = new Set([
  "--no-pager",
  "-P",
  "-p",
  "--paginate",
  "--no-replace-objects",
  "--no-optional-locks",
  "--no-advice",
  "--no-lazy-fetch",
]);
const EXITS = new Set([
  "--version",
  "-v",
  "--help",
  "-h",
  "--html-path",
  "--man-path",
  "--info-path",
  "--exec-path",
]);
/**
 * Options that point git at another repository or working tree than its directory's: handed on to
 * the queries, so git itself says which working tree the command acts on.
 */
const LOCATION = ["--git-dir", "--work-tree"];
const VALUED_HARMLESS = ["--namespace", "--super-prefix", "--attr-source"];

/** Splits `-c` words into key and value; a key alone means true. Section and name compare case-blind. */
function configEntry(word: string, fromEnv: boolean): { key: string; value: string | null } {
  const eq = word.indexOf("=");
  const rawKey = eq === -1 ? word : word.slice(0, eq);
  const value = fromEnv ? null : eq === -1 ? "true" : word.slice(eq + 1);
  return { key: canonicalKey(rawKey), value };
}

/** `Core.HooksPath` → `core.hookspath`; a subsection (`branch.Main.rebase`) keeps its case. */
export function canonicalKey(key: string): string {
  const first = key.indexOf(".");
  const last = key.lastIndexOf(".");
  if (first === -1) return key.toLowerCase();
  return `${key.slice(0, first).toLowerCase()}${key.slice(first, last)}${key.slice(last).toLowerCase()}`;
}

export function parseGlobals(args: readonly string[]): GlobalsResult {
  const globals: GitGlobals = { configArgs: [], config: [], pathspecArgs: [], chdir: [] };
  let i = 0;
  for (; i < args.length; i++) {
    const arg = args[i]!;
    if (!arg.startsWith("-")) break;
    const [name, inline] = splitInline(arg);
    if (arg === "-c" || name === "--config-env") {
      const word = arg === "-c" || inline === undefined ? args[++i] : inline;
      if (word === undefined) return { ok: false, reason: `git ${arg} needs a value` };
      // A value from the environment is the command's, not ours: it is noted but not passed on.
      if (arg === "-c") globals.configArgs.push("-c", word);
      globals.config.push(configEntry(word, arg !== "-c"));
    } else if (arg === "-C") {
      const dir = args[++i];
      if (dir === undefined) return { ok: false, reason: "git -C needs a directory" };
      globals.chdir.push(dir);
    } else if (PATHSPEC.has(arg)) globals.pathspecArgs.push(arg);
    else if (HARMLESS.has(arg)) continue;
    else if (EXITS.has(arg) || name === "--list-cmds") return { ok: "exits" };
    else if (LOCATION.includes(name)) {
      const where = inline ?? args[++i];
      if (where === undefined) return { ok: false, reason: `git ${name} needs a path` };
      globals.configArgs.push(`${name}=${where}`);
    } else if (arg === "--bare") globals.configArgs.push(arg);
    else if (VALUED_HARMLESS.includes(name)) {
      if (inline === undefined) i++;
    } else return { ok: false, reason: `git option ${arg} is not understood` };
  }
  return { ok: true, globals, rest: args.slice(i) };
}

function splitInline(arg: string): [string, string | undefined] {
  const eq = arg.indexOf("=");
  return eq === -1 || !arg.startsWith("--") ? [arg, undefined] : [arg.slice(0, eq), arg.slice(eq + 1)];
}

/**
 * Put before a git command's words when its environment sets TANDEM_BYPASS (the pre-commit hook's
 * person-only switch, decision 0050): read below as config from the environment that moves the
 * hooks away, so an agent's bypassed commit is judged like `--no-verify`. Never passed to git.
 */
export const BYPASS_GLOBAL = "--config-env=core.hooksPath=TANDEM_BYPASS";

/** Whether the command line switches the hooks off (`-c core.hooksPath=…`, from a value or the environment). */
export function hooksRedirected(globals: GitGlobals): boolean {
  return globals.config.some((c) => c.key === "core.hookspath");
}
