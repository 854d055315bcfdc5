/**
 * Builtins that change the shell's own state rather than files: `eval` and
 * `source` (commands we may not see), `read`, `unset`, `let` and friends (variables
 * set in ways we do not follow), `break` / `continue` / `return`, and `shopt`.
 */
import { forgetVars, LOST } from "./scope.js";
import type { Arg, CommandContext, Handler } from "./types.js";

/** `eval WORDS`: the words are a script run here; still opaque, as code built at run time often is. */
export function handleEval(args: Arg[], ctx: CommandContext): void {
  ctx.walker.markOpaque();
  if (args.includes(null)) ctx.scope = LOST;
  else ctx.scope = ctx.walker.runScript(args.join(" "), ctx.scope);
}

/** `source FILE`, `. FILE`: a script we do not read runs in this shell; nothing about it is known after. */
export function handleSource(_args: Arg[], ctx: CommandContext): void {
  ctx.walker.markOpaque();
  ctx.scope = LOST;
}

/** `break`, `continue`, `return`: the loop or function around may end here. */
export function handleLeave(_args: Arg[], ctx: CommandContext): void {
  ctx.walker.leaveBlock(ctx.scope);
}

const IDENTIFIER = /[A-Za-z_][A-Za-z0-9_]*/g;

/**
 * `read F`, `unset F`, `getopts o F`, `let F=1`, `mapfile`, and `export` / `declare`
 * run as commands (`builtin export F=x`): every name in their arguments becomes
 * unknown, plus the variables they set by default.
 */
export function forgetsNamed(...defaults: string[]): Handler {
  return (args, ctx) => {
    if (args.includes(null)) {
      ctx.scope = { ...ctx.scope, vars: LOST.vars };
      return;
    }
    const names = new Set(defaults);
    for (const arg of args) for (const match of arg!.matchAll(IDENTIFIER)) names.add(match[0]);
    ctx.scope = { ...ctx.scope, vars: forgetVars(ctx.scope.vars, names) };
  };
}

/** `declare`, `typeset`, `local` run as commands: `-n` makes a name reference, which may assign any variable. */
export function handleDeclare(args: Arg[], ctx: CommandContext): void {
  if (args.some((arg) => arg === null || /^-[a-zA-Z]*n/.test(arg))) ctx.walker.forgetVariables();
  forgetsNamed()(args, ctx);
}

const GLOB_OPTIONS = new Set(["dotglob", "nullglob", "failglob", "nocaseglob", "globstar", "extglob"]);

/** `set -P`, `set -o physical`: from there on `cd` takes `..` on disk. */
export function handleSet(args: Arg[], ctx: CommandContext): void {
  if (args.some((arg) => arg === null || /^-[a-zA-Z]*P/.test(arg) || arg === "physical"))
    ctx.walker.setCdOption("physical");
}

/**
 * `shopt -s dotglob` and the like change what a glob matches: from there on globs are unknown.
 * `cdable_vars` lets `cd NAME` go to `$NAME`: from there on a plain `cd` is unknown.
 */
export function handleShopt(args: Arg[], ctx: CommandContext): void {
  if (args.some((arg) => arg === null || GLOB_OPTIONS.has(arg))) ctx.walker.stopGlobbing();
  if (args.some((arg) => arg === null || arg === "cdable_vars")) ctx.walker.setCdOption("cdable_vars");
}
