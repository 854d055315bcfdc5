import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { shellQuote } from "../../src/wiring/hook-command.js";

export const TANDEM_BIN = fileURLToPath(new URL("../../dist/tandem.cjs", import.meta.url));

/**
 * The launcher that starts this build (`<node> <bundle>`). The bundle is neither on PATH nor in a
 * project's node_modules, so `init` refuses without a `--command`: tests pin it on purpose.
 */
export const PINNED = `${shellQuote(process.execPath)} ${shellQuote(TANDEM_BIN)}`;

/** `init` arguments that pin this build, for tests that wire a repository. */
export const PIN = ["--command", PINNED];

/** The thin client of this build (`dist/tandem`), what an install's `tandem` command is. */
export const THIN_BIN = fileURLToPath(new URL("../../dist/tandem", import.meta.url));

export interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the built `tandem` binary as a separate process, exactly as users and hooks do. */
export function tandem(
  args: string[],
  opts: { cwd: string; env?: Record<string, string | undefined>; input?: string },
): RunResult {
  const env: Record<string, string | undefined> = {
    ...process.env,
    XDG_CONFIG_HOME: "/nonexistent/tandem-test-xdg",
    ...opts.env,
  };
  for (const k of Object.keys(env)) if (env[k] === undefined) delete env[k];
  const res = spawnSync(process.execPath, [TANDEM_BIN, ...args], {
    cwd: opts.cwd,
    env: env as NodeJS.ProcessEnv,
    input: opts.input ?? "",
    encoding: "utf8",
  });
  return { code: res.status ?? -1, stdout: res.stdout, stderr: res.stderr };
}
