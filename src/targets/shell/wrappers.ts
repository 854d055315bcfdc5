/**
 * Commands that run another command: `sudo`, `env`, `nice`, `timeout`, `time`,
 * `command` …, and `bash -c SCRIPT`. The inner command goes back to the walker,
 * which judges it like any other.
 */
import { has, type OptionSpec, parseArgs, splitOptions, values } from "./args.js";
import { withDirectory } from "./cwd.js";
import { addAll, type CommandContext, type Handler } from "./handler.js";
import { childVars, NO_VARS } from "./scope.js";
import type { Arg } from "./types.js";

/**
 * A command that runs the command in its operands (`nohup cmd`, `nice -n 5 cmd` …). Those are
 * programs: what they run is another process, so its `cd` (`nohup cd src`) leaves the shell where
 * it was. `builtin` and `command` run the shell's own builtin, in the shell (`inShell`).
 */
export function wrapper(spec: OptionSpec & { skipOperands?: number; inShell?: boolean } = {}): Handler {
  return (args, ctx) => {
    const rest = splitOptions(args, spec).rest.slice(spec.skipOperands ?? 0);
    if (rest.length > 0) ctx.walker.runCommand(rest, spec.inShell ? ctx : { ...ctx });
  };
}

const ENV_SPEC: OptionSpec = { valued: "uCS", long: ["--unset", "--chdir", "--split-string"] };

export function handleEnv(args: Arg[], ctx: CommandContext): void {
  const { options, rest } = splitOptions(args, ENV_SPEC);
  const parsed = parseArgs(options, ENV_SPEC);
  // `env -S 'cmd args'` splits a string into a command line: too dynamic to follow.
  if (parsed.dynamic || has(parsed, "-S", "--split-string")) {
    ctx.walker.markOpaque();
    return;
  }
  const start = rest.findIndex((arg) => arg === null || !/^[A-Za-z_][A-Za-z0-9_]*=/.test(arg));
  if (start === -1) return; // `env [NAME=VALUE…]` only prints the environment
  const command = rest.slice(start);
  const env = new Map(ctx.env);
  for (const assignment of rest.slice(0, start) as string[]) {
    const eq = assignment.indexOf("=");
    env.set(assignment.slice(0, eq), assignment.slice(eq + 1));
  }
  // `env -i` starts the command with an empty environment.
  const vars = has(parsed, "-i", "--ignore-environment") ? NO_VARS : ctx.scope.vars;
  const inner = { ...ctx, env, scope: { ...ctx.scope, vars } };
  const dir = values(parsed, "-C", "--chdir").at(-1);
  if (dir === undefined) ctx.walker.runCommand(command, inner);
  else withDirectory(dir, inner, (there) => there.walker.runCommand(command, there));
}

export function handleCommand(args: Arg[], ctx: CommandContext): void {
  // `command -v NAME` only looks the name up.
  if (args.some((arg) => arg === "-v" || arg === "-V")) return;
  wrapper({ inShell: true })(args, ctx);
}

const TIME_SPEC: OptionSpec = { valued: "fo", long: ["--output", "--format"] };

/** `/usr/bin/time -o FILE cmd` also writes its report to FILE. */
export function handleTime(args: Arg[], ctx: CommandContext): void {
  const { options, rest } = splitOptions(args, TIME_SPEC);
  addAll(ctx, values(parseArgs(options, TIME_SPEC), "-o", "--output"));
  if (rest.length > 0) ctx.walker.runCommand(rest, { ...ctx });
}

const SUDO_SPEC: OptionSpec = {
  valued: "gChprtTUuD",
  long: ["--user", "--group", "--chdir", "--prompt", "--host", "--role", "--type", "--close-from"],
};

export function handleSudo(args: Arg[], ctx: CommandContext): void {
  const { options, rest } = splitOptions(args, SUDO_SPEC);
  const parsed = parseArgs(options, SUDO_SPEC);
  // `sudo -e FILE…` (sudoedit) edits the files; -l, -v and -k run nothing.
  if (has(parsed, "-e", "--edit")) {
    addAll(ctx, rest);
    return;
  }
  if (has(parsed, "-l", "--list", "-v", "--validate", "-k", "-K")) return;
  // sudo gives its command a fresh environment: none of our variables reach a shell it starts.
  const inner = { ...ctx, env: new Map<string, Arg>(), scope: { ...ctx.scope, vars: NO_VARS } };
  if (rest.length > 0) ctx.walker.runCommand(rest, inner);
}

/** `bash -c SCRIPT`: walk the script; a script file or stdin is opaque. */
export function handleShell(args: Arg[], ctx: CommandContext): void {
  const vars = childVars(ctx.scope.vars, ctx.env);
  // A non-interactive shell first runs the file named in BASH_ENV (sh: ENV).
  if (vars.has("BASH_ENV") || vars.has("ENV")) ctx.walker.markOpaque();
  if (/cdable_vars/.test(vars.get("BASHOPTS")?.value ?? "")) ctx.walker.setCdOption("cdable_vars");
  let commandMode = false;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === null) {
      ctx.walker.markOpaque();
      return;
    }
    if (arg === "--" || !/^[-+]/.test(arg) || arg === "-" || arg === "+") {
      const script = args[arg === "--" ? i + 1 : i];
      if (!commandMode || script === null || script === undefined) {
        ctx.walker.markOpaque();
        return;
      }
      ctx.walker.runScript(script, { cwd: ctx.scope.cwd, vars });
      return;
    }
    if (arg.startsWith("--")) continue; // --login, --norc …
    if (arg.includes("c")) commandMode = true;
    if (/[oO]/.test(arg)) {
      // -O OPTION, -o OPTION: `bash -O cdable_vars -c …`
      if (args[i + 1] === null || args[i + 1] === "cdable_vars") ctx.walker.setCdOption("cdable_vars");
      i++;
    }
  }
  ctx.walker.markOpaque(); // an interactive shell reading stdin
}
