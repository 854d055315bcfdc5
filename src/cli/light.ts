/**
 * The light CLI bundle (dist/cli-light.cjs): the same program as full.ts with only the commands
 * of light-names.ts, so an agent's `tandem status` or `tandem task` does not load the code of
 * init, doctor, the sub-agents and the board (1–2 ms a call, measured with 30 alternating runs;
 * docs/decisions/0002).
 */
import { claimsCommand } from "./commands/claims.js";
import { eventsCommand } from "./commands/events.js";
import { releaseCommand } from "./commands/release.js";
import { sessionsCommand } from "./commands/sessions.js";
import { statusCommand } from "./commands/status.js";
import { taskCommand } from "./commands/task.js";
import type { Io } from "./context.js";
import { type CommandFactory, runProgram } from "./program.js";

export const LIGHT: readonly CommandFactory[] = [
  statusCommand,
  taskCommand,
  claimsCommand,
  releaseCommand,
  sessionsCommand,
  eventsCommand,
];

export function runCli(argv: string[], io?: Io): Promise<number> {
  return runProgram(argv, LIGHT, io);
}
export { startServerOnDemand } from "../resident/on-demand.js";
