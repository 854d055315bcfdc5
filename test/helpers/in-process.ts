/**
 * The in-process world (issue 39 §4): a hook answered by calling the handler in this process, over
 * a real repository and real git, instead of starting the built binary for every call. It is the
 * path the resident server takes (src/server/dispatch.ts calls the same `handleHook`), minus the
 * socket, and it runs the built bundle (./bundles.ts). What only the binary does (reading stdin,
 * the exit code, starting a server, the code cache) stays proved by the end-to-end files that
 * still call `hook()` from ./hooks.ts.
 *
 * A file that tests what a hook decides uses this `hook`; one that tests how a hook is wired (the
 * process, the thin client, the clients themselves) keeps the binary.
 */
import { hookBundle } from "./bundles.js";
import type { RunResult } from "./cli.js";
import type { Payload } from "./hooks.js";

export interface InProcessOptions {
  cwd: string;
  env?: Record<string, string | undefined>;
  /** The time of the call (ms since the epoch), as the request carries it; unset, the present. */
  now?: number;
}

/**
 * The environment the binary would see: the runner's, with the user's config home out of reach and
 * no inherited CLAUDE_PROJECT_DIR (tests/helpers/hooks.ts and cli.ts give the spawned binary the same).
 */
function hookEnv(extra: Record<string, string | undefined> | undefined): Record<string, string | undefined> {
  const env: Record<string, string | undefined> = {
    ...process.env,
    XDG_CONFIG_HOME: "/nonexistent/tandem-test-xdg",
    CLAUDE_PROJECT_DIR: undefined,
    ...extra,
  };
  for (const k of Object.keys(env)) if (env[k] === undefined) delete env[k];
  return env;
}

/**
 * `tandem hook <client> <event>` answered in this process: the same answer, exit code and messages
 * the binary would print, without a process start. Work the hook leaves for after its answer runs
 * before this returns, as the binary runs it before it exits.
 */
export async function hook(
  client: string,
  event: string,
  payload: Payload | string,
  opts: InProcessOptions,
): Promise<RunResult> {
  const after: (() => void)[] = [];
  const result = await hookBundle().handleHook({
    args: [client, event],
    env: hookEnv(opts.env),
    cwd: opts.cwd,
    pid: process.pid,
    stdin: typeof payload === "string" ? payload : JSON.stringify(payload),
    later: (task) => void after.push(task),
    ...(opts.now === undefined ? {} : { now: opts.now }),
  });
  for (const task of after) task();
  return { code: result.exitCode, stdout: result.stdout, stderr: result.stderr };
}
