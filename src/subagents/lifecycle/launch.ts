import { UsageError } from "../../errors.js";

export type SubClient = "claude-code" | "codex" | "cursor" | "copilot-cli" | "gemini-cli" | "exec";

export const SUB_CLIENTS: readonly SubClient[] = [
  "claude-code",
  "codex",
  "cursor",
  "copilot-cli",
  "gemini-cli",
  "exec",
];

export interface LaunchOverride {
  command: string;
  args?: string[] | undefined;
}

export interface LaunchLine {
  command: string;
  args: string[];
}

/**
 * Built-in headless launch lines. The child works alone in its own worktree, so
 * each client gets the mode that lets it edit files without asking a human.
 */
const BUILT_IN: Record<Exclude<SubClient, "exec">, LaunchLine> = {
  // The child may run git in its own worktree: Bash is allowed along with the edit tools.
  "claude-code": {
    command: "claude",
    args: [
      "-p",
      "--permission-mode",
      "acceptEdits",
      "--allowedTools",
      "Bash Edit Write MultiEdit NotebookEdit",
    ],
  },
  codex: { command: "codex", args: ["exec", "--full-auto"] },
  cursor: { command: "cursor-agent", args: ["-p", "--force"] },
  // Repo hooks load in prompt mode only in a trusted folder: --trust-folder trusts this run's alone.
  "copilot-cli": { command: "copilot", args: ["--allow-all", "--trust-folder", "--no-ask-user"] },
  // Headless only with `--prompt`; a bare prompt without a terminal exits 42 (docs/clients.md §13.5).
  "gemini-cli": { command: "gemini", args: ["--yolo"] },
};

/**
 * Copilot takes the prompt as the value of -p, Gemini is headless only with it: `--prompt=` keeps a
 * prompt starting with `-` a value.
 */
const PROMPT_FLAG: Partial<Record<SubClient, string>> = {
  "copilot-cli": "--prompt=",
  "gemini-cli": "--prompt=",
};

/**
 * The command that runs a child (docs/product.md §7.1). `exec`: ARGS is the command
 * itself (an override is a wrapper put in front of it). A client: ARGS joined
 * is the prompt, appended after the client's command and flags, which
 * `subagents.clients.<name>` replaces.
 */
export function launchLine(
  client: SubClient,
  args: readonly string[],
  override?: LaunchOverride | undefined,
): LaunchLine {
  if (args.length === 0) {
    throw new UsageError(
      client === "exec"
        ? "sub run --client exec needs the command after `--`, e.g. `tandem sub run -- make test`."
        : `sub run --client ${client} needs the prompt after \`--\`, e.g. \`tandem sub run --client ${client} -- "fix the failing test"\`.`,
    );
  }
  if (client === "exec") {
    if (override) return { command: override.command, args: [...(override.args ?? []), ...args] };
    return { command: args[0]!, args: args.slice(1) };
  }
  const base = override ? { command: override.command, args: override.args ?? [] } : BUILT_IN[client];
  // `--` ends the options: Claude's variadic --allowedTools would otherwise swallow the prompt
  // (found by driving the real binary), and a prompt starting with `-` is never read as a flag.
  const flag = PROMPT_FLAG[client];
  if (flag) return { command: base.command, args: [...base.args, `${flag}${args.join(" ")}`] };
  return { command: base.command, args: [...base.args, "--", args.join(" ")] };
}

export function parseClient(value: string): SubClient {
  if ((SUB_CLIENTS as readonly string[]).includes(value)) return value as SubClient;
  throw new UsageError(`unknown client "${value}"; use one of ${SUB_CLIENTS.join(", ")}.`);
}
