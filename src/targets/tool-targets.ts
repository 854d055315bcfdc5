import type { ToolCall } from "../clients/types.js";
import type { GitCall } from "../core/git/call.js";
import { parsePatchTargets, patchTextFromToolInput, writePaths } from "./apply-patch.js";

/** Raw write targets of one tool call, as the agent wrote them (not yet resolved). */
export interface ToolTargets {
  raws: string[];
  /** A shell command: its real effect is measured after it runs (dirty-set delta). */
  shell: boolean;
  /** Part of the command may write files in ways the parser cannot see. */
  opaque: boolean;
  /** Git commands in a shell command that can destroy or commit work, for the impact reader. */
  gitCalls: GitCall[];
  /** A shell command runs `tandem hook` / `tandem git-hook`: a forged hook call, to be refused. */
  tandemHook: boolean;
  /** Shell commands that change Tandem's wiring without naming a file (`tandem deinit`). */
  wiringCommands: string[];
  /** Pushes that would delete or rewrite refs/tandem/* on a remote (refused to agents). */
  protectedRefs: string[];
  error: string | null;
}

export interface ToolTargetOptions {
  /** The tool call's absolute directory: shell globs are expanded against it. */
  cwd?: string | null;
  /** What `~` expands to in a shell command (the user's home by default). */
  home?: string;
  /** The environment the command inherits (CDPATH and BASHOPTS change where `cd` goes). */
  env?: Readonly<Record<string, string | undefined>>;
}

const FILE_TOOLS = new Set([
  "Write",
  "Edit",
  "MultiEdit",
  "NotebookEdit",
  "StrReplace",
  "Delete",
  // Gemini CLI (docs/clients.md §13.2).
  "write_file",
  "replace",
]);
export const PATCH_TOOLS: ReadonlySet<string> = new Set(["apply_patch"]);
/** Tool names under which each client runs a shell command. */
export const SHELL_TOOLS: ReadonlySet<string> = new Set([
  "Bash",
  "Shell",
  "shell",
  "shell_command",
  "local_shell",
  "exec_command",
  // Gemini CLI (docs/clients.md §13.2).
  "run_shell_command",
]);

function field(input: unknown, ...keys: string[]): string | null {
  if (typeof input !== "object" || input === null) return null;
  for (const k of keys) {
    const v = (input as Record<string, unknown>)[k];
    if (typeof v === "string" && v !== "") return v;
  }
  return null;
}

/** Older Codex shells pass `command` as an argv array (`["bash", "-lc", "…"]`). */
function shellCommand(input: unknown): string | null {
  const direct = field(input, "command", "cmd");
  if (direct !== null) return direct;
  const cmd = (input as { command?: unknown } | null)?.command;
  if (!Array.isArray(cmd) || !cmd.every((c) => typeof c === "string")) return null;
  const c = cmd as string[];
  const dashC = c.findIndex((a) => a === "-c" || a === "-lc");
  return dashC >= 0 && c[dashC + 1] !== undefined ? c[dashC + 1]! : c.join(" ");
}

/** The command line of a shell tool call; null for any other tool. */
export function shellCommandOf(tool: ToolCall): string | null {
  return SHELL_TOOLS.has(tool.name) ? shellCommand(tool.input) : null;
}

function none(): ToolTargets {
  return {
    raws: [],
    shell: false,
    opaque: false,
    gitCalls: [],
    tandemHook: false,
    wiringCommands: [],
    protectedRefs: [],
    error: null,
  };
}

async function fromShell(command: string, options: ToolTargetOptions): Promise<ToolTargets> {
  const { extractShellTargets } = await import("./shell.js");
  // Paths of apply_patch heredocs are already among the writes, joined onto any `cd`.
  const found = await extractShellTargets(command, {
    cwd: options.cwd ?? undefined,
    home: options.home,
    env: options.env,
  });
  return {
    raws: found.writes,
    shell: true,
    opaque: found.opaque,
    gitCalls: found.gitCalls,
    tandemHook: found.tandemHook,
    wiringCommands: found.wiringCommands,
    protectedRefs: found.protectedRefs,
    error: found.error ?? null,
  };
}

/**
 * Every write target in the FULL tool input (docs/product.md §4.3 step 1). Tools that
 * cannot write (Read, Grep, …) have none. The shell parser loads only here.
 */
export async function toolTargets(tool: ToolCall, options: ToolTargetOptions = {}): Promise<ToolTargets> {
  if (FILE_TOOLS.has(tool.name)) {
    const path = field(tool.input, "file_path", "notebook_path", "path");
    return path === null
      ? { ...none(), error: `${tool.name} input names no file` }
      : { ...none(), raws: [path] };
  }
  if (PATCH_TOOLS.has(tool.name)) {
    const text = patchTextFromToolInput(tool.input);
    if (text === null) return { ...none(), error: "apply_patch input carries no patch text" };
    return { ...none(), raws: writePaths(parsePatchTargets(text)) };
  }
  if (SHELL_TOOLS.has(tool.name)) {
    const command = shellCommand(tool.input);
    return command === null
      ? { ...none(), shell: true, error: "shell input carries no command" }
      : fromShell(command, options);
  }
  return none();
}
