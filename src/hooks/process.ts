import { readFileSync } from "node:fs";
import { asksForHelp } from "../core/help-flag.js";
import { callerPid, fallbackRequest, startServerOnDemand } from "../resident/on-demand.js";
import { HOOK_USAGE, type HookResult, handleGitHook, handleHook } from "./handler.js";

// The handler itself, for the test suite's in-process world, which loads this bundle rather than
// the sources (test/helpers/in-process.ts): what it runs is what ships.
export { handleHook };

function readStdin(): string {
  try {
    return readFileSync(0, "utf8");
  } catch {
    return "";
  }
}

/** The only place a hook touches `process`: read stdin, run the handler, write its answer. */
export async function runHookProcess(argv: string[]): Promise<number> {
  const [kind, ...rest] = argv;
  const env = process.env;
  const after: (() => void)[] = [];
  const req = {
    args: rest,
    env,
    cwd: process.cwd(),
    pid: callerPid(env),
    request: fallbackRequest(env),
    later: (task: () => void) => void after.push(task),
  };
  if (asksForHelp(rest)) return printUsage(kind, req);
  const result: HookResult =
    kind === "git-hook" ? await handleGitHook(req) : await handleHook({ ...req, stdin: readStdin() });
  if (result.stdout) process.stdout.write(result.stdout);
  if (result.stderr) process.stderr.write(result.stderr);
  for (const task of after) task();
  startServerOnDemand(env, req.cwd);
  return result.exitCode;
}

/**
 * `tandem hook --help`: the usage on stdout, exit 0; no payload is read, no store opened, no server
 * started. A git hook with no name answers its usage before it looks for a repository.
 */
async function printUsage(
  kind: string | undefined,
  req: Parameters<typeof handleGitHook>[0],
): Promise<number> {
  const usage = kind === "git-hook" ? (await handleGitHook({ ...req, args: [] })).stderr : HOOK_USAGE;
  process.stdout.write(usage.replace(/^tandem: usage: /, "Usage: "));
  return 0;
}
