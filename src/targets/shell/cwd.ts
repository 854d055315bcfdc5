/**
 * Following the working directory: `cd`, `pushd`, `popd`, and the `-C DIR` of
 * `git` and `env`. Relative targets are joined onto the directory posix-style; a
 * change we cannot follow makes the directory unknown instead of guessing.
 */
import { posix } from "node:path";
import { parseArgs } from "./args.js";
import type { CommandContext } from "./handler.js";
import type { Arg } from "./words.js";

/** Where relative paths land: "" = the caller's cwd, null = somewhere we cannot tell. */
export interface Scope {
  cwd: string | null;
}

/** Where `path` lands in `scope`; null when it is relative to a directory we lost. */
export function placeTarget(path: string, scope: Scope): string | null {
  if (posix.isAbsolute(path) || scope.cwd === "") return path;
  return scope.cwd === null ? null : posix.join(scope.cwd, path);
}

function changeDirectory(ctx: CommandContext, dir: Arg | undefined): void {
  const { scope, walker } = ctx;
  if (dir === undefined) {
    scope.cwd = walker.expandHome("~");
  } else if (dir === null || dir === "-" || /^[+-]\d+$/.test(dir)) {
    scope.cwd = null;
  } else if (posix.isAbsolute(dir)) {
    scope.cwd = dir;
  } else if (scope.cwd !== null) {
    scope.cwd = scope.cwd === "" ? posix.normalize(dir) : posix.join(scope.cwd, dir);
  }
}

export function handleCd(args: Arg[], ctx: CommandContext): void {
  const operands = parseArgs(args).operands;
  changeDirectory(ctx, operands[0]);
}

export function handlePushd(args: Arg[], ctx: CommandContext): void {
  const operands = parseArgs(args).operands;
  // `pushd` with no directory swaps the top two entries of a stack we do not track.
  changeDirectory(ctx, operands.length === 0 ? null : operands[0]);
}

export function handlePopd(_args: Arg[], ctx: CommandContext): void {
  ctx.scope.cwd = null;
}

/** Runs `body` with relative paths resolved in `dir` (`git -C DIR`, `env -C DIR`). */
export function withDirectory(dir: string, ctx: CommandContext, body: (inner: CommandContext) => void): void {
  const inner = { ...ctx, scope: { ...ctx.scope } };
  changeDirectory(inner, dir);
  body(inner);
}
