/** The full CLI bundle (dist/cli.cjs): every command, and the help that lists them all. */
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
import type { Io } from "./context.js";
import { type CommandFactory, runProgram } from "./program.js";

export const COMMANDS: readonly CommandFactory[] = [
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

export function runCli(argv: string[], io?: Io): Promise<number> {
  return runProgram(argv, COMMANDS, io);
}
