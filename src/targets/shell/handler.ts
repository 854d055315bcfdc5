/** What a command handler is: a function of the command's arguments and where it runs. */
import type { Scope } from "./cwd.js";
import type { Walker } from "./walk.js";
import type { Arg } from "./words.js";

export interface CommandContext {
  walker: Walker;
  scope: Scope;
  /** The statement's heredoc body: undefined when there is none, null when dynamic. */
  heredoc: Arg | undefined;
}

/** Judges one command from its arguments (the command name removed). */
export type Handler = (args: Arg[], ctx: CommandContext) => void;

/** Adds each path as a write target; a dynamic one makes the result opaque. */
export function addAll(ctx: CommandContext, paths: Arg[]): void {
  for (const path of paths) ctx.walker.addTarget(path, ctx.scope);
}
