import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { shellQuote } from "../../src/wiring/hook-command.js";
import { runInAgent } from "./agent-shell.js";

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

/**
 * Runs the built `tandem` binary as a separate process, exactly as users and hooks do; `inside` an
 * agent started by `agentShell()`, as that agent's shell command.
 */
export function tandem(
  args: string[],
  opts: {
    cwd: string;
    env?: Record<string, string | undefined>;
    input?: string;
    inside?: { CLAUDE_PID: string };
    /** As a person types it into a terminal (decision 0045): `script` gives it one. */
    terminal?: boolean;
  },
): RunResult {
  const env: Record<string, string | undefined> = {
    ...process.env,
    XDG_CONFIG_HOME: "/nonexistent/tandem-test-xdg",
    ...opts.env,
  };
  for (const k of Object.keys(env)) if (env[k] === undefined) delete env[k];
  if (opts.inside) {
    const call = { cwd: opts.cwd, env, ...(opts.input === undefined ? {} : { input: opts.input }) };
    return runInAgent(opts.inside, process.execPath, [TANDEM_BIN, ...args], call);
  }
  if (opts.terminal) return atTerminal([process.execPath, TANDEM_BIN, ...args], opts.cwd, env, opts.input);
  const res = spawnSync(process.execPath, [TANDEM_BIN, ...args], {
    cwd: opts.cwd,
    env: env as NodeJS.ProcessEnv,
    input: opts.input ?? "",
    encoding: "utf8",
  });
  return { code: res.status ?? -1, stdout: res.stdout, stderr: res.stderr };
}

/**
 * `argv` run in a new session whose controlling terminal is a pseudo-terminal, as a person's
 * command runs; its input and output go through files, not the terminal, so they stay byte-exact.
 */
function atTerminal(
  argv: string[],
  cwd: string,
  env: Record<string, string | undefined>,
  input: string | undefined,
): RunResult {
  const dir = mkdtempSync(join(tmpdir(), "tandem-terminal-"));
  writeFileSync(join(dir, "in"), input ?? "");
  const line = `${argv.map(shellQuote).join(" ")} <${dir}/in >${dir}/out 2>${dir}/err`;
  const res = spawnSync("script", ["-qec", line, "/dev/null"], {
    cwd,
    env: env as NodeJS.ProcessEnv,
    encoding: "utf8",
  });
  const read = (f: string) => readFileSync(join(dir, f), "utf8");
  return { code: res.status ?? -1, stdout: read("out"), stderr: read("err") };
}
