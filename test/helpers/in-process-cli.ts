/**
 * A `tandem` command run in this process (issue 39 §4), as the resident server runs a light command
 * (src/server/dispatch.ts): the full CLI's `runCli`, from the built bundle (./bundles.ts), with an
 * `Io` carrying the call's directory, variables and output, instead of a process start per call
 * (~350 ms on a busy 2-core machine).
 *
 * For what a command reports and changes. What only a process shows stays on the binary
 * (test/helpers/cli.ts `tandem`): exit through a signal or a crash point (`TANDEM_TEST_CRASH_AT`),
 * a terminal, the ancestry of a command run inside an agent, and variables git must inherit.
 */

import type { Io } from "../../src/cli/context.js";
import { cliBundle } from "./bundles.js";
import type { RunResult } from "./cli.js";

export interface CliOptions {
  cwd: string;
  env?: Record<string, string | undefined>;
}

/** The variables the binary would see: the runner's, with the user's config home out of reach. */
function cliEnv(extra: Record<string, string | undefined> | undefined): Record<string, string | undefined> {
  const env: Record<string, string | undefined> = {
    ...process.env,
    XDG_CONFIG_HOME: "/nonexistent/tandem-test-xdg",
    ...extra,
  };
  for (const k of Object.keys(env)) if (env[k] === undefined) delete env[k];
  return env;
}

/** `tandem <args>` answered in this process: the exit code and both outputs the binary would give. */
export async function cli(args: string[], opts: CliOptions): Promise<RunResult> {
  // A crash point kills the process it runs in: here, the test runner's worker.
  if (opts.env?.TANDEM_TEST_CRASH_AT !== undefined)
    throw new Error("cli(): TANDEM_TEST_CRASH_AT needs a process of its own; use tandem() from ./cli.js");
  const out: string[] = [];
  const err: string[] = [];
  const io: Io = {
    cwd: opts.cwd,
    env: cliEnv(opts.env),
    pid: process.pid,
    out: (t) => void out.push(t),
    err: (t) => void err.push(t),
    isTty: false,
    exitCode: 0,
  };
  const code = await cliBundle().runCli(args, io);
  return { code, stdout: out.join(""), stderr: err.join("") };
}
