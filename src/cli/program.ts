import { Command, CommanderError } from "commander";
import { errorMessage, TandemError } from "../errors.js";
import { VERSION } from "../version.js";
import { type Io, processIo } from "./context.js";
import { commandWord } from "./light-names.js";

export type CommandFactory = (io: Io) => Command;

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
    .exitOverride()
    .configureOutput({
      writeOut: (s) => io.out(s),
      writeErr: (s) => io.err(s),
      outputError: (s, write) =>
        write(`tandem: ${s.replace(/^error: /, "").trim()} (see \`tandem --help\`)\n`),
    });
  for (const make of commands) program.addCommand(make(io).copyInheritedSettings(program));
  return program;
}

/** Runs the CLI and returns the exit code (docs/product.md §11: 0 ok, 1 refused/failed, 2 usage). */
export async function runProgram(
  argv: string[],
  commands: readonly CommandFactory[],
  io: Io = processIo(),
): Promise<number> {
  const program = buildProgram(io, commands, argv);
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
