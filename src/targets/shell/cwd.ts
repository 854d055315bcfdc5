/**
 * Following the working directory: `cd`, `pushd`, `popd`, and the `-C DIR` of
 * `git` and `env`. Relative targets are joined onto the directory posix-style; a
 * change we cannot follow makes the directory unknown instead of guessing: `cd`
 * alone or `cd ~` goes to `$HOME` as the script left it, `cd -` to OLDPWD, and a
 * plain relative name is searched in CDPATH first, or taken as a variable's name
 * when `cdable_vars` is on and no such directory exists.
 */
import { posix } from "node:path";
import { has, parseArgs } from "./args.js";
import { changeDirectory } from "./scope.js";
import type { Arg, CommandContext } from "./types.js";

function cd(ctx: CommandContext, dir: Arg | undefined, physical = false): void {
  ctx.scope = changeDirectory(ctx.scope, destination(ctx, dir, physical));
}

/** Where `cd DIR` goes when that is certain, else null. */
function destination(ctx: CommandContext, dir: Arg | undefined, physical: boolean): Arg {
  if (dir === undefined) return variable(ctx, "HOME") || null;
  if (dir === null) return null;
  // `cd -P link/..` resolves `..` after the link, on disk: not a join of names.
  if (physical && dir.split("/").includes("..")) return null;
  if (dir.startsWith("/") || /^\.\.?(\/|$)/.test(dir) || dir === "-") return dir;
  return searchesNothing(ctx) ? dir : null;
}

/**
 * A plain relative name is looked up in CDPATH before the current directory; with `cdable_vars`
 * a missing one is a variable's name. Certain only when every CDPATH entry is this directory.
 */
function searchesNothing(ctx: CommandContext): boolean {
  if (ctx.walker.cdOptions.has("cdable_vars")) return false;
  const cdpath = variable(ctx, "CDPATH");
  if (cdpath === null) return false;
  if (cdpath === "") return true;
  const here = ctx.walker.directory(ctx.scope);
  return cdpath.split(":").every((entry) => entry === "" || entry === "." || posix.normalize(entry) === here);
}

/** A variable as `cd` sees it: its own prefix assignment (`HOME=x cd`) first. */
function variable(ctx: CommandContext, name: string): Arg {
  return ctx.env.has(name) ? ctx.env.get(name)! : ctx.walker.lookup(ctx.scope, name);
}

/** `-P`, or `set -P` without `-L`: the last of them wins, as in bash. */
function physical(args: Arg[], ctx: CommandContext): boolean {
  let physical = ctx.walker.cdOptions.has("physical");
  for (const arg of args) {
    if (arg === null) return true;
    if (arg === "--" || !/^-[LPe@]+$/.test(arg)) break;
    for (const flag of arg.slice(1)) if (flag === "L" || flag === "P") physical = flag === "P";
  }
  return physical;
}

export function handleCd(args: Arg[], ctx: CommandContext): void {
  cd(ctx, parseArgs(args).operands[0], physical(args, ctx));
}

export function handlePushd(args: Arg[], ctx: CommandContext): void {
  const parsed = parseArgs(args);
  if (has(parsed, "-n")) return; // only the stack changes
  // `pushd` with no directory swaps the top two entries of a stack we do not track.
  cd(ctx, parsed.operands.length === 0 ? null : parsed.operands[0], ctx.walker.cdOptions.has("physical"));
}

export function handlePopd(args: Arg[], ctx: CommandContext): void {
  if (!has(parseArgs(args), "-n")) cd(ctx, null);
}

/** Runs `body` with relative paths resolved in `dir` (`git -C DIR`, `env -C DIR`). */
export function withDirectory(dir: string, ctx: CommandContext, body: (inner: CommandContext) => void): void {
  body({ ...ctx, scope: changeDirectory(ctx.scope, dir) });
}
