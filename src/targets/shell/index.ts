/**
 * Write targets of a shell command (docs/product.md §4.3 step 1, docs/clients.md §5 step 1).
 *
 * The command is parsed with mvdan/sh (the `mvdan-sh` package, loaded on first use;
 * see docs/decisions/0003-shell-parser.md) and walked: output redirections and the
 * operands of well-known mutating commands are write targets; `apply_patch`
 * heredocs are returned for the patch parser. Anything that could write files in a
 * way we cannot see marks the result `opaque`, so the caller knows the list is not
 * the whole story (post-use compares the dirty set, §4.5).
 *
 * Paths are returned as written (unquoted, unescaped), not resolved against the
 * payload `cwd`. Best effort for `cd`: after `cd DIR` (also `pushd DIR`, `git -C DIR`,
 * `env -C DIR`) later relative targets are joined onto DIR posix-style; a `cd` we
 * cannot follow (`cd "$X"`, `cd -`, `popd`) makes later relative targets unknown,
 * which marks the result opaque instead of guessing. `cd` inside a subshell,
 * pipeline, command substitution or background job does not leak out, as in bash.
 *
 * The parts: load.ts loads the parser, walk.ts walks the tree (with words.ts,
 * redirects.ts and cwd.ts), commands.ts maps command names to handlers (file-commands.ts,
 * git.ts, wrappers.ts), which parse their options with args.ts.
 */
import { homedir } from "node:os";
import { loadParser, type Parser, parseErrorMessage, withGoStacks } from "./load.js";
import type { ShFile } from "./syntax.js";
import { Walker } from "./walk.js";

export interface ShellTargets {
  /** Paths the command writes, as written, joined onto a preceding `cd` directory. */
  writes: string[];
  /**
   * Bodies of `apply_patch` heredocs (or a static patch argument). Their paths are
   * already in `writes` (with any `cd` prefix); the text is there for callers that
   * want the per-file operations.
   */
  patches: string[];
  /** Part of the command may write files we cannot name. */
  opaque: boolean;
  /** The command does not parse, or the parser is missing (then `opaque` is true). */
  error?: string;
}

export interface ShellTargetOptions {
  /** What `~` expands to; defaults to the current user's home directory. */
  home?: string;
}

/** Extracts the write targets of one shell command line (or script). */
export async function extractShellTargets(
  command: string,
  options: ShellTargetOptions = {},
): Promise<ShellTargets> {
  let parser: Parser;
  try {
    parser = await loadParser();
  } catch (err) {
    // A broken install must not take the hook down with it.
    return {
      writes: [],
      patches: [],
      opaque: true,
      error: `shell parser unavailable: ${parseErrorMessage(err)}`,
    };
  }
  return withGoStacks(() => extractWith(parser, command, options.home ?? homedir()));
}

function extractWith(parser: Parser, command: string, home: string): ShellTargets {
  let file: ShFile;
  try {
    file = parser.parse(command);
  } catch (err) {
    return { writes: [], patches: [], opaque: true, error: parseErrorMessage(err) };
  }
  const walker = new Walker(parser, home);
  try {
    walker.walkStmts(file.Stmts, { cwd: "" });
  } catch (err) {
    // A node shape we did not expect must not crash a hook: report what we have.
    return { ...walker.result(), opaque: true, error: `shell walk failed: ${parseErrorMessage(err)}` };
  }
  return walker.result();
}
