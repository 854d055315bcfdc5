import { CLIENT_NAMES, CLIENTS, type ClientName } from "../../clients/index.js";
import { PLAIN, type Printer, spanned } from "../../core/printed.js";
import { UsageError } from "../../errors.js";

/** A registered client, or `exec`: any command. */
export type SubClient = ClientName | "exec";

export const SUB_CLIENTS: readonly SubClient[] = [...CLIENT_NAMES, "exec"];

export interface LaunchOverride {
  command: string;
  args?: string[] | undefined;
}

export interface LaunchLine {
  command: string;
  args: string[];
}

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
  p: Printer = PLAIN,
): LaunchLine {
  if (args.length === 0) {
    throw new UsageError(
      client === "exec"
        ? `sub run --client exec needs the command after \`--\`, e.g. ${spanned(p, "sub", "run", "--", "make", "test")}.`
        : `sub run --client ${client} needs the prompt after \`--\`, e.g. ${spanned(p, "sub", "run", "--client", client, "--", "fix the failing test")}.`,
    );
  }
  if (client === "exec") {
    if (override) return { command: override.command, args: [...(override.args ?? []), ...args] };
    return { command: args[0]!, args: args.slice(1) };
  }
  // Each client's built-in headless line is in its folder (ClientSpec.subagent).
  const builtIn = CLIENTS[client].subagent;
  const base = override ? { command: override.command, args: override.args ?? [] } : builtIn;
  // `--` ends the options: Claude's variadic --allowedTools would otherwise swallow the prompt
  // (found by driving the real binary), and a prompt starting with `-` is never read as a flag.
  const flag = builtIn.promptFlag;
  if (flag) return { command: base.command, args: [...base.args, `${flag}${args.join(" ")}`] };
  return { command: base.command, args: [...base.args, "--", args.join(" ")] };
}

export function parseClient(value: string): SubClient {
  if ((SUB_CLIENTS as readonly string[]).includes(value)) return value as SubClient;
  throw new UsageError(`unknown client "${value}"; use one of ${SUB_CLIENTS.join(", ")}.`);
}
