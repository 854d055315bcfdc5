import { Command, CommanderError } from "commander";
import { errorMessage, TandemError } from "../errors.js";
import { VERSION } from "../version.js";
import { type Io, processIo } from "./context.js";
import { commandWord } from "./light-names.js";

export type CommandFactory = (io: Io) => Command;

/** `tandem sub run`: the words that reach a command, for pointing at its own help. */
function commandPath(cmd: Command): string {
  const words: string[] = [];
  for (let c: Command | null = cmd; c; c = c.parent) words.unshift(c.name());
  return words.join(" ");
}

/**
 * Output through `io`, and usage errors that point at the failing command's own
 * help (`tandem status --bogus` → `tandem status --help`). Applied to every
 * command, after any copy of inherited settings, since those copy this too.
 */
export function routeOutput(cmd: Command, io: Io): Command {
  return cmd.configureOutput({
    writeOut: (s) => io.out(s),
    writeErr: (s) => io.err(s),
    outputError: (s, write) =>
      write(`tandem: ${s.replace(/^error: /, "").trim()} (see \`${commandPath(cmd)} --help\`)\n`),
  });
}

/**
 * A command that only groups others (`tandem`, `tandem sub`) named with nothing
 * after it asks what there is: it gets the same help as --help, on stdout.
 */
export function bareGroup(program: Command, argv: readonly string[]): Command | null {
  let cmd = program;
  for (let i = 0; i < argv.length; i++) {
    const word = argv[i]!;
    if (word === "--root") i++;
    else if (!word.startsWith("--root=")) {
      const next = cmd.commands.find((c) => c.name() === word || c.aliases().includes(word));
      if (!next) return null;
      cmd = next;
    }
  }
  return cmd.commands.length > 0 ? cmd : null;
}

/**
 * `--version` is the program's only before a command word: after one it belongs
 * to the command (`tandem recover f --version 2`), which commander would otherwise
 * never see.
 */
export function buildProgram(
  io: Io,
  commands: readonly CommandFactory[],
  argv: readonly string[] = [],
): Command {
  const program = new Command("tandem").description(
    "Coordinate several AI coding agents in one git repository.",
  );
  if (commandWord(argv) === null) program.version(VERSION, "-V, --version");
  program
    .option("--root <dir>", "coordination root (default: discovered from the current directory)")
    .showSuggestionAfterError(true)
    .exitOverride();
  routeOutput(program, io);
  for (const make of commands) {
    const cmd = make(io).copyInheritedSettings(program);
    program.addCommand(cmd);
    routeOutput(cmd, io);
  }
  return program;
}

/** Runs the CLI and returns the exit code (docs/product.md §11: 0 ok, 1 refused/failed, 2 usage). */
export async function runProgram(
  argv: string[],
  commands: readonly CommandFactory[],
  io: Io = processIo(),
): Promise<number> {
  const program = buildProgram(io, commands, argv);
  const group = bareGroup(program, argv);
  if (group) {
    group.outputHelp();
    return 0;
  }
  try {
    await program.parseAsync(argv, { from: "user" });
    return io.exitCode;
  } catch (err) {
    if (err instanceof CommanderError) {
      if (
        err.code === "commander.helpDisplayed" ||
        err.code === "commander.version" ||
        err.code === "commander.help"
      ) {
        return 0;
      }
      return err.exitCode === 0 ? 0 : 2;
    }
    if (err instanceof TandemError) {
      io.err(`tandem: ${err.message}\n`);
      return err.exitCode;
    }
    io.err(`tandem: ${errorMessage(err)}\n`);
    return 1;
  }
}
