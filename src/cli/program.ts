import { Command, CommanderError } from "commander";
import { errorMessage, TandemError } from "../errors.js";
import { VERSION } from "../version.js";
import { claimsCommand } from "./commands/claims.js";
import { deinitCommand } from "./commands/deinit.js";
import { demoCommand } from "./commands/demo.js";
import { doctorCommand } from "./commands/doctor.js";
import { eventsCommand } from "./commands/events.js";
import { initCommand } from "./commands/init.js";
import { releaseCommand } from "./commands/release.js";
import { sessionsCommand } from "./commands/sessions.js";
import { statusCommand } from "./commands/status.js";
import { subCommand } from "./commands/sub.js";
import { taskCommand } from "./commands/task.js";
import { watchCommand } from "./commands/watch.js";
import { type Io, processIo } from "./context.js";

export type CommandFactory = (io: Io) => Command;

const COMMANDS: CommandFactory[] = [
  initCommand,
  deinitCommand,
  statusCommand,
  taskCommand,
  claimsCommand,
  releaseCommand,
  sessionsCommand,
  eventsCommand,
  doctorCommand,
  demoCommand,
  subCommand,
  watchCommand,
];

export function buildProgram(io: Io): Command {
  const program = new Command("tandem")
    .description("Coordinate several AI coding agents in one git repository.")
    .version(VERSION, "-V, --version")
    .option("--root <dir>", "coordination root (default: discovered from the current directory)")
    .showSuggestionAfterError(true)
    .exitOverride()
    .configureOutput({
      writeOut: (s) => io.out(s),
      writeErr: (s) => io.err(s),
      outputError: (s, write) =>
        write(`tandem: ${s.replace(/^error: /, "").trim()} (see \`tandem --help\`)\n`),
    });
  for (const make of COMMANDS) program.addCommand(make(io).copyInheritedSettings(program));
  return program;
}

/** Runs the CLI and returns the exit code (PRODUCT §11: 0 ok, 1 refused/failed, 2 usage). */
export async function runCli(argv: string[], io: Io = processIo()): Promise<number> {
  const program = buildProgram(io);
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
