/**
 * Write targets of a shell command (docs/product.md §4.3 step 1, docs/clients.md §5 step 1).
 *
 * The command is parsed with mvdan/sh (the `mvdan-sh` package, loaded on first use;
 * see docs/decisions/0003-shell-parser.md) — or, when it is plain enough, by
 * quick-parse.ts into the same tree without loading mvdan-sh (decision 0010) — and walked: output redirections and the
 * operands of well-known mutating commands are write targets; `apply_patch`
 * heredocs are returned for the patch parser; git commands that can destroy or
 * commit work are listed for the impact reader; a `tandem hook` call is flagged.
 * Anything that could write files in a way we cannot see marks the result
 * `opaque`, so the caller knows the list is not the whole story.
 *
 * Paths are returned as written (unquoted, unescaped), not resolved against the
 * payload `cwd`, but joined onto the directory of a preceding `cd DIR` (also
 * `pushd`, `git -C`, `env -C`). Words are expanded where that is static: brace
 * lists, `~`, variables the script assigned (`F=f.txt; rm $F`), and globs against
 * the file system when the caller's `cwd` is given. The walk follows every path
 * through the script (`a && b`, `if`, loops, functions); where paths disagree on a
 * directory or a variable it becomes unknown, and what lands in an unknown
 * directory or expands at run time marks the result opaque instead of guessing.
 * Subshells, pipelines, `$(…)` and background jobs keep their state to themselves.
 *
 * The parts: load.ts loads the parser; walk.ts walks the tree (with redirects.ts,
 * assign.ts and findings.ts) over the state of scope.ts; expand.ts expands words
 * (words.ts, braces.ts, glob.ts); commands.ts maps command names to handlers
 * (file-commands.ts, git.ts, wrappers.ts, cwd.ts, builtins.ts, tandem.ts), which
 * parse their options with args.ts and reach the walker through types.ts.
 */
import { readdirSync } from "node:fs";
import { homedir } from "node:os";
import { Expander } from "./expand.js";
import type { ListDir } from "./glob.js";
import { loadParser, type Parser, parseErrorMessage, withGoStacks } from "./load.js";
import { NeedsFullParser, quickParse, quickParser } from "./quick-parse.js";
import type { ShFile } from "./syntax.js";
import { Tree } from "./tree.js";
import type { ShellTargets } from "./types.js";
import { Walker } from "./walk.js";

export type { ShellTargets } from "./types.js";

export interface ShellTargetOptions {
  /** What `~` and `$HOME` expand to; defaults to the current user's home directory. */
  home?: string;
  /**
   * The tool call's absolute directory. Globs are expanded against the file system
   * only when it is given; without it they stay unknown (opaque).
   */
  cwd?: string;
  /** Lists a directory for glob expansion; the file system by default. */
  listDir?: ListDir;
  /** How many names globs and brace lists may produce before the command is opaque. */
  globLimit?: number;
  /** false: always parse with mvdan-sh, never the quick parser (tests compare the two). */
  quick?: boolean;
  /**
   * The environment the command inherits, for what changes how `cd` goes: CDPATH, and
   * `cdable_vars` in BASHOPTS. Defaults to this process's environment.
   */
  env?: Readonly<Record<string, string | undefined>>;
}

const GLOB_LIMIT = 10_000;

/** `tandem hook` or `tandem git-hook` anywhere in a command the parser could not read. */
const TANDEM_HOOK_TEXT = /\btandem(\.[cm]?js)?(\s+\S+){0,2}?\s+(git-)?hook\b/;

/** Extracts the write targets of one shell command line (or script). */
export async function extractShellTargets(
  command: string,
  options: ShellTargetOptions = {},
): Promise<ShellTargets> {
  const quick = options.quick === false ? null : quickParse(command);
  if (quick) {
    try {
      return extractWith(quickParser, quick, options);
    } catch (err) {
      // A script inside (`sh -c '…'`) needs mvdan-sh: walk the whole command with it.
      if (!(err instanceof NeedsFullParser)) throw err;
    }
  }
  let parser: Parser;
  try {
    parser = await loadParser();
  } catch (err) {
    // A broken install must not take the hook down with it.
    return unreadable(command, `shell parser unavailable: ${parseErrorMessage(err)}`);
  }
  return withGoStacks(() => {
    let file: ShFile;
    try {
      file = parser.parse(command);
    } catch (err) {
      return unreadable(command, parseErrorMessage(err));
    }
    return extractWith(parser, file, options);
  });
}

function unreadable(command: string, error: string): ShellTargets {
  // Bash runs the lines before a syntax error, so a hook call there still counts.
  const tandemHook = TANDEM_HOOK_TEXT.test(command);
  return {
    writes: [],
    patches: [],
    gitCalls: [],
    tandemHook,
    wiringCommands: [],
    protectedRefs: [],
    opaque: true,
    error,
  };
}

function extractWith(parser: Parser, file: ShFile, options: ShellTargetOptions): ShellTargets {
  const home = options.home ?? homedir();
  const tree = new Tree(parser.syntax);
  const words = new Expander(tree, {
    home,
    cwd: options.cwd,
    listDir: options.listDir ?? listDir,
    limit: options.globLimit ?? GLOB_LIMIT,
  });
  const walker = new Walker(parser, tree, words);
  const env = options.env ?? process.env;
  if (/(^|:)cdable_vars(:|$)/.test(env.BASHOPTS ?? "")) walker.setCdOption("cdable_vars");
  const vars = new Map([
    ["HOME", { value: home, exported: true }],
    // Unset and empty search the same (nothing); exported, so a child shell starts knowing it.
    ["CDPATH", { value: env.CDPATH ?? "", exported: true }],
  ]);
  try {
    walker.walkFile(file, { cwd: "", vars });
  } catch (err) {
    if (err instanceof NeedsFullParser) throw err;
    // A node shape we did not expect must not crash a hook: report what we have.
    return { ...walker.result(), opaque: true, error: `shell walk failed: ${parseErrorMessage(err)}` };
  }
  return walker.result();
}

function listDir(dir: string): string[] | null {
  try {
    return readdirSync(dir);
  } catch {
    return null;
  }
}
