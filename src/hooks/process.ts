import { readFileSync } from "node:fs";
import { type HookResult, handleGitHook, handleHook } from "./handler.js";

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
  const req = { args: rest, env: process.env, cwd: process.cwd(), pid: process.pid };
  const result: HookResult =
    kind === "git-hook" ? await handleGitHook(req) : await handleHook({ ...req, stdin: readStdin() });
  if (result.stdout) process.stdout.write(result.stdout);
  if (result.stderr) process.stderr.write(result.stderr);
  return result.exitCode;
}
