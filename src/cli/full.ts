/** The full CLI bundle (dist/cli.cjs): every command, and the help that lists them all. */
import { blameCommand } from "./commands/blame.js";
import { conflictsCommand } from "./commands/conflicts.js";
import { deinitCommand } from "./commands/deinit.js";
import { demoCommand } from "./commands/demo.js";
import { doctorCommand } from "./commands/doctor.js";
import { gcCommand } from "./commands/gc.js";
import { initCommand } from "./commands/init.js";
import { jailCommand } from "./commands/jail.js";
import { landCommand } from "./commands/land.js";
import { adoptCommand, discardCommand } from "./commands/left.js";
import { recoverCommand } from "./commands/recover.js";
import { reserveCommand } from "./commands/reserve.js";
import { runCommand } from "./commands/run.js";
import { serveCommand } from "./commands/serve.js";
import { stageCommand } from "./commands/stage.js";
import { subCommand } from "./commands/sub.js";
import { syncCommand } from "./commands/sync.js";
import { uiCommand } from "./commands/ui.js";
import { undoCommand } from "./commands/undo.js";
import { watchCommand } from "./commands/watch.js";
import type { Io } from "./context.js";
import { LIGHT } from "./light.js";
import { type CommandFactory, runProgram } from "./program.js";

/** In the order `tandem --help` lists them. */
export const COMMANDS: readonly CommandFactory[] = [
  initCommand,
  deinitCommand,
  ...LIGHT,
  reserveCommand,
  conflictsCommand,
  blameCommand,
  stageCommand,
  undoCommand,
  recoverCommand,
  adoptCommand,
  discardCommand,
  doctorCommand,
  gcCommand,
  syncCommand,
  landCommand,
  jailCommand,
  runCommand,
  demoCommand,
  subCommand,
  watchCommand,
  uiCommand,
  serveCommand,
];

export function runCli(argv: string[], io?: Io): Promise<number> {
  return runProgram(argv, COMMANDS, io);
}
export { startServerOnDemand } from "../resident/on-demand.js";
