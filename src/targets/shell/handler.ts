/** What a command handler is: a function of the command's arguments and where it runs. */
import type { Arg, CommandContext } from "./types.js";

export type { Arg, CommandContext, Handler } from "./types.js";

/** Adds each path as a write target; a dynamic one makes the result opaque. */
export function addAll(ctx: CommandContext, paths: Arg[]): void {
  for (const path of paths) ctx.walker.addTarget(path, ctx.scope);
}
