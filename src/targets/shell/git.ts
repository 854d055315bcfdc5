/**
 * `git`: the subcommands that write the working tree (checkout, restore, rm, mv),
 * those that only read it or the repository, and `-C DIR`. Any other subcommand
 * (switch, merge, rebase, pull, clean, apply …) is opaque.
 */
import { posix } from "node:path";
import { has, parseArgs } from "./args.js";
import { withDirectory } from "./cwd.js";
import { addAll, type CommandContext, type Handler } from "./handler.js";
import type { Arg } from "./words.js";

const GIT_READ_ONLY = new Set(
  (
    "status log diff show branch tag rev-parse ls-files ls-tree ls-remote grep blame describe shortlog " +
    "remote fetch push add commit config reflog cat-file rev-list show-ref for-each-ref merge-base " +
    "name-rev var version help count-objects fsck check-ignore check-attr whatchanged cherry " +
    "range-diff diff-tree diff-files diff-index notes"
  ).split(" "),
);

const GIT_GLOBAL_VALUED = ["-C", "-c", "--git-dir", "--work-tree", "--namespace", "--config-env"];

const GIT_HANDLERS: Record<string, Handler> = {
  checkout: gitCheckout,
  restore: gitRestore,
  rm: gitRm,
  mv: (args, ctx) => addAll(ctx, parseArgs(args).operands),
  reset: (args, ctx) => {
    // Only these modes touch the working tree; the others move the index and HEAD.
    if (args.some((arg) => arg === "--hard" || arg === "--merge" || arg === "--keep"))
      ctx.walker.markOpaque();
  },
  stash: (args, ctx) => {
    if (args[0] !== "list" && args[0] !== "show") ctx.walker.markOpaque();
  },
};

export function handleGit(args: Arg[], ctx: CommandContext): void {
  let i = 0;
  let dir: string | undefined;
  for (; i < args.length; i++) {
    const arg = args[i];
    if (arg === null || arg === undefined) {
      ctx.walker.markOpaque();
      return;
    }
    if (!arg.startsWith("-")) break;
    if (!GIT_GLOBAL_VALUED.includes(arg)) continue;
    const value = args[++i];
    if (value === null) {
      ctx.walker.markOpaque();
      return;
    }
    if (arg === "-C" && value !== undefined) dir = dir === undefined ? value : posix.join(dir, value);
  }
  if (i >= args.length) return;
  const rest = args.slice(i);
  if (dir === undefined) {
    runGitSubcommand(rest, ctx);
    return;
  }
  withDirectory(dir, ctx, (inner) => runGitSubcommand(rest, inner));
}

function runGitSubcommand([sub, ...args]: Arg[], ctx: CommandContext): void {
  if (sub === null || sub === undefined) {
    ctx.walker.markOpaque();
    return;
  }
  if (GIT_READ_ONLY.has(sub)) {
    // `git diff --output=FILE` and friends write a file of their own.
    if (args.some((arg) => arg?.startsWith("--output"))) ctx.walker.markOpaque();
    return;
  }
  const handler = Object.hasOwn(GIT_HANDLERS, sub) ? GIT_HANDLERS[sub] : undefined;
  if (handler) {
    handler(args, ctx);
    return;
  }
  ctx.walker.markOpaque(); // switch, merge, rebase, pull, clean, apply …
}

function gitCheckout(args: Arg[], ctx: CommandContext): void {
  const separator = args.indexOf("--");
  if (args.some((arg) => arg?.startsWith("--pathspec-from-file"))) ctx.walker.markOpaque();
  if (separator !== -1) {
    addAll(ctx, args.slice(separator + 1));
    return;
  }
  const parsed = parseArgs(args, { valued: "bB", long: ["--orphan", "--conflict"] });
  // `git checkout X` switches branches or restores a path: we cannot tell which.
  ctx.walker.markOpaque();
  if (!has(parsed, "-b", "-B", "--orphan", "--detach")) addAll(ctx, parsed.operands.slice(1));
}

function gitRestore(args: Arg[], ctx: CommandContext): void {
  const parsed = parseArgs(args, { valued: "s", long: ["--source"] });
  if (has(parsed, "--pathspec-from-file")) ctx.walker.markOpaque();
  const stagedOnly = has(parsed, "-S", "--staged") && !has(parsed, "-W", "--worktree");
  if (!stagedOnly) addAll(ctx, parsed.operands);
}

function gitRm(args: Arg[], ctx: CommandContext): void {
  const parsed = parseArgs(args);
  if (has(parsed, "--pathspec-from-file")) ctx.walker.markOpaque();
  if (has(parsed, "--cached", "-n", "--dry-run")) return;
  addAll(ctx, parsed.operands);
}
