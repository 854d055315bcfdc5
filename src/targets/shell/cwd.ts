/**
 * Following the working directory: `cd`, `pushd`, `popd`, and the `-C DIR` of
 * `git` and `env`. Relative targets are joined onto the directory posix-style; a
 * change we cannot follow makes the directory unknown instead of guessing.
 */
import { parseArgs } from "./args.js";
import { changeDirectory } from "./scope.js";
import type { Arg, CommandContext } from "./types.js";

function cd(ctx: CommandContext, dir: Arg | undefined): void {
  ctx.scope = changeDirectory(ctx.scope, dir === undefined ? ctx.walker.home : dir);
}

export function handleCd(args: Arg[], ctx: CommandContext): void {
  cd(ctx, parseArgs(args).operands[0]);
}

export function handlePushd(args: Arg[], ctx: CommandContext): void {
  const operands = parseArgs(args).operands;
  // `pushd` with no directory swaps the top two entries of a stack we do not track.
  cd(ctx, operands.length === 0 ? null : operands[0]);
}

export function handlePopd(_args: Arg[], ctx: CommandContext): void {
  cd(ctx, null);
}

/** Runs `body` with relative paths resolved in `dir` (`git -C DIR`, `env -C DIR`). */
export function withDirectory(dir: string, ctx: CommandContext, body: (inner: CommandContext) => void): void {
  body({ ...ctx, scope: changeDirectory(ctx.scope, dir) });
}
