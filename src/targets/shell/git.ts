/**
 * `git`: every subcommand that can destroy or commit work (checkout, reset, stash,
 * clean, commit …) is listed as a GitCall for the impact reader, which asks git
 * what it would overwrite. `git rm` and `git mv` also name their operands as write
 * targets. Read-only subcommands add nothing; any other subcommand is opaque.
 */
import { BYPASS_GLOBAL } from "../../core/git/globals.js";
import { tandemRefPush } from "../../core/guards/tandem-refs.js";
import { has, parseArgs } from "./args.js";
import { addAll, type CommandContext, type Handler } from "./handler.js";
import { changeDirectory } from "./scope.js";
import type { Arg } from "./types.js";

const GIT_READ_ONLY = new Set(
  (
    "status log diff show branch tag rev-parse ls-files ls-tree ls-remote grep blame describe shortlog " +
    "remote fetch push config reflog cat-file rev-list show-ref for-each-ref merge-base " +
    "name-rev var version help count-objects fsck check-ignore check-attr whatchanged cherry " +
    "range-diff diff-tree diff-files diff-index notes"
  ).split(" "),
);

/**
 * Subcommands whose effect on uncommitted work the impact reader judges; `add` is
 * listed for what it stages for a later `commit -n` of the same command line.
 */
const GIT_JUDGED = new Set(
  (
    "checkout restore switch stash reset clean rm mv apply am merge rebase pull cherry-pick revert commit add " +
    "read-tree checkout-index update-index"
  ).split(" "),
);

/** Options and variables that point git at a repository or working tree: kept as `--opt=VALUE` words. */
const GIT_LOCATION: Record<string, string> = { "--git-dir": "GIT_DIR", "--work-tree": "GIT_WORK_TREE" };

/** Global options whose value is the next argument. */
const GIT_GLOBAL_VALUED = ["-C", "-c", "--git-dir", "--work-tree", "--namespace", "--config-env"];

/**
 * Options whose value is only text for git to store (a message, an author): a value
 * known only at run time (`-m "$(cat <<'EOF' …)"`) changes nothing the impact
 * reader looks at, so it stands in as this placeholder instead of hiding the call.
 */
export const RUNTIME_TEXT = "(text known at run time)";
const TEXT_OPTIONS = new Set(["-m", "--message", "--author", "--date", "--trailer"]);

/** Targets of the subcommands that name the files they change. */
const GIT_TARGETS: Record<string, Handler> = {
  rm: gitRm,
  mv: (args, ctx) => addAll(ctx, parseArgs(args).operands),
};

export function handleGit(args: Arg[], ctx: CommandContext): void {
  // The command's own aliases first, then its environment's location, then the words given.
  const aliases = ctx.walker.gitAliasArgs();
  const bypass = bypassFromEnv(ctx);
  const globals: string[] = [...aliases, ...(bypass ? [BYPASS_GLOBAL] : []), ...locationFromEnv(ctx)];
  // `-C DIR` is folded into where the call runs, each one relative to the one before.
  let scope = ctx.scope;
  let i = 0;
  for (; i < args.length; i++) {
    const arg = args[i];
    if (arg === null || arg === undefined) {
      ctx.walker.markOpaque();
      return;
    }
    if (!arg.startsWith("-")) break;
    if (!GIT_GLOBAL_VALUED.includes(arg)) {
      globals.push(arg);
      continue;
    }
    const value = args[++i];
    if (value === undefined) return;
    if (value === null) {
      ctx.walker.markOpaque();
      // A directory or repository known only at run time: judged as if it were this one, the worst case.
      if (arg === "-C" || Object.hasOwn(GIT_LOCATION, arg)) continue;
      return;
    }
    if (arg === "-C") scope = changeDirectory(scope, value);
    else if (Object.hasOwn(GIT_LOCATION, arg)) globals.push(`${arg}=${value}`);
    else globals.push(arg, value);
  }
  const [sub, ...rest] = args.slice(i);
  // The marker is not the command's: hidden from the refusal, which shows the variable instead.
  const hidden = aliases.length + (bypass ? 1 : 0);
  if (sub !== undefined && sub !== null) runSubcommand(sub, rest, globals, { ...ctx, scope }, hidden, bypass);
}

/** The environment as the command gets it: exported variables, then its own assignments. */
function commandEnv(ctx: CommandContext): Map<string, Arg> {
  const env = new Map<string, Arg>();
  for (const [name, v] of ctx.scope.vars) if (v.exported) env.set(name, v.value);
  for (const [name, value] of ctx.env) env.set(name, value);
  return env;
}

/**
 * `TANDEM_BYPASS=1 git commit`, `env TANDEM_BYPASS=1 git …`, `export TANDEM_BYPASS=1; git …`, the
 * same inside `bash -c`: the hook's person-only switch, so the call is judged as skipping the hook.
 * A value known only at run time counts. Returns how it reads in a refusal, or null.
 */
function bypassFromEnv(ctx: CommandContext): string | null {
  const env = commandEnv(ctx);
  if (!env.has("TANDEM_BYPASS")) return null;
  const value = env.get("TANDEM_BYPASS");
  if (value === null) return "TANDEM_BYPASS=…";
  return value === "1" ? "TANDEM_BYPASS=1" : null;
}

/**
 * `GIT_DIR=… git`, `export GIT_WORK_TREE=…`: the same as `--git-dir`/`--work-tree`, given before the
 * command line's own (which win). A value known only at run time is judged as this repository.
 */
function locationFromEnv(ctx: CommandContext): string[] {
  const env = commandEnv(ctx);
  const words: string[] = [];
  for (const [option, name] of Object.entries(GIT_LOCATION)) {
    const value = env.get(name);
    if (value === null) ctx.walker.markOpaque();
    else if (value !== undefined) words.push(`${option}=${value}`);
  }
  return words;
}

/** `hidden`: how many leading words of `globals` the command did not write (its own aliases). */
function runSubcommand(
  sub: string,
  args: Arg[],
  globals: string[],
  ctx: CommandContext,
  hidden = 0,
  bypass: string | null = null,
): void {
  if (sub === "config") {
    gitConfig(args, ctx);
    return;
  }
  if (sub === "push") gitPush(args, globals, ctx);
  if (sub === "worktree" && gitWorktree(args, ctx)) return;
  if (GIT_READ_ONLY.has(sub) || (sub === "stash" && (args[0] === "list" || args[0] === "show"))) {
    // `git diff --output=FILE` and friends write a file of their own.
    if (args.some((arg) => arg?.startsWith("--output"))) ctx.walker.markOpaque();
    return;
  }
  // bisect, worktree, submodule, an alias …: under the net, and judged once git says what it means.
  if (!GIT_JUDGED.has(sub)) ctx.walker.markOpaque();
  if (Object.hasOwn(GIT_TARGETS, sub)) GIT_TARGETS[sub]!(args, ctx);
  const words = withTextPlaceholders(args, ctx.countKnown);
  // Other `GIT_*` variables (an index file, config) are not followed: judged as the plain spelling.
  if (words.includes(null) || setsGitEnvironment(ctx)) ctx.walker.markOpaque();
  if (words.includes(null)) return;
  const call = { cwd: ctx.scope.cwd, args: [...globals, sub, ...(words as string[])] };
  const text = [...(bypass ? [bypass] : []), "git", ...call.args.slice(hidden)].join(" ");
  ctx.walker.addGitCall(hidden > 0 ? { ...call, text } : call);
}

/** Puts the placeholder in for a run-time value given to a text option as its own word (`-m "$X"`). */
function withTextPlaceholders(args: Arg[], countKnown: boolean): Arg[] {
  if (!countKnown) return args;
  return args.map((arg, i) => {
    if (arg !== null) return arg;
    const before = args[i - 1];
    return before !== null && before !== undefined && TEXT_OPTIONS.has(before) ? RUNTIME_TEXT : null;
  });
}

/**
 * `GIT_INDEX_FILE=… git`, `export GIT_CONFIG_COUNT=…`: the environment sets what a GitCall cannot
 * say (another index, config such as core.hooksPath).
 */
function setsGitEnvironment(ctx: CommandContext): boolean {
  const exported = [...ctx.scope.vars].filter(([, v]) => v.exported).map(([name]) => name);
  const located = Object.values(GIT_LOCATION);
  return [...ctx.env.keys(), ...exported].some((name) => name.startsWith("GIT_") && !located.includes(name));
}

const CONFIG_READS = new Set([
  "--get",
  "--get-all",
  "--get-regexp",
  "--get-urlmatch",
  "-l",
  "--list",
  "get",
  "list",
]);

/** `git config core.hooksPath …` moves git's hooks away from Tandem's: a wiring change, not a read. */
function gitConfig(args: Arg[], ctx: CommandContext): void {
  aliasSet(args, ctx);
  if (args.some((a) => a === null)) {
    ctx.walker.markOpaque();
    return;
  }
  const words = args as string[];
  if (words.some((a) => CONFIG_READS.has(a))) return;
  if (words.some((a) => a.toLowerCase() === "core.hookspath"))
    ctx.walker.markWiringCommand("git config core.hooksPath");
}

function gitRm(args: Arg[], ctx: CommandContext): void {
  const parsed = parseArgs(args);
  if (has(parsed, "--pathspec-from-file")) ctx.walker.markOpaque();
  if (has(parsed, "--cached", "-n", "--dry-run")) return;
  addAll(ctx, parsed.operands);
}

/** Options of `git config` that take the next word as their value. */
const CONFIG_VALUED = new Set(["-f", "--file", "--blob", "--type", "--default", "--comment", "--value"]);

/**
 * `git config [--global|--local|--file F] [set] alias.NAME VALUE`: the alias holds for the rest of
 * the command line (a later `git NAME` is judged as what it expands to).
 */
function aliasSet(args: Arg[], ctx: CommandContext): void {
  const positional: Arg[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg !== null && /^--?(unset|unset-all|get|get-all|get-regexp|list|l|remove-section)$/.test(arg))
      return;
    if (arg !== null && CONFIG_VALUED.has(arg)) i++;
    else if (arg === null || !arg.startsWith("-")) positional.push(arg);
  }
  if (positional[0] === "set") positional.shift();
  const [key, value] = positional;
  if (positional.length !== 2 || typeof key !== "string" || !/^alias\./i.test(key)) return;
  ctx.walker.setGitAlias(key.slice(6), value ?? null);
}

/**
 * `git push` writes no file here, but one that deletes or rewrites refs/tandem/* on the remote
 * undoes every clone's reservations (decision 0023). A word known only at run time is not judged.
 */
function gitPush(args: Arg[], globals: string[], ctx: CommandContext): void {
  const words = args.filter((a): a is string => a !== null);
  for (const effect of tandemRefPush(words))
    ctx.walker.markProtectedRefs(`\`${["git", ...globals, "push", ...words].join(" ")}\` ${effect}`);
}

/**
 * `git worktree remove [--force] DIR` deletes DIR, another worktree's files: named as a target, so
 * the live sessions working there are asked about it like `rm -rf DIR` (decision 0023). Any other
 * `worktree` subcommand stays opaque. Returns whether it was read.
 */
function gitWorktree(args: Arg[], ctx: CommandContext): boolean {
  if (args[0] !== "remove" || args.some((a) => a === null)) return false;
  const operands = (args.slice(1) as string[]).filter((a) => !a.startsWith("-"));
  if (operands.length !== 1) return false;
  ctx.walker.addTarget(operands[0]!, ctx.scope);
  return true;
}
