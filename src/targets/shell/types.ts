/**
 * The shapes every part of the shell reader shares. This file imports nothing from
 * its siblings, so the walker, the command handlers and the word expansion can all
 * depend on it without depending on each other: the handlers reach the walker only
 * through the `Runner` interface.
 */
import type { GitCall } from "../../core/git/call.js";

/** One argument: its static value, or null when it is only known at run time. */
export type Arg = string | null;

/** A shell variable the script assigned; a name that is absent is unknown (null). */
export interface Var {
  value: Arg;
  /** Exported variables reach the shells a command starts (`bash -c`). */
  exported: boolean;
}

export type Vars = ReadonlyMap<string, Var>;

/** Variables given to one command's environment (`F=x cmd`, `env F=x cmd`). */
export type Env = ReadonlyMap<string, Arg>;

/**
 * The state of the shell at one point of the script. Treated as a value: a walk
 * step makes a new one rather than changing one it was given, so a subshell's
 * state is a copy that cannot leak out.
 */
export interface Scope {
  /** Where relative paths land: "" = the caller's cwd, null = somewhere we cannot tell. */
  cwd: string | null;
  vars: Vars;
}

export interface ShellTargets {
  /** Paths the command writes, as written, joined onto a preceding `cd` directory. */
  writes: string[];
  /**
   * Bodies of `apply_patch` heredocs (or a static patch argument). Their paths are
   * already in `writes` (with any `cd` prefix); the text is there for callers that
   * want the per-file operations.
   */
  patches: string[];
  /** Every git command that can destroy or commit work, for the impact reader to judge. */
  gitCalls: GitCall[];
  /** The command runs `tandem hook` or `tandem git-hook`: from an agent's shell, a forged hook call. */
  tandemHook: boolean;
  /** Commands that change Tandem's wiring without writing a file we can name (`tandem deinit`, `git config core.hooksPath`). */
  wiringCommands: string[];
  /** Pushes that would delete or rewrite refs/tandem/* on a remote, each with what it would do. */
  protectedRefs: string[];
  /** Part of the command may write files we cannot name. */
  opaque: boolean;
  /** The command does not parse, or the parser is missing (then `opaque` is true). */
  error?: string;
}

export type CdOption = "cdable_vars" | "physical";

/** What a command handler may ask of the walker. */
export interface Runner {
  /** What `~` expands to. */
  readonly home: string;
  /**
   * Shell options that change where `cd` goes, once they may be on: `cdable_vars` (a missing
   * directory is a variable's name), `physical` (`set -P`: `..` is taken on disk).
   */
  readonly cdOptions: ReadonlySet<CdOption>;
  markOpaque(): void;
  addTarget(path: Arg, scope: Scope): void;
  /**
   * The paths a link-making command (`ln`, `cp -l/-s/-a`, `link`, `mv`) writes. A write through
   * a link made in the same command lands on what it points at: such a command is opaque.
   */
  addLinkTargets(paths: Arg[], scope: Scope): void;
  /** A variable's static value in `scope` (null when unknown). */
  lookup(scope: Scope, name: string): Arg;
  /** The absolute directory `scope` is in, when the caller's cwd is known. */
  directory(scope: Scope): string | null;
  /** From here on `option` may be on (`shopt -s cdable_vars`, `set -P`). */
  setCdOption(option: CdOption): void;
  addPatch(text: string, scope: Scope): void;
  addGitCall(call: GitCall): void;
  /** `git config alias.NAME VALUE` ran earlier in the command (null: a value known only at run time). */
  setGitAlias(name: string, value: Arg): void;
  /** `-c alias.NAME=VALUE` words for the aliases the command defined so far, for its later git calls. */
  gitAliasArgs(): string[];
  /** What the command just run writes to stdout, when the reader knows it exactly (`echo`, `printf`). */
  setOutput(text: string): void;
  markTandemHook(): void;
  markWiringCommand(text: string): void;
  markProtectedRefs(text: string): void;
  /** From here on a glob cannot be expanded (`shopt -s dotglob` and the like). */
  stopGlobbing(): void;
  /** From here on no variable is known (`declare -n`: a name reference may assign any). */
  forgetVariables(): void;
  /** Judges one program's command line; wrappers (`sudo cmd`, `env cmd` …) call back here for theirs. */
  runCommand(argv: Arg[], ctx: CommandContext): void;
  /** Walks a script (`bash -c`, `eval`) starting in `scope`; returns the state it may end in. */
  runScript(script: string, scope: Scope): Scope;
  /** `break`, `continue`, `return`: the enclosing loops and functions may end in `scope`. */
  leaveBlock(scope: Scope): void;
}

export interface CommandContext {
  walker: Runner;
  /** The state the command runs in; `cd`, `read` and the like change it. */
  scope: Scope;
  /** Prefix assignments (`F=x cmd`), null when unknown: only the command's environment sees them. */
  env: Env;
  /** The statement's heredoc body: undefined when there is none, null when dynamic. */
  heredoc: Arg | undefined;
  /**
   * Every unknown argument is known to be exactly one argument (it sat inside double
   * quotes), so the positions of the others can be trusted.
   */
  countKnown: boolean;
  /** Its stdin when it is the output of a static `echo`/`printf` piped in; absent otherwise. */
  stdin?: string;
}

/** Judges one command from its arguments (the command name removed). */
export type Handler = (args: Arg[], ctx: CommandContext) => void;
